// run_group.h -- runs a lambda as the body of one thread group, for unit tests of intrinsics and
// control flow without a kernel struct or a dispatch.
#pragma once

#include "emulator/emulator.h"

namespace waveemu::test {

/// Runs body() as one group of N threads at the given wave size and profile. Diagnostics go to
/// `shared` when given.
template <int N, class F>
void RunGroup(int wave_size, F&& body, const DeviceProfile& profile = SpecProfile(),
              DispatchShared* shared = nullptr) {
  GroupState<N> state(wave_size, profile, uint3{}, shared);
  ScopedGroup<N> scope(state);
  body();
}

}  // namespace waveemu::test
