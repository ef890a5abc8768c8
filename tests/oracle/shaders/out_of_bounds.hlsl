// Out-of-bounds reads and writes of structured buffers: with robustBufferAccess2 (D3D's rule)
// reads past the end give 0 and writes past the end are dropped.
StructuredBuffer<uint> In : register(t0);      // 4 elements
RWStructuredBuffer<uint> Out : register(u1);   // 8 elements
RWStructuredBuffer<uint> Small : register(u2); // 4 elements

[numthreads(8, 1, 1)]
void main(uint gi : SV_GroupIndex) {
  Out[gi] = In[gi] + 100;  // threads 4..7 read past the end of In
  Small[gi + 4] = 7;       // every write is past the end of Small
}
