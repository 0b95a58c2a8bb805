// libFuzzer target: the optrace (OP_TRACE chrometrace) reader.  Also checks
// that the fast paths (the line matchers for counter, flow, metadata and op
// events, in any spacing) read exactly what the general JSON path reads: the
// input is parsed again with the fast paths off, and both parses must agree.
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "base/fuzz_support.h"
#include "formats/optrace.h"
#include "formats/optrace_fuzz_compare.h"

using namespace htpscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<Optrace> matched;
  try {
    matched = ParseOptrace(fuzz::kFuzzPath, reinterpret_cast<const char*>(data), size);
    if (matched->slice_args.size() != matched->slices.size()) std::abort();
    for (const OpSlice& s : matched->slices)
      if (s.dur_cycles < 0) std::abort();  // rejected as "ends before it starts"
    for (const OpSliceArgs& a : matched->slice_args) {
      if (uint64_t{a.dims_begin} + a.dims_count > matched->dims.size()) std::abort();
      if (uint64_t{a.inputs_begin} + a.inputs_count > matched->input_ids.size()) std::abort();
      for (StringId id : {a.htp_op_type, a.qnn_op_name, a.qnn_op_type, a.data_type, a.description})
        if (id >= matched->strings.size()) std::abort();
    }
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  std::optional<Optrace> general;
  try {
    general = ParseOptrace(fuzz::kFuzzPath, reinterpret_cast<const char*>(data), size,
                           /*fast_paths=*/false);
  } catch (const InputError&) {
  }
  fuzz::RequireSame(matched.has_value() == general.has_value(), "matched and general",
                    "accepted by one read only");
  if (matched) fuzz::RequireSameEvents(*matched, *general, "matched and general");
  return 0;
}
