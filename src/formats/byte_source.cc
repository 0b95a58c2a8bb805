#include "formats/byte_source.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <isa-l/igzip_lib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include "base/errors.h"

namespace htpscope {
namespace {

constexpr size_t kReadBlockBytes = 1 << 20;
constexpr size_t kFirstReadBlockBytes = 16 << 10;

class FileHandle {
 public:
  explicit FileHandle(const std::string& path) : file_(std::fopen(path.c_str(), "rb")) {
    if (!file_) throw InputError(path, fmt::format("cannot open: {}", std::strerror(errno)));
  }
  ~FileHandle() { std::fclose(file_); }
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;
  std::FILE* get() const { return file_; }

 private:
  std::FILE* file_;
};

class PlainSource : public ByteSource {
 public:
  PlainSource(std::string path, std::unique_ptr<FileHandle> file, std::string prefix)
      : ByteSource(std::move(path)), file_(std::move(file)), pending_(std::move(prefix)) {
    consumed_ = pending_.size();
  }
  size_t Read(char* out, size_t capacity) override {
    size_t written = 0;
    if (pending_pos_ < pending_.size()) {
      written = std::min(capacity, pending_.size() - pending_pos_);
      std::memcpy(out, pending_.data() + pending_pos_, written);
      pending_pos_ += written;
    }
    if (written < capacity) {
      size_t n = std::fread(out + written, 1, capacity - written, file_->get());
      if (n == 0 && std::ferror(file_->get()))
        throw InputError(path_, fmt::format("read error: {}", std::strerror(errno)), consumed_);
      consumed_ += n;
      written += n;
    }
    return written;
  }
  bool compressed() const override { return false; }
  uint64_t file_bytes_consumed() const override { return consumed_; }

 private:
  std::unique_ptr<FileHandle> file_;
  std::string pending_;
  size_t pending_pos_ = 0;
  uint64_t consumed_ = 0;
};

// Inflates with ISA-L's igzip: about three times zlib's speed, so that a
// gzip trace is read nearly as fast as the plain one (docs/performance.md).
class GzipSource : public ByteSource {
 public:
  GzipSource(std::string path, std::unique_ptr<FileHandle> file, std::string prefix)
      : ByteSource(std::move(path)),
        file_(std::move(file)),
        in_(new char[kReadBlockBytes]),  // not zero-filled: every byte read is written first
        state_(std::make_unique<inflate_state>()) {
    StartMember();
    std::memcpy(in_.get(), prefix.data(), prefix.size());
    state_->next_in = reinterpret_cast<uint8_t*>(in_.get());
    state_->avail_in = static_cast<uint32_t>(prefix.size());
    consumed_ = last_fill_ = prefix.size();
  }

  size_t Read(char* out, size_t capacity) override {
    if (damage_) throw *damage_;
    size_t written = 0;
    while (written < capacity && !finished_ && !damage_) {
      if (state_->avail_in == 0 && !eof_) Refill();
      if (state_->avail_in == 0 && eof_) {
        if (!member_done_) {
          Damage("gzip stream is truncated (file ends inside compressed data)", consumed_);
          break;
        }
        finished_ = true;
        break;
      }
      if (member_done_) {
        // Another member follows: start it afresh.
        StartMember();
        member_done_ = false;
      }
      size_t chunk = std::min<size_t>(capacity - written, 1u << 30);
      state_->next_out = reinterpret_cast<uint8_t*>(out + written);
      state_->avail_out = static_cast<uint32_t>(chunk);
      int rc = isal_inflate(state_.get());
      written += chunk - state_->avail_out;
      // Positive codes but ISAL_NEED_DICT only say that input or output ran out.
      if (rc < 0 || rc == ISAL_NEED_DICT) {
        // After an error igzip's avail_in may exceed what it was given:
        // then the damage is put at the end of what was read.
        const uint64_t unread = state_->avail_in <= last_fill_ ? state_->avail_in : 0;
        Damage(fmt::format("corrupt gzip stream: {}", Problem(rc)), consumed_ - unread);
      } else if (state_->block_state == ISAL_BLOCK_FINISH) {
        member_done_ = true;  // its CRC-32 and length checked
      }
    }
    // The bytes decoded before the damage are handed out first (so that
    // ReadPrefix can still recognise a cut-off file); the next call raises it.
    if (damage_ && written == 0) throw *damage_;
    return written;
  }
  bool compressed() const override { return true; }
  uint64_t file_bytes_consumed() const override { return consumed_; }

 private:
  // Resets the decoder for a gzip member (header, deflate data, trailer),
  // keeping the input not yet decoded.
  void StartMember() {
    uint8_t* next_in = state_->next_in;
    const uint32_t avail_in = state_->avail_in;
    isal_inflate_init(state_.get());
    state_->crc_flag = ISAL_GZIP;
    state_->next_in = next_in;
    state_->avail_in = avail_in;
  }

