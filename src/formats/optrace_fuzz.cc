// libFuzzer target: the optrace (OP_TRACE chrometrace) reader.  Also checks
// that the line matchers (counter, flow and op event lines in the writer's
// layout) read exactly what the general JSON path reads: the input is parsed
// again with the space after each "{" before "name" or "cat" removed, which
// no matcher accepts, and both parses must agree.
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "formats/fuzz_support.h"
#include "formats/optrace.h"

namespace {

using namespace htpscope;

void Require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz contract violated: matched and general reads differ: %s\n", what);
    std::abort();
  }
}

// The input with `{ "name"` and `{ "cat"` turned into `{"name"` and
// `{"cat"`: the same JSON (the quote after "{ " cannot be inside a string of a
// valid document), but no line in the matchers' layout.
std::string WithoutMatchedLayout(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 8, "{ \"name\"") == 0 || text.compare(i, 7, "{ \"cat\"") == 0) {
      out += '{';
      ++i;  // drop the space
      continue;
    }
    out += text[i];
  }
  return out;
}

void RequireSameEvents(const Optrace& a, const Optrace& b) {
  Require(a.events_read == b.events_read, "events read");
  Require(a.duplicate_slices == b.duplicate_slices, "copies");
  Require(a.non_executed.size() == b.non_executed.size(), "tensors");
  Require(a.origin_cycles == b.origin_cycles, "origin");
  Require(a.slices.size() == b.slices.size(), "slices");
  for (size_t i = 0; i < a.slices.size(); ++i) {
    const OpSlice& x = a.slices[i];
    const OpSlice& y = b.slices[i];
    Require(x.op_id == y.op_id && x.start_cycles == y.start_cycles &&
                x.dur_cycles == y.dur_cycles && x.op_start_cycles == y.op_start_cycles &&
                x.op_duration_cycles == y.op_duration_cycles && x.dpc_cycles == y.dpc_cycles &&
                x.zero_offset == y.zero_offset && x.rank == y.rank && x.tid == y.tid &&
                x.flags == y.flags,
            "a slice's numbers");
    // Bit patterns: NaN cannot come from JSON, and -0.0 must stay -0.0.
    Require(std::memcmp(&x.step_size, &y.step_size, sizeof(double)) == 0 &&
                std::memcmp(&x.cycles_per_packet, &y.cycles_per_packet, sizeof(double)) == 0,
            "a slice's floating-point args");
    Require(a.Str(x.htp_op_type) == b.Str(y.htp_op_type) &&
                a.Str(x.qnn_op_name) == b.Str(y.qnn_op_name) &&
                a.Str(x.qnn_op_type) == b.Str(y.qnn_op_type) &&
                a.Str(x.data_type) == b.Str(y.data_type) &&
                a.Str(x.description) == b.Str(y.description),
            "a slice's strings");
    Require(x.dims_count == y.dims_count && x.inputs_count == y.inputs_count, "list sizes");
    for (uint32_t k = 0; k < x.dims_count; ++k)
      Require(a.dims[x.dims_begin + k] == b.dims[y.dims_begin + k], "a dimension");
    for (uint32_t k = 0; k < x.inputs_count; ++k)
      Require(a.input_ids[x.inputs_begin + k] == b.input_ids[y.inputs_begin + k], "an input");
  }
  Require(a.flows.size() == b.flows.size(), "flows");
  for (size_t i = 0; i < a.flows.size(); ++i)
    Require(a.flows[i].flow_id == b.flows[i].flow_id &&
                a.flows[i].ts_cycles == b.flows[i].ts_cycles && a.flows[i].pid == b.flows[i].pid &&
                a.flows[i].tid == b.flows[i].tid && a.flows[i].is_start == b.flows[i].is_start &&
                a.Str(a.flows[i].category) == b.Str(b.flows[i].category),
            "a flow");
  Require(a.counters.size() == b.counters.size(), "counter tracks");
  for (const auto& [name, samples] : a.counters) {
    auto it = b.counters.find(name);
    Require(it != b.counters.end() && it->second.size() == samples.size(), "a track");
    for (size_t i = 0; i < samples.size(); ++i)
      Require(samples[i].ts_cycles == it->second[i].ts_cycles &&
                  samples[i].value == it->second[i].value,
              "a counter sample");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<Optrace> matched;
  try {
    matched = ParseOptrace(fuzz::kFuzzPath, reinterpret_cast<const char*>(data), size);
    for (const OpSlice& s : matched->slices) {
      if (s.dur_cycles < 0) std::abort();  // rejected as "ends before it starts"
      if (uint64_t{s.dims_begin} + s.dims_count > matched->dims.size()) std::abort();
      if (uint64_t{s.inputs_begin} + s.inputs_count > matched->input_ids.size()) std::abort();
      for (StringId id : {s.htp_op_type, s.qnn_op_name, s.qnn_op_type, s.data_type, s.description})
        if (id >= matched->strings.size()) std::abort();
    }
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  const std::string general_text = WithoutMatchedLayout(data, size);
  std::optional<Optrace> general;
  try {
    general = ParseOptrace(fuzz::kFuzzPath, general_text.data(), general_text.size());
  } catch (const InputError&) {
  }
  Require(matched.has_value() == general.has_value(), "accepted by one read only");
  if (matched) RequireSameEvents(*matched, *general);
  return 0;
}
