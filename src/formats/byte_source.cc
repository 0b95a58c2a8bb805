#include "formats/byte_source.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include "formats/input_error.h"

namespace htpscope {
namespace {

constexpr size_t kReadBlockBytes = 1 << 20;

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

class GzipSource : public ByteSource {
 public:
  GzipSource(std::string path, std::unique_ptr<FileHandle> file, std::string prefix)
      : ByteSource(std::move(path)), file_(std::move(file)), in_(kReadBlockBytes) {
    std::memset(&stream_, 0, sizeof(stream_));
    // 16 + MAX_WBITS: expect a gzip wrapper.
    if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK)
      throw InputError(path_, "cannot initialise gzip decoder");
    std::memcpy(in_.data(), prefix.data(), prefix.size());
    stream_.next_in = reinterpret_cast<Bytef*>(in_.data());
    stream_.avail_in = static_cast<uInt>(prefix.size());
    consumed_ = prefix.size();
  }
  ~GzipSource() override { inflateEnd(&stream_); }

  size_t Read(char* out, size_t capacity) override {
    if (damage_) throw *damage_;
    size_t written = 0;
    while (written < capacity && !finished_ && !damage_) {
      if (stream_.avail_in == 0 && !eof_) Refill();
      if (stream_.avail_in == 0 && eof_) {
        if (!member_done_) {
          Damage("gzip stream is truncated (file ends inside compressed data)", consumed_);
          break;
        }
        finished_ = true;
        break;
      }
      if (member_done_) {
        // Another member follows: start it afresh.
        if (inflateReset(&stream_) != Z_OK) throw InputError(path_, "gzip reset failed");
        member_done_ = false;
      }
      size_t chunk = std::min<size_t>(capacity - written, 1u << 30);
      stream_.next_out = reinterpret_cast<Bytef*>(out + written);
      stream_.avail_out = static_cast<uInt>(chunk);
      int rc = inflate(&stream_, Z_NO_FLUSH);
      written += chunk - stream_.avail_out;
      if (rc == Z_STREAM_END) {
        member_done_ = true;
      } else if (rc == Z_BUF_ERROR) {
        if (stream_.avail_in == 0 && eof_)
          Damage("gzip stream is truncated (file ends inside compressed data)", consumed_);
      } else if (rc != Z_OK) {
        Damage(fmt::format("corrupt gzip stream: {}", stream_.msg ? stream_.msg : "inflate failed"),
               consumed_ - stream_.avail_in);
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
  void Damage(std::string problem, uint64_t byte_offset) {
    damage_.emplace(path_, std::move(problem), byte_offset);
  }

  void Refill() {
    size_t n = std::fread(in_.data(), 1, in_.size(), file_->get());
    if (n == 0) {
      if (std::ferror(file_->get()))
        throw InputError(path_, fmt::format("read error: {}", std::strerror(errno)), consumed_);
      eof_ = true;
    }
    consumed_ += n;
    stream_.next_in = reinterpret_cast<Bytef*>(in_.data());
    stream_.avail_in = static_cast<uInt>(n);
  }

  std::unique_ptr<FileHandle> file_;
  std::vector<char> in_;
  z_stream stream_;
  uint64_t consumed_ = 0;
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
