// The CLI tests' generated runs: a run directory written by htpscope-synth's
// generator, for commands that need a big run (screen size, number style,
// progress).
#pragma once

#include <cstdint>
#include <string>

#include "base/corpus_test_util.h"
#include "synth.h"

namespace htpscope::testing_support {

struct GeneratedRun {
  std::string dir;
  synth::GroundTruth truth;
};

// Writes a run of `ops` QNN ops in 4 branches (seed `seed`) into a fresh
// temporary directory named after `name`.
inline GeneratedRun GenerateBigRun(const std::string& name, int64_t ops, uint64_t seed) {
  GeneratedRun run;
  run.dir = TempDir(name);
  synth::SynthOptions options;
  options.ops = ops;
  options.branches = 4;
  options.seed = seed;
  synth::OutputOptions output;
  output.dir = run.dir;
  run.truth = synth::GenerateRun(options, output);
  return run;
}

}  // namespace htpscope::testing_support
