// libFuzzer target: the input layer (byte_source.h, byte_source_open.h).
//  * The input as a file (a memfd) through ReadWholeFile, streaming in odd
//    block sizes, ReadPrefix and DetectArtifactKind: all agree, a plain file
//    comes back byte for byte (a byte order mark before JSON as spaces).
//  * The same bytes through a pipe: read once, the same answers.
//  * The same bytes under a small size cap: read whole within the cap, or
//    refused naming the cap.
//  * Gzip members built from the input (stored deflate blocks, so the
//    expected output is known) followed by a tail the input chooses: zero
//    padding, garbage, another member, a cut member.  The inflated bytes are
//    exactly the members' content; garbage gives one warning; a cut member
//    an error.
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "base/fuzz_support.h"
#include "formats/artifact_kind.h"
#include "formats/byte_source.h"
#include "formats/byte_source_open.h"

namespace htpscope {
namespace {

constexpr size_t kSmallCapBytes = 4096;

uint32_t Crc32(std::string_view data) {
  static uint32_t table[256] = {};
  if (!table[1])
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char b : data) crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

void PutLe32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

// One gzip member holding `content` in stored (uncompressed) deflate blocks.
std::string StoredGzipMember(std::string_view content) {
  std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);
  size_t at = 0;
  do {
    const size_t n = std::min<size_t>(content.size() - at, 65535);
    const bool last = at + n == content.size();
    out += static_cast<char>(last ? 1 : 0);
    out += static_cast<char>(n & 0xFF);
    out += static_cast<char>(n >> 8);
    out += static_cast<char>(~n & 0xFF);
    out += static_cast<char>((~n >> 8) & 0xFF);
    out.append(content.substr(at, n));
    at += n;
  } while (at < content.size());
  PutLe32(out, Crc32(content));
  PutLe32(out, static_cast<uint32_t>(content.size()));
  return out;
}

std::string Whole(const std::string& path) {
  LoadedFile f = ReadWholeFile(path);
  return std::string(f.bytes.data(), f.bytes.size());
}

std::string Streamed(const std::string& path, size_t block) {
  auto source = OpenByteSource(path);
  std::string out(block, '\0'), all;
  while (size_t n = source->Read(out.data(), block)) all.append(out.data(), n);
  return all;
}

// The input through a pipe, by its /proc/self/fd name.
class PipeInput {
 public:
  explicit PipeInput(std::string_view data) {
    if (::pipe2(fds_, O_CLOEXEC) != 0) std::abort();
    ::fcntl(fds_[1], F_SETPIPE_SZ, 1 << 20);
    const size_t room = static_cast<size_t>(::fcntl(fds_[1], F_GETPIPE_SZ));
    if (data.size() <= room &&
        ::write(fds_[1], data.data(), data.size()) == static_cast<ssize_t>(data.size()))
      ok_ = true;
    ::close(fds_[1]);
    path_ = "/proc/self/fd/" + std::to_string(fds_[0]);
  }
  ~PipeInput() {
    ::close(fds_[0]);
    ForgetHeldInputs();
  }
  bool ok() const { return ok_; }
  const std::string& path() const { return path_; }

