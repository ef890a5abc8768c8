// long_vector_typed_buffer.cpp -- must not compile: HLSL allows long vectors only in structured
// and raw buffers (proposal 0026), so a typed Buffer of one is refused with the alternative.
// expect: StructuredBuffer<S> for structs and long vectors
#include "emulator/emulator.h"

using namespace waveemu;

void F() { Buffer<UniformLongVector<float, 8>> b; }
