// libFuzzer target: the .npy reader (header parsing, file-length checks and
// element decoding).
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "base/fuzz_support.h"
#include "formats/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  NpyHeader header;
  try {
    header = ParseNpyHeader(fuzz::kFuzzPath, fuzz::AsText(data, size));
  } catch (const InputError& e) {
    fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
    return 0;
  }
  if (header.data_offset_bytes > size) std::abort();
  auto count = ElementCount(header.shape);
  if (!count) std::abort();  // ParseNpyHeader rejects shapes whose product overflows

  static fuzz::MemoryFile file;
  const std::string& path = file.Write(data, size);
  try {
    TensorFileReader reader("t", NpyTensorData(path, header));
    // A reader opens only when the file holds exactly the elements described.
    if (reader.element_count() * DTypeBytes(header.dtype) != size - header.data_offset_bytes)
      std::abort();
    std::vector<double> out(1024);
    std::vector<char> scratch;
    for (uint64_t first = 0; first < reader.element_count(); first += out.size()) {
      size_t n =
          static_cast<size_t>(std::min<uint64_t>(out.size(), reader.element_count() - first));
      reader.Read(first, n, out.data(), scratch);
    }
  } catch (const InputError& e) {
    if (e.file() != path) fuzz::Violation("the error does not name the tensor file", e);
  }
  return 0;
}
