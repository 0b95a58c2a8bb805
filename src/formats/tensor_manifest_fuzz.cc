// libFuzzer target: the raw-tensor manifest reader.  Manifests name their
// data files relative to a directory; this one holds a few small tensors
// (a.raw: 16 bytes, b.npy: float32 [2, 2]) for seeds to refer to.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "base/fuzz_support.h"
#include "formats/tensor_manifest.h"

namespace {

std::string MakeDataDir() {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("htpscope-manifest-fuzz-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "a.raw", std::ios::binary) << std::string(16, '\x01');
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
  header.resize(117, ' ');
  header += '\n';
  std::string npy = std::string("\x93NUMPY\x01\x00", 8) + std::string(1, char(header.size())) +
                    std::string(1, '\0') + header + std::string(16, '\0');
  std::ofstream(dir / "b.npy", std::ios::binary) << npy;
  return dir.string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  static const std::string dir = MakeDataDir();
  simdjson::padded_string json(reinterpret_cast<const char*>(data), size);
  try {
    std::vector<ManifestTensor> tensors = ParseTensorManifest(fuzz::kFuzzPath, json, dir);
    for (const ManifestTensor& t : tensors)
      if (!ElementCount(t.data.shape)) std::abort();
  } catch (const InputError& e) {
    // Problems with a data file name that file; the manifest's own name the manifest.
    if (e.file() == fuzz::kFuzzPath) fuzz::CheckError(e, fuzz::kFuzzPath, fuzz::AsText(data, size));
  }
  return 0;
}