 private:
  int fds_[2] = {-1, -1};
  bool ok_ = false;
  std::string path_;
};

void CheckFile(const std::string& path, std::string_view input) {
  const bool gzip = input.size() >= 2 && input[0] == '\x1f' && input[1] == '\x8b';
  std::string expected(input);
  if (!gzip) BlankByteOrderMarkBeforeJson(expected.data(), expected.size());
  std::string whole;
  bool whole_ok = false;
  try {
    whole = Whole(path);
    whole_ok = true;
    if (!gzip && whole != expected) std::abort();  // plain files come back as they are
  } catch (const InputError& e) {
    if (!gzip) fuzz::Violation("a plain file was rejected", e);
    fuzz::CheckError(e, path, input);
  }
  if (whole_ok && Streamed(path, 7) != whole) std::abort();
  // The prefix never throws for damage past the first bytes, and agrees
  // with the whole read where that succeeded.
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
  // The first bytes decide, unless they hold no header: then only the
  // whole file can (a header after them, artifact_header.h), and unless they
  // are text a runner's first stats line may still follow (a loading log
  // longer than them, llm_runner_stats.h).
  const ArtifactKind from_prefix =
      DetectArtifactKindFromPrefix(ReadPrefix(path, kArtifactSniffBytes));
  const bool later_header = from_prefix == ArtifactKind::kOtherJson;
  const bool later_stats_line =
      from_prefix == ArtifactKind::kUnknown && kind == ArtifactKind::kLlmRunnerStats;
  if (kind != from_prefix && !later_header && !later_stats_line) std::abort();
  (void)ArtifactKindName(kind);

  // Under a small cap: within it, or refused naming the cap.
  InputLimits limits;
  limits.max_in_memory_bytes = kSmallCapBytes;
  ScopedInputLimits small(limits);
  try {
    std::string capped = Whole(path);
    if (capped.size() > kSmallCapBytes || (whole_ok && capped != whole)) std::abort();
  } catch (const InputError& e) {
    if (whole_ok && whole.size() <= kSmallCapBytes) fuzz::Violation("refused within the cap", e);
    if (whole_ok && e.problem().find("4.0 KiB (4096 bytes)") == std::string::npos)
      fuzz::Violation("a read over the cap does not name it", e);
  }
}

// Members made of the input, then a tail chosen by its first byte.
void CheckMembers(const uint8_t* data, size_t size) {
  if (size < 2) return;
  const uint8_t choice = data[0];
  std::string_view rest = fuzz::AsText(data + 1, size - 1);
  const size_t split = rest.size() * (choice >> 4) / 16;
  std::string gz = StoredGzipMember(rest.substr(0, split)) + StoredGzipMember(rest.substr(split));
  const std::string content(rest);
  const size_t member_end = gz.size();
  enum { kNothing, kZeros, kGarbage, kCutMember } tail = static_cast<decltype(tail)>(choice & 3);
  if (tail == kZeros) gz += std::string(1 + (choice >> 2) % 7, '\0');
  if (tail == kGarbage) gz += std::string(1, static_cast<char>('a' + (choice >> 2) % 26)) + "\n";
  if (tail == kCutMember) gz += StoredGzipMember(content).substr(0, 1 + (choice >> 2) % 12);
  static fuzz::MemoryFile file;
  const std::string& path = file.Write(reinterpret_cast<const uint8_t*>(gz.data()), gz.size());
  TakeInputWarnings(path);
  try {
    LoadedFile f = ReadWholeFile(path);
    if (tail == kCutMember) std::abort();  // a cut member must be an error
    std::string expected = content;
    BlankByteOrderMarkBeforeJson(expected.data(), expected.size());
    if (std::string(f.bytes.data(), f.bytes.size()) != expected) std::abort();
    if (f.warnings.size() != (tail == kGarbage ? 1u : 0u)) std::abort();
    if (tail == kGarbage &&
        f.warnings[0].find("from byte " + std::to_string(member_end) + " on") == std::string::npos)
      std::abort();
  } catch (const InputError& e) {
    if (tail != kCutMember) fuzz::Violation("valid gzip members were rejected", e);
    if (e.byte_offset() != gz.size()) fuzz::Violation("a cut member is not located at the end", e);
  }
}

}  // namespace
}  // namespace htpscope

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  static fuzz::MemoryFile file;
  const std::string& path = file.Write(data, size);
  CheckFile(path, fuzz::AsText(data, size));
  {
    PipeInput pipe(fuzz::AsText(data, size));
    if (pipe.ok()) {
      // A pipe reads as the file does: first through sniffing, then whole.
      ArtifactKind kind = DetectArtifactKind(pipe.path());
      if (kind != DetectArtifactKind(path)) std::abort();
      std::string from_pipe, from_file, pipe_error, file_error;
      try {
        from_pipe = Whole(pipe.path());
      } catch (const InputError& e) {
        fuzz::CheckError(e, pipe.path(), fuzz::AsText(data, size));
        pipe_error = e.problem() + std::to_string(e.byte_offset().value_or(0));
      }
      try {
        from_file = Whole(path);
      } catch (const InputError& e) {
        file_error = e.problem() + std::to_string(e.byte_offset().value_or(0));
      }
      if (from_pipe != from_file || pipe_error != file_error) std::abort();
    }
  }
  CheckMembers(data, size);
  return 0;
}
