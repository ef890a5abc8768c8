// statement_floor.cpp -- waveemu-bench --floor: how fast the free-ID wave kernel runs one
// statement at a time when written by hand. Not a lower bound: since session 14 the emulator
// runs faster than the InMemory version below. The kernel at wave 8 (groups of 64 threads,
// eight waves) is written here by hand in AVX-512, statement for statement, with each
// statement's HLSL rules kept (per-wave counts, prefix counts and first lanes, one claim per
// wave in lane order, the store under the IsFree mask), twice over:
//   * InMemory: every per-thread value lives in a 64-thread array between statements, and the
//     execution mask in a word, as in an execution that passes values from one statement to the
//     next through memory (the emulator does); a compiler barrier after each statement keeps
//     it so.
//   * InRegisters: the same statements on values kept in registers, as a compiler of the whole
//     kernel would keep them.
// Both are timed in turns with the Highway loop, the hand-fused claim pattern (native shared
// counter: count, one fetch_add, store, per group) and the emulator, all on one thread at 2^24
// IDs, each run's output checked. docs/performance_history.md (sessions 8 and 14) reads the
// result against the one-thread target. It needs AVX-512 with BITALG and VPOPCNTDQ (Ice Lake,
// Zen 4 and later).
#include "examples/niagara_free_ids/free_ids_reference.h"
#include "examples/niagara_free_ids/free_ids_wave.h"
#include "tools/bench/bench_common.h"
#include "tools/bench/free_ids_runs.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && \
    defined(__AVX512BITALG__) && defined(__AVX512VPOPCNTDQ__)
#define WAVEEMU_BENCH_HAVE_FLOOR 1
#include <immintrin.h>
#else
#define WAVEEMU_BENCH_HAVE_FLOOR 0
#endif

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

