// Practically never finishes: 2^32 groups, each hashing 65535 rounds (lavapipe's loop limiter
// ends any loop of a thread after about 65535 iterations in total, so one endless loop would not
// do). The loop bound and seed come from the buffer so the compiler can neither fold nor drop
// the loop. Proves the fence timeout.
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(1, 1, 1)]
void main(uint3 group : SV_GroupID) {
  uint h = Out[0] + group.x;
  for (uint i = 0; i < Out[1]; ++i)
    h = (h * 1664525u + 1013904223u) ^ (h >> 7);
  Out[2 + (h & 1)] = h;
}
