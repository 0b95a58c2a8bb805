// libFuzzer target: the optrace (OP_TRACE chrometrace) reader.
#include <cstdlib>

#include "formats/fuzz_support.h"
#include "formats/optrace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  try {
    Optrace trace = ParseOptrace(fuzz::kFuzzPath, reinterpret_cast<const char*>(data), size);
    for (const OpSlice& s : trace.slices) {
      if (s.dur_cycles < 0) std::abort();  // rejected as "ends before it starts"
      if (uint64_t{s.dims_begin} + s.dims_count > trace.dims.size()) std::abort();
      if (uint64_t{s.inputs_begin} + s.inputs_count > trace.input_ids.size()) std::abort();
      for (StringId id : {s.htp_op_type, s.qnn_op_name, s.qnn_op_type, s.data_type, s.description})
        if (id >= trace.strings.size()) std::abort();
    }
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  return 0;
}