namespace waveemu::bench {

#if WAVEEMU_BENCH_HAVE_FLOOR
namespace {

constexpr int kGroupThreads = 64, kVectors = 4;  // 16 lanes of 32 bits per vector
#define WAVEEMU_UNROLL_VECTORS _Pragma("GCC unroll 4")

/// Per-thread values in 64-thread arrays in memory; EndStatement makes the compiler write every
/// value back and read it again, so no value stays in a register from one statement to the next.
struct InMemory {
  struct alignas(64) Value {
    uint32_t lane[kGroupThreads];
  };
  static __m512i Get(const Value& x, int v) { return _mm512_load_si512(x.lane + 16 * v); }
  static void Set(Value& x, int v, __m512i r) { _mm512_store_si512(x.lane + 16 * v, r); }
  static void SetActive(Value& x, int v, __mmask16 active, __m512i r) {
    // Blend, then store the whole vector: measured faster here than a masked store.
    _mm512_store_si512(x.lane + 16 * v, _mm512_mask_blend_epi32(active, Get(x, v), r));
  }
  template <class State>
  static void EndStatement(State& s) {
    asm volatile("" : : "r"(&s) : "memory");
  }
};

/// The same values as registers: GCC keeps a small array of vectors in registers when every
/// index is a constant, so every loop over the vectors is unrolled (WAVEEMU_UNROLL_VECTORS).
struct InRegisters {
  struct Value {
    __m512i vec[kVectors];
  };
  static __m512i Get(const Value& x, int v) { return x.vec[v]; }
  static void Set(Value& x, int v, __m512i r) { x.vec[v] = r; }
  static void SetActive(Value& x, int v, __mmask16 active, __m512i r) {
    x.vec[v] = _mm512_mask_mov_epi32(x.vec[v], active, r);
  }
  template <class State>
  static void EndStatement(State&) {}
};

__mmask16 Part(uint64_t mask, int v) { return __mmask16(mask >> (16 * v)); }

/// The lowest set bit of each byte: each wave's first lane, at wave 8.
uint64_t FirstBitPerByte(uint64_t x) {
  uint64_t from_first = x;  // bits at or above the lowest set bit of their byte
  from_first |= (from_first << 1) & 0xFEFEFEFEFEFEFEFEull;
  from_first |= (from_first << 2) & 0xFCFCFCFCFCFCFCFCull;
  from_first |= (from_first << 4) & 0xF0F0F0F0F0F0F0F0ull;
  return x & ~((from_first << 1) & 0xFEFEFEFEFEFEFEFEull);
}

template <class Storage>
struct GroupState {
  typename Storage::Value ParticleID, IsFree, NumGroupFreeIDs, WriteOffset, GroupWriteStart;
  uint64_t exec = 0;  // the execution mask: bit i is thread i
};

/// Bits of the threads where x != 0.
template <class Storage>
uint64_t NonZero(const typename Storage::Value& x) {
  uint64_t m = 0;
  WAVEEMU_UNROLL_VECTORS
  for (int v = 0; v < kVectors; ++v) {
    const __m512i xv = Storage::Get(x, v);
    m |= uint64_t(_mm512_test_epi32_mask(xv, xv)) << (16 * v);
  }
  return m;
}

/// The free-ID wave kernel (free_ids_wave.h) at wave 8, statement by statement; returns the
/// list's length. table.size() must be a multiple of 64 (one group per 64 IDs).
template <class Storage>
size_t FreeIDsWave8(std::span<const int32_t> table, std::span<int32_t> list) {
  const size_t n = table.size();
  std::atomic<int32_t> counter{0};  // RWFreeIDListSizes[0]
  const __m512i iota = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i wave_in_vector = _mm512_srli_epi32(iota, 3);  // 0 for lanes 0-7, 1 for 8-15
  const __m512i wave_base_lane = _mm512_and_si512(iota, _mm512_set1_epi32(8));
  const __m512i lanes_below = _mm512_sllv_epi32(  // a lane's lower lanes within its wave
      _mm512_sub_epi32(
          _mm512_sllv_epi32(_mm512_set1_epi32(1), _mm512_and_si512(iota, _mm512_set1_epi32(7))),
          _mm512_set1_epi32(1)),
      wave_base_lane);
  const auto wave_of = [&](int v) {  // lane -> its wave's index in the group
    return _mm512_add_epi32(wave_in_vector, _mm512_set1_epi32(2 * v));
  };
  GroupState<Storage> s{};  // inactive lanes keep what they had, zero at first
  for (size_t g = 0; g < n / kGroupThreads; ++g) {
    // Uint<N> ParticleID = InputStart + Thread;
    s.exec = ~uint64_t(0);
    WAVEEMU_UNROLL_VECTORS
    for (int v = 0; v < kVectors; ++v)
      Storage::Set(s.ParticleID, v,
                   _mm512_add_epi32(_mm512_set1_epi32(int(g * kGroupThreads) + 16 * v), iota));
    Storage::EndStatement(s);

    // Uint<N> IsFree = select(IDToIndexTable[ParticleID] == -1, 1u, 0u);  (consecutive IDs: a
    // load; otherwise a gather)
    {
      const uint32_t first = uint32_t(_mm512_cvtsi512_si32(Storage::Get(s.ParticleID, 0)));
      bool consecutive = size_t(first) + kGroupThreads <= n;  // checked once per group
      WAVEEMU_UNROLL_VECTORS
      for (int v = 0; v < kVectors; ++v) {
        const __m512i expected = _mm512_add_epi32(_mm512_set1_epi32(int(first) + 16 * v), iota);
        consecutive &= _mm512_mask_cmpneq_epi32_mask(Part(s.exec, v), Storage::Get(s.ParticleID, v),
                                                     expected) == 0;
      }
      WAVEEMU_UNROLL_VECTORS
      for (int v = 0; v < kVectors; ++v) {
        const __mmask16 active = Part(s.exec, v);
        const __m512i id = Storage::Get(s.ParticleID, v);
        const __mmask16 in_bounds =  // out-of-bounds reads give 0, as D3D's
            n >> 32 ? active : _mm512_mask_cmplt_epu32_mask(active, id, _mm512_set1_epi32(int(n)));
        const __m512i entry = consecutive
                                  ? _mm512_maskz_loadu_epi32(active, table.data() + first + 16 * v)
                                  : _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), in_bounds,
                                                                id, table.data(), 4);
        const __mmask16 is_free = _mm512_cmpeq_epi32_mask(entry, _mm512_set1_epi32(-1));
        Storage::SetActive(s.IsFree, v, active,
                           _mm512_maskz_mov_epi32(is_free, _mm512_set1_epi32(1)));
      }
    }
    Storage::EndStatement(s);

    // Uint<N> NumGroupFreeIDs = WaveActiveCountBits(IsFree != 0u);  (a byte of the mask per wave)
    {
      const uint64_t ballot = NonZero<Storage>(s.IsFree) & s.exec;
      const __m512i count =
          _mm512_cvtepu8_epi32(_mm_popcnt_epi8(_mm_cvtsi64_si128(int64_t(ballot))));
      WAVEEMU_UNROLL_VECTORS
      for (int v = 0; v < kVectors; ++v)
        Storage::SetActive(s.NumGroupFreeIDs, v, Part(s.exec, v),
                           _mm512_permutexvar_epi32(wave_of(v), count));
    }
    Storage::EndStatement(s);

