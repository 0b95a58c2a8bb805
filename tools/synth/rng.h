// Deterministic pseudo-random numbers for the synthetic run generator.
//
// Contract: the same seed gives the same sequence on every platform and
// standard library.  The generator is xoshiro256** seeded through SplitMix64,
// and the helpers map its output to ranges with plain integer and IEEE double
// arithmetic (no <random> distributions, whose output is
// implementation-defined).
#pragma once

#include <cstdint>

namespace htpscope::synth {

// One SplitMix64 step: advances `state` and returns a well-mixed value.
inline uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A stateless hash of `x` (one SplitMix64 finalisation), for values that must
// not depend on the order in which they are drawn.
inline uint64_t Mix64(uint64_t x) {
  uint64_t state = x;
  return SplitMix64(state);
}

// Maps 64 random bits to a double in [0, 1).
inline double UnitFromBits(uint64_t bits) {
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t state = seed;
    for (auto& s : s_) s = SplitMix64(state);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform in [lo, hi], both inclusive.  Requires lo <= hi.
  int64_t Range(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(span == 0 ? Next() : Next() % span);
  }

  // Uniform in [0, 1).
  double Unit() { return UnitFromBits(Next()); }

  // Uniform in [lo, hi).
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Unit(); }

  // True with probability `p`.
  bool Chance(double p) { return Unit() < p; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace htpscope::synth
