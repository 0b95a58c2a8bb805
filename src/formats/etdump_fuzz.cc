// libFuzzer target: the ETDump reader (framing, FlatBuffers verification,
// the corruption locator, extraction) and its QNN delegate events laid out
// as a profile (formats/etdump_profile.h).  Accepted inputs must describe only
// what lies inside the buffer; rejected ones must name the input and a byte
// offset within it.
#include <cstdlib>

#include "base/fuzz_support.h"
#include "formats/etdump.h"
#include "formats/etdump_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  std::string_view bytes = fuzz::AsText(data, size);
  try {
    Etdump dump = ParseEtdump(fuzz::kFuzzPath, bytes);
    if (dump.file_bytes != size) std::abort();
    for (const EtdumpRunData& run : dump.runs) {
      if (run.table_byte >= size) std::abort();
      for (const EtdumpEvent& e : run.events) {
        if (e.table_byte >= size) std::abort();
        (void)dump.strings.View(e.name);
        (void)dump.strings.View(e.delegate_debug_id_str);
        for (const EtdumpTensor& t : e.tensors) {
          if (t.table_byte >= size) std::abort();
          (void)EtdumpScalarTypeDType(t.scalar_type);
          (void)EtdumpScalarTypeName(t.scalar_type);
        }
      }
    }
    // Every node of the profile is one of the dump's events: no more nodes
    // than events, no negative cycles.
    size_t events = 0;
    for (const EtdumpRunData& run : dump.runs) events += run.events.size();
    const ProfileReport profile = EtdumpAsProfile(dump);
    size_t nodes = 0;
    for (const ProfileBlock& block : profile.raw) {
      nodes += block.nodes.size();
      for (const ProfileNode& node : block.nodes)
        if (node.cycles < 0) std::abort();
    }
    if (nodes > events) std::abort();
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, bytes);
  }
  return 0;
}
