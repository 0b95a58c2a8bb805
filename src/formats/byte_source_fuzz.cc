// libFuzzer target: the gzip layer (ReadWholeFile, ReadPrefix) and artifact
// recognition, which read files by path; each input is written to an
// in-memory file first.
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/fuzz_support.h"
#include "formats/artifact_kind.h"
#include "formats/byte_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  static fuzz::MemoryFile file;
  const std::string& path = file.Write(data, size);
  bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;

  std::string whole;
  bool whole_ok = false;
  try {
    LoadedFile loaded = ReadWholeFile(path);
    if (loaded.compressed != gzip) std::abort();
    whole.assign(loaded.bytes.data(), loaded.bytes.size());
    whole_ok = true;
    // Plain files come back byte for byte.
    if (!gzip && (whole.size() != size || std::memcmp(whole.data(), data, size) != 0)) std::abort();
  } catch (const InputError& e) {
    if (!gzip) fuzz::Violation("a plain file was rejected", e);
    fuzz::CheckError(e, path, fuzz::AsText(data, size));
  }

  // The prefix never throws for damage past the first bytes, and agrees with
  // the whole read where that succeeded.
  std::string prefix;
  try {
    prefix = ReadPrefix(path, 4096);
  } catch (const InputError& e) {
    fuzz::Violation("ReadPrefix threw for an openable file", e);
  }
  if (prefix.size() > 4096) std::abort();
  if (whole_ok && prefix != whole.substr(0, 4096)) std::abort();

  std::string artifact_type;
  ArtifactKind kind = DetectArtifactKind(path, &artifact_type);
  if (kind != DetectArtifactKindFromPrefix(ReadPrefix(path, 16 * 1024))) std::abort();
  (void)ArtifactKindName(kind);
  return 0;
}
