// A deliberate error on line 7 (an undeclared name): the message must name this file and line.
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(8, 1, 1)]
void main(uint gi : SV_GroupIndex) {
  uint x = gi * 2;
  Out[gi] = x + undeclared_offset;
}
