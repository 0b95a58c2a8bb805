// libFuzzer target: the QHAS (analysis summary JSON) reader.
#include <cstdlib>

#include "base/fuzz_support.h"
#include "formats/qhas.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  try {
    Qhas qhas = ParseQhas(fuzz::kFuzzPath, fuzz::AsText(data, size));
    for (const auto& [core, segments] : qhas.dominant_path)
      for (const QhasPathSegment& s : segments) (void)qhas.Text(s.qnn_op);
    // Every row's dims and input IDs lie inside the store.
    for (const QhasOpInstance& i : qhas.htp_op_instances)
      if (uint64_t{i.dims_begin} + i.dims_count > qhas.store.dims.size() ||
          uint64_t{i.inputs_begin} + i.inputs_count > qhas.store.input_ids.size())
        std::abort();
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  return 0;
}