    // Uint<N> WriteOffset = WavePrefixCountBits(IsFree != 0u);
    {
      const uint64_t ballot = NonZero<Storage>(s.IsFree) & s.exec;
      WAVEEMU_UNROLL_VECTORS
      for (int v = 0; v < kVectors; ++v) {
        const __m512i bits = _mm512_and_si512(_mm512_set1_epi32(Part(ballot, v)), lanes_below);
        Storage::SetActive(s.WriteOffset, v, Part(s.exec, v), _mm512_popcnt_epi32(bits));
      }
    }
    Storage::EndStatement(s);

    // if_(NumGroupFreeIDs > 0u, [&] {
    const uint64_t outer = s.exec;
    s.exec = outer & NonZero<Storage>(s.NumGroupFreeIDs);  // unsigned: > 0u is != 0u
    Storage::EndStatement(s);
    if (s.exec != 0) {
      const uint64_t in_if = s.exec;
      // if_(WaveIsFirstLane<N>(), [&] { InterlockedAdd(RWFreeIDListSizes[0], NumGroupFreeIDs,
      //                                                GroupWriteStart); });
      s.exec = FirstBitPerByte(in_if);
      Storage::EndStatement(s);
      {
        // The waves claim in lane order: an exclusive scan of the active values (log-step
        // within a vector, a carry across vectors), one fetch_add of the total.
        __m512i exclusive[kVectors], carry = _mm512_setzero_si512();
        WAVEEMU_UNROLL_VECTORS
        for (int v = 0; v < kVectors; ++v) {
          const __m512i value =
              _mm512_maskz_mov_epi32(Part(s.exec, v), Storage::Get(s.NumGroupFreeIDs, v));
          __m512i sum = value;
          for (int shift = 1; shift < 16; shift *= 2)
            sum = _mm512_add_epi32(sum, _mm512_maskz_permutexvar_epi32(
                                            __mmask16(0xFFFFu << shift),
                                            _mm512_sub_epi32(iota, _mm512_set1_epi32(shift)), sum));
          exclusive[v] = _mm512_add_epi32(_mm512_sub_epi32(sum, value), carry);
          carry = _mm512_add_epi32(carry, _mm512_permutexvar_epi32(_mm512_set1_epi32(15), sum));
        }
        const int32_t base =
            counter.fetch_add(_mm512_cvtsi512_si32(carry), std::memory_order_relaxed);
        WAVEEMU_UNROLL_VECTORS
        for (int v = 0; v < kVectors; ++v)
          Storage::SetActive(s.GroupWriteStart, v, Part(s.exec, v),
                             _mm512_add_epi32(exclusive[v], _mm512_set1_epi32(base)));
      }
      s.exec = in_if;
      Storage::EndStatement(s);

      // GroupWriteStart = WaveReadLaneFirst(GroupWriteStart);
      {
        const __m128i first = _mm_cvtsi64_si128(int64_t(FirstBitPerByte(s.exec)));
        const __m128i below_first = _mm_andnot_si128(first, _mm_sub_epi8(first, _mm_set1_epi8(1)));
        const __m512i first_lane = _mm512_cvtepu8_epi32(_mm_popcnt_epi8(below_first));  // per wave
        WAVEEMU_UNROLL_VECTORS
        for (int v = 0; v < kVectors; ++v) {
          const __m512i source =
              _mm512_add_epi32(_mm512_permutexvar_epi32(wave_of(v), first_lane), wave_base_lane);
          Storage::SetActive(s.GroupWriteStart, v, Part(s.exec, v),
                             _mm512_permutexvar_epi32(source, Storage::Get(s.GroupWriteStart, v)));
        }
      }
      Storage::EndStatement(s);

      // if_(IsFree, [&] {
      s.exec = NonZero<Storage>(s.IsFree) & in_if;
      Storage::EndStatement(s);

      // RWFreeIDList[GroupWriteStart + WriteOffset] = ParticleID;  (indices consecutive over
      // the active lanes: a compressed store; otherwise lane by lane)
      WAVEEMU_UNROLL_VECTORS
      for (int v = 0; v < kVectors; ++v) {
        const __mmask16 active = Part(s.exec, v);
        if (active == 0) continue;
        const __m512i index =
            _mm512_add_epi32(Storage::Get(s.GroupWriteStart, v), Storage::Get(s.WriteOffset, v));
        const __m512i packed = _mm512_maskz_compress_epi32(active, index);
        const uint32_t first = uint32_t(_mm512_cvtsi512_si32(packed));
        const int count = __builtin_popcount(active);
        const __mmask16 head = __mmask16((1u << count) - 1);
        const __m512i value = Storage::Get(s.ParticleID, v);
        if (_mm512_mask_cmpneq_epi32_mask(
                head, packed, _mm512_add_epi32(_mm512_set1_epi32(int(first)), iota)) == 0 &&
            size_t(first) + size_t(count) <= list.size()) {
          _mm512_mask_storeu_epi32(list.data() + first, head,
                                   _mm512_maskz_compress_epi32(active, value));
        } else {
          alignas(64) uint32_t at[16], id[16];
          _mm512_store_si512(at, index);
          _mm512_store_si512(id, value);
          for (int i = 0; i < 16; ++i)
            if ((active >> i) & 1 && at[i] < list.size()) list[at[i]] = int32_t(id[i]);
        }
      }
      Storage::EndStatement(s);
    }
    s.exec = outer;  // });
  }
  return size_t(counter.load());
}

