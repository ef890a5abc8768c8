// Typed buffers (Buffer/RWBuffer -> uniform/storage texel buffers): one-component float and
// signed int views, and a four-component float view (stride 16 -> R32G32B32A32_SFLOAT).
Buffer<float> In : register(t0);
Buffer<float4> In4 : register(t1);
RWBuffer<int> Out : register(u2);
RWBuffer<float4> Out4 : register(u3);

[numthreads(4, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
  const uint i = dtid.x;
  Out[i] = int(In[i] * 2.0f) - 5;
  Out4[i] = In4[i].wzyx;
}
