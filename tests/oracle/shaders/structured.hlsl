// Storage-buffer kinds round trip: StructuredBuffer of uint2, ByteAddressBuffer, a cbuffer,
// and two writable outputs in another descriptor set.
StructuredBuffer<uint2> In : register(t0);
ByteAddressBuffer Raw : register(t1);
cbuffer Constants : register(b2) {
  uint Scale;
  uint Offset;
};
RWStructuredBuffer<uint> Out : register(u0, space1);
RWByteAddressBuffer RawOut : register(u1, space1);

[numthreads(8, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID) {
  const uint i = dtid.x;
  Out[i] = In[i].x * Scale + In[i].y + Offset;
  RawOut.Store(i * 4, Raw.Load(i * 4) ^ 0xffffffffu);
}