  static const char* Problem(int rc) {
    switch (rc) {
      case ISAL_INVALID_BLOCK:
        return "invalid deflate block";
      case ISAL_INVALID_SYMBOL:
        return "invalid deflate code";
      case ISAL_INVALID_LOOKBACK:
        return "invalid distance too far back";
      case ISAL_INVALID_WRAPPER:
        return "incorrect header check (not a gzip member)";
      case ISAL_UNSUPPORTED_METHOD:
        return "unknown compression method";
      case ISAL_INCORRECT_CHECKSUM:
        return "incorrect data check (CRC-32 or length in the member's trailer)";
      case ISAL_NEED_DICT:
        return "needs a preset dictionary";
      default:
        return "inflate failed";
    }
  }

  void Damage(std::string problem, uint64_t byte_offset) {
    damage_.emplace(path_, std::move(problem), byte_offset);
  }

  // Reads the next block of compressed bytes.  Blocks start small and
  // double up to kReadBlockBytes, so that sniffing a file's first bytes
  // (ReadPrefix) does not read and inflate a whole megabyte.
  void Refill() {
    size_t n = std::fread(in_.get(), 1, fill_bytes_, file_->get());
    fill_bytes_ = std::min(2 * fill_bytes_, kReadBlockBytes);
    if (n == 0) {
      if (std::ferror(file_->get()))
        throw InputError(path_, fmt::format("read error: {}", std::strerror(errno)), consumed_);
      eof_ = true;
    }
    consumed_ += n;
    last_fill_ = n;
    state_->next_in = reinterpret_cast<uint8_t*>(in_.get());
    state_->avail_in = static_cast<uint32_t>(n);
  }

  std::unique_ptr<FileHandle> file_;
  std::unique_ptr<char[]> in_;  // kReadBlockBytes
  size_t fill_bytes_ = kFirstReadBlockBytes;
  std::unique_ptr<inflate_state> state_;  // ~40 KB of tables and window
  uint64_t consumed_ = 0;
  uint64_t last_fill_ = 0;  // bytes put in in_ by the last Refill (or the prefix)
  bool eof_ = false;
  bool member_done_ = false;
  bool finished_ = false;
  std::optional<InputError> damage_;  // raised by every Read once the stream is found damaged
};

}  // namespace

std::unique_ptr<ByteSource> OpenByteSource(const std::string& path) {
  auto file = std::make_unique<FileHandle>(path);
  std::string prefix(2, '\0');
  size_t n = std::fread(prefix.data(), 1, 2, file->get());
  prefix.resize(n);
  if (n == 2 && static_cast<unsigned char>(prefix[0]) == 0x1f &&
      static_cast<unsigned char>(prefix[1]) == 0x8b) {
    return std::make_unique<GzipSource>(path, std::move(file), std::move(prefix));
  }
  return std::make_unique<PlainSource>(path, std::move(file), std::move(prefix));
}

std::unique_ptr<MappedFile> MappedFile::Open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  unsigned char magic[2] = {0, 0};
  const bool usable = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
                      ::pread(fd, magic, 2, 0) >= 1 && !(magic[0] == 0x1f && magic[1] == 0x8b);
  if (!usable) {
    ::close(fd);
    return nullptr;
  }
  const auto size = static_cast<size_t>(st.st_size);
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t mapped_bytes = (size + page - 1) / page * page;
  // Private and writable: patches stay in this process (copy-on-write).
  void* data = ::mmap(nullptr, mapped_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  ::close(fd);  // the mapping keeps the file
  if (data == MAP_FAILED) return nullptr;
  ::madvise(data, mapped_bytes, MADV_SEQUENTIAL);
  return std::unique_ptr<MappedFile>(new MappedFile(static_cast<char*>(data), size, mapped_bytes));
}

MappedFile::~MappedFile() { ::munmap(data_, mapped_bytes_); }

void MappedFile::Release(size_t begin, size_t end) const {
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t first = (begin + page - 1) / page * page;
  const size_t last = std::min(end, mapped_bytes_) / page * page;
  if (first < last) ::madvise(data_ + first, last - first, MADV_DONTNEED);
}

LoadedFile ReadWholeFile(const std::string& path) {
  auto source = OpenByteSource(path);
  std::string data;
  std::vector<char> block(kReadBlockBytes);
  for (;;) {
    size_t n = source->Read(block.data(), block.size());
    if (n == 0) break;
    data.append(block.data(), n);
  }
  LoadedFile loaded;
  loaded.path = path;
  loaded.compressed = source->compressed();
  loaded.bytes = simdjson::padded_string(data);
  return loaded;
}

std::string ReadPrefix(const std::string& path, size_t max_bytes) {
  auto source = OpenByteSource(path);
  std::string out(max_bytes, '\0');
  size_t total = 0;
  try {
    while (total < max_bytes) {
      size_t n = source->Read(out.data() + total, max_bytes - total);
      if (n == 0) break;
      total += n;
    }
  } catch (const InputError&) {
    // A damaged tail does not stop us from recognising the file; the full
    // read reports the damage.
  }
  out.resize(total);
  return out;
}

}  // namespace htpscope