template <class Storage>
double RunFloor(std::span<const int32_t> table, size_t expected_count, FreeIDsBuffers& buf) {
  if (table.size() % kGroupThreads != 0) return -1;
  buf.list.assign(table.size(), examples::kUnwritten);
  const auto start = Clock::now();
  const size_t count = FreeIDsWave8<Storage>(table, buf.list);
  const double ms = MsSince(start);
  return CheckFreeIDs(table, buf.list, int64_t(count), expected_count, buf.seen) ? ms : -1;
}

}  // namespace

int StatementFloor(const Config& cfg) {
  const int repeats = std::max(cfg.repeats, 11);
  const size_t size = size_t(1) << 24;
  const std::vector<int32_t> table = examples::MakeRandomIDTable(size, 0.5, 42);
  const size_t expected = examples::ReferenceFreeIDs(table).size();
  FreeIDsBuffers buf;
  Config one_by_one = cfg;
  one_by_one.groups_in_flight = 1;  // one thread: no fibers
  HighwayBaseline highway_forms{repeats, table, expected, buf};
  Contender fused{repeats, [&] { return RunNativeSharedCounter(table, expected, 1, 1, buf); }};
  Contender registers{repeats, [&] { return RunFloor<InRegisters>(table, expected, buf); }};
  Contender memory{repeats, [&] { return RunFloor<InMemory>(table, expected, buf); }};
  Contender emulator{repeats, [&] {
                       return RunEmulatorFreeIDs<examples::ComputeFreeIDsWave<64>>(
                           table, expected, 8, 1, one_by_one, buf);
                     }};
  MeasureInTurns({&highway_forms.in_register, &highway_forms.compress_store, &fused, &registers,
                  &memory, &emulator});
  const Contender& highway = highway_forms.Faster();

  fmt::print(
      "Statements by hand: free-ID wave kernel, 2^24 IDs, free 0.5, wave 8, one thread; "
      "median of {} runs in turns, and the median over turns of each run's ratio to the "
      "Highway run of its turn, in the faster form ({})\n\n",
      repeats, highway_forms.FasterName());
  fmt::print("{:<58} {:>9} {:>14}\n", "contender", "ms", "x Highway");
  bool ok = true;
  const auto line = [&](const char* name, const Contender& c) {
    std::vector<double> ratio;
    for (size_t i = 0; i < c.ms.size() && i < highway.ms.size(); ++i)
      ratio.push_back(c.ms[i] / highway.ms[i]);
    fmt::print("{:<58} {:>9.2f} {:>14.2f}{}\n", name, c.Result(),
               ratio.empty() || c.wrong ? NAN : Median(ratio), c.wrong ? "  output WRONG" : "");
    ok &= !c.wrong;
  };
  line("Highway loop, compress in a register", highway_forms.in_register);
  line("Highway loop, CompressStore", highway_forms.compress_store);
  line("fused by hand: count, one fetch_add, store, per group", fused);
  line("statement by statement, values in registers", registers);
  line("statement by statement, values in memory", memory);
  line("emulator, one thread", emulator);
  fmt::print("\nThe one-thread target is 3x the Highway loop (its faster form).\n");
  return ok ? 0 : 1;
}

#else

int StatementFloor(const Config&) {
  fmt::print(stderr,
             "--floor needs a build for AVX-512 with BITALG and VPOPCNTDQ "
             "(-march=native on Ice Lake, Zen 4 or later); this one is not\n");
  return 1;
}

#endif

}  // namespace waveemu::bench
