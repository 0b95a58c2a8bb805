// libFuzzer target: the HTP graph (HTP_GRAPH chrometrace_htp.json) reader.
#include <cstdlib>

#include "base/fuzz_support.h"
#include "formats/htp_graph.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  try {
    HtpGraph graph = ParseHtpGraph(fuzz::kFuzzPath, fuzz::AsText(data, size));
    for (const auto& [id, node] : graph.nodes) {
      if (id != node.id) std::abort();
      for (const auto& [key, param] : node.scalar_params) {
        (void)param.AsInt();
        (void)param.AsDouble();
        (void)param.AsString();
      }
    }
    for (const auto& [id, tensor] : graph.tensors)
      if (id != tensor.id) std::abort();
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  return 0;
}
