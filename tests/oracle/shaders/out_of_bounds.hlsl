// Out-of-bounds reads and writes of structured and typed buffers: with robustBufferAccess2
// (D3D's rule) reads past the end give 0 (all four components of a typed read, alpha included)
// and writes past the end are dropped.
StructuredBuffer<uint> In : register(t0);      // 4 elements
RWStructuredBuffer<uint> Out : register(u1);   // 8 elements
RWStructuredBuffer<uint> Small : register(u2); // 4 elements
Buffer<float4> Typed : register(t3);           // 2 elements
RWBuffer<float4> TypedOut : register(u4);      // 8 elements
RWBuffer<float4> TypedSmall : register(u5);    // 2 elements

[numthreads(8, 1, 1)]
void main(uint gi : SV_GroupIndex) {
  Out[gi] = In[gi] + 100;  // threads 4..7 read past the end of In
  Small[gi + 4] = 7;       // every write is past the end of Small
  TypedOut[gi] = Typed[gi];  // threads 2..7 read past the end of Typed
  TypedSmall[gi + 2] = float4(9, 9, 9, 9);  // every write is past the end of TypedSmall
}
