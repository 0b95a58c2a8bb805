#include "formats/byte_source.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <isa-l/igzip_lib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include "base/errors.h"
#include "base/read_progress.h"
#include "formats/byte_source_open.h"

namespace htpscope {
namespace {

constexpr size_t kReadBlockBytes = 1 << 20;
constexpr size_t kFirstReadBlockBytes = 16 << 10;
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// ---------------------------------------------------------------------------
// Notes on inputs, taken by whoever reports on the run.

struct InputNotes {
  std::mutex mutex;
  std::map<std::string, std::vector<std::string>> by_path;  // not yet taken
};

InputNotes& Notes() {
  static InputNotes* notes = new InputNotes;  // lives to the end of the process
  return *notes;
}

void NoteInputWarning(const std::string& path, const std::string& warning) {
  InputNotes& notes = Notes();
  std::lock_guard<std::mutex> lock(notes.mutex);
  std::vector<std::string>& pending = notes.by_path[path];
  // A file read twice (recognised, then read) is noted once.
  if (std::find(pending.begin(), pending.end(), warning) == pending.end())
    pending.push_back(warning);
}

// Why a read over `cap_bytes` stopped; `inflated` for gzip output.
std::string CapProblem(uint64_t cap_bytes, bool in_memory, bool inflated = false) {
  const char* what =
      inflated ? (in_memory ? "its inflated bytes, held whole in memory," : "its inflated bytes")
               : (in_memory ? "its bytes, held whole in memory," : "its bytes");
  return CapExceededProblem(what, cap_bytes,
                            in_memory ? kMaxInMemoryBytesVariable : kMaxInputBytesVariable);
}

// The cap of a read: streamed, or held whole in memory.
struct CapInForce {
  uint64_t bytes = 0;
  bool in_memory = false;
};

CapInForce StreamCap() { return {CurrentInputLimits().max_input_bytes, false}; }

CapInForce WholeFileCap() {
  const InputLimits& limits = CurrentInputLimits();
  if (limits.max_in_memory_bytes <= limits.max_input_bytes)
    return {limits.max_in_memory_bytes, true};
  return {limits.max_input_bytes, false};
}

// True when `bytes` start with a byte order mark followed by white space
// only, or are the start of one: whether JSON follows is not known yet.
bool ByteOrderMarkUndecided(std::string_view bytes) {
  if (bytes.size() < kUtf8Bom.size()) return kUtf8Bom.substr(0, bytes.size()) == bytes;
  return bytes.substr(0, kUtf8Bom.size()) == kUtf8Bom &&
         bytes.find_first_not_of(" \t\r\n", kUtf8Bom.size()) == std::string_view::npos;
}

bool StartsWithGzipMagic(const InputFd& fd) {
  unsigned char magic[2] = {0, 0};
  return fd.ReadAt(0, reinterpret_cast<char*>(magic), 2) == 2 && magic[0] == 0x1f &&
         magic[1] == 0x8b;
}

// ---------------------------------------------------------------------------
// Plain files.

class PlainSource : public ByteSource {
 public:
  PlainSource(InputFd fd, CapInForce cap) : ByteSource(fd.path()), fd_(std::move(fd)), cap_(cap) {
    if (fd_.size_bytes() > cap_.bytes)
      throw InputCapError(
          path_,
          fmt::format("is {} bytes: {}", fd_.size_bytes(), CapProblem(cap_.bytes, cap_.in_memory)),
          cap_.bytes);
    ::posix_fadvise(fd_.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  bool compressed() const override { return false; }
  uint64_t file_bytes_consumed() const override { return consumed_; }

 protected:
  size_t ReadBytes(char* out, size_t capacity) override {
    // One byte past the cap is asked for, to tell a file that grew past it.
    const uint64_t room = cap_.bytes + 1 - consumed_;
    size_t n = fd_.ReadAt(consumed_, out, static_cast<size_t>(std::min<uint64_t>(capacity, room)));
    if (consumed_ + n > cap_.bytes)
      throw InputCapError(path_, CapProblem(cap_.bytes, cap_.in_memory), cap_.bytes);
    consumed_ += n;
    return n;
  }

 private:
  InputFd fd_;
  CapInForce cap_;
  uint64_t consumed_ = 0;
};

// ---------------------------------------------------------------------------
// gzip.

// Inflates with ISA-L's igzip: about three times zlib's speed, so that a
// gzip trace is read nearly as fast as the plain one (docs/performance.md).
// Work is linear in the compressed and inflated bytes: input is read in
// blocks, output goes straight to the caller's buffer.
class GzipSource : public ByteSource {
 public:
  GzipSource(InputFd fd, CapInForce cap)
      : ByteSource(fd.path()),
        fd_(std::move(fd)),
        cap_(cap),
        in_(new char[kReadBlockBytes]),  // not zero-filled: every byte read is written first
        state_(std::make_unique<inflate_state>()) {
    ::posix_fadvise(fd_.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
    state_->next_in = reinterpret_cast<uint8_t*>(in_.get());
    state_->avail_in = 0;
    StartMember();
  }
  bool compressed() const override { return true; }
  uint64_t file_bytes_consumed() const override { return consumed_; }

 protected:
  size_t ReadBytes(char* out, size_t capacity) override {
    if (damage_) RaiseDamage();
    size_t written = 0;
    while (written < capacity && !finished_ && !damage_) {
      if (member_done_ && !NextMember()) break;
      if (state_->avail_in == 0 && !Have(1)) {
        Damage("gzip stream is truncated (file ends inside compressed data)", consumed_);
        break;
      }
      // One byte past the cap is asked for, to tell a stream that goes on.
      const uint64_t room = cap_.bytes + 1 - inflated_;
      const auto chunk =
          static_cast<uint32_t>(std::min<uint64_t>({capacity - written, room, 1u << 30}));
      state_->next_out = reinterpret_cast<uint8_t*>(out + written);
      state_->avail_out = chunk;
      int rc = isal_inflate(state_.get());
      const size_t produced = chunk - state_->avail_out;
      written += produced;
      inflated_ += produced;
      if (inflated_ > cap_.bytes) {
        written -= 1;  // the byte past the cap is not handed out
        inflated_ -= 1;
        Damage(CapProblem(cap_.bytes, cap_.in_memory, true), consumed_ - Unread());
        damage_is_cap_ = true;
      } else if (rc < 0 || rc == ISAL_NEED_DICT) {
        // Positive codes but ISAL_NEED_DICT only say that input or output ran out.
        Damage(fmt::format("corrupt gzip stream: {}", Problem(rc)), consumed_ - Unread());
      } else if (state_->block_state == ISAL_BLOCK_FINISH) {
        member_done_ = true;  // its CRC-32 and length checked
      }
    }
    // The bytes decoded before the damage are handed out first (so that
    // ReadPrefix can still recognise a cut-off file); the next call raises it.
    if (damage_ && written == 0) RaiseDamage();
    return written;
  }

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

  // After a complete member: another member follows, or the data ends
  // (end of file, zero padding, or trailing garbage, which gzip -d ignores
  // with a warning).  Returns whether a member follows; sets finished_ or
  // damage_ otherwise.
  bool NextMember() {
    member_done_ = false;
    const uint64_t after_member = consumed_ - state_->avail_in;
    if (!Have(1)) {
      finished_ = true;
      return false;
    }
    const uint8_t first = state_->next_in[0];
    if (first == 0x1f) {
      if (!Have(2)) {
        Damage("gzip stream is truncated (file ends inside the header of another gzip member)",
               consumed_);
        return false;
      }
      if (state_->next_in[1] == 0x8b) {
        // gzip knows one method, deflate (8); igzip would wait for a whole header.
        if (Have(3) && state_->next_in[2] != 8) {
          Damage("corrupt gzip stream: unknown compression method", consumed_ - Unread() + 2);
          return false;
        }
        StartMember();
        return true;
      }
    } else if (first == 0) {
      // Zero padding (tape and block devices write it) is ignored when it
      // runs to the end of the file.
      while (Have(1)) {
        const auto* begin = state_->next_in;
        const auto* end = begin + state_->avail_in;
        const auto* nonzero = std::find_if(begin, end, [](uint8_t b) { return b != 0; });
        state_->avail_in -= static_cast<uint32_t>(nonzero - begin);
        state_->next_in = const_cast<uint8_t*>(nonzero);
        if (nonzero != end) break;
      }
      if (state_->avail_in == 0) {
        finished_ = true;
        return false;
      }
    }
    const std::string warning = fmt::format(
        "decompression OK, trailing garbage ignored: the bytes from byte {} on follow the last "
        "gzip member and are not gzip data (left out, as gzip -d does)",
        after_member);
    warnings_.push_back(warning);
    NoteInputWarning(path_, warning);
    finished_ = true;
    return false;
  }

  // Makes at least `bytes` unread compressed bytes available unless the
  // file ends first; returns whether it did.
  bool Have(uint32_t bytes) {
    while (state_->avail_in < bytes && !eof_) Refill();
    return state_->avail_in >= bytes;
  }

  // Reads the next block of compressed bytes after the unread ones.
  // Blocks start small and double up to kReadBlockBytes, so that sniffing a
  // file's first bytes (ReadPrefix) does not read and inflate a megabyte.
  void Refill() {
    const uint32_t unread = state_->avail_in;
    if (unread && state_->next_in != reinterpret_cast<uint8_t*>(in_.get()))
      std::memmove(in_.get(), state_->next_in, unread);
    const size_t want = std::max(fill_bytes_, size_t{unread} + 1) - unread;
    size_t n = fd_.ReadAt(consumed_, in_.get() + unread, std::min(want, kReadBlockBytes - unread));
    fill_bytes_ = std::min(2 * fill_bytes_, kReadBlockBytes);
    if (n == 0) eof_ = true;
    consumed_ += n;
    buffered_ = unread + n;
    state_->next_in = reinterpret_cast<uint8_t*>(in_.get());
    state_->avail_in = static_cast<uint32_t>(buffered_);
  }

  // Compressed bytes read but not yet decoded.  After an error igzip's
  // avail_in may exceed what it was given: then none are counted unread, so
  // that the damage is put at the end of what was read.
  uint64_t Unread() const { return state_->avail_in <= buffered_ ? state_->avail_in : 0; }

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
  [[noreturn]] void RaiseDamage() const {
    if (damage_is_cap_)
      throw InputCapError(damage_->file(), damage_->problem(), damage_->byte_offset());
    throw *damage_;
  }

  InputFd fd_;
  CapInForce cap_;
  std::unique_ptr<char[]> in_;  // kReadBlockBytes
  size_t fill_bytes_ = kFirstReadBlockBytes;
  std::unique_ptr<inflate_state> state_;  // ~40 KB of tables and window
  uint64_t consumed_ = 0;                 // compressed bytes read from the file
  uint64_t buffered_ = 0;                 // bytes in in_ after the last Refill
  uint64_t inflated_ = 0;                 // bytes handed out
  bool eof_ = false;
  bool member_done_ = false;
  bool finished_ = false;
  std::optional<InputError> damage_;  // raised by every Read once the stream is found damaged
  bool damage_is_cap_ = false;        // damage_ is the cap: raised as InputCapError
};

std::unique_ptr<ByteSource> OpenSource(InputFd fd, CapInForce cap) {
  if (StartsWithGzipMagic(fd)) return std::make_unique<GzipSource>(std::move(fd), cap);
  return std::make_unique<PlainSource>(std::move(fd), cap);
}

}  // namespace

size_t ByteSource::Read(char* out, size_t capacity) {
  size_t n = ReadUncounted(out, capacity);
  if (counts_progress_) {
    const uint64_t consumed = file_bytes_consumed();
    if (consumed > bytes_counted_) read_progress::AddBytesRead(consumed - bytes_counted_);
    bytes_counted_ = std::max(bytes_counted_, consumed);
  }
  return n;
}

size_t ByteSource::ReadUncounted(char* out, size_t capacity) {
  if (lookahead_taken_ < lookahead_.size()) {
    size_t n = std::min(capacity, lookahead_.size() - lookahead_taken_);
    std::memcpy(out, lookahead_.data() + lookahead_taken_, n);
    lookahead_taken_ += n;
    return n;
  }
  if (lookahead_error_) std::rethrow_exception(std::exchange(lookahead_error_, nullptr));
  size_t n = ReadBytes(out, capacity);
  if (!first_read_ || n == 0) return n;
  first_read_ = false;
  if (!ByteOrderMarkUndecided({out, n})) {
    BlankByteOrderMarkBeforeJson(out, n);
    return n;
  }
  // A mark and white space only: read on until JSON or text shows.
  lookahead_.assign(out, n);
  std::unique_ptr<char[]> block(new char[kFirstReadBlockBytes]);
  try {
    while (lookahead_.size() < kByteOrderMarkLookaheadBytes && ByteOrderMarkUndecided(lookahead_)) {
      size_t more = ReadBytes(block.get(), kFirstReadBlockBytes);
      if (more == 0) break;
      lookahead_.append(block.get(), more);
    }
  } catch (const InputError&) {
    lookahead_error_ = std::current_exception();  // after the bytes before it
  }
  BlankByteOrderMarkBeforeJson(lookahead_.data(), lookahead_.size());
  lookahead_taken_ = 0;
  return ReadUncounted(out, capacity);
}

uint64_t ReadCapBytes(ReadCap cap) {
  return cap == ReadCap::kHeldWhole ? WholeFileCap().bytes : StreamCap().bytes;
}

std::unique_ptr<ByteSource> OpenByteSource(const std::string& path, ReadCap cap) {
  return OpenSource(InputFd::Open(path), cap == ReadCap::kHeldWhole ? WholeFileCap() : StreamCap());
}

std::unique_ptr<MappedFile> MappedFile::Open(const std::string& path) {
  std::optional<InputFd> fd;
  try {
    fd.emplace(InputFd::Open(path));
  } catch (const InputError&) {
    return nullptr;  // OpenByteSource says why
  }
  const uint64_t size = fd->size_bytes();
  if (size == 0 || size > CurrentInputLimits().max_input_bytes || StartsWithGzipMagic(*fd))
    return nullptr;
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t mapped_bytes = (size + page - 1) / page * page;
  // Private and writable: patches stay in this process (copy-on-write).
  void* data = ::mmap(nullptr, mapped_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd->get(), 0);
  if (data == MAP_FAILED) return nullptr;  // the mapping keeps the file once made
  ::madvise(data, mapped_bytes, MADV_SEQUENTIAL);
  auto* bytes = static_cast<char*>(data);
  BlankByteOrderMarkBeforeJson(bytes, size);
  return std::unique_ptr<MappedFile>(new MappedFile(path, bytes, size, mapped_bytes));
}

MappedFile::~MappedFile() { ::munmap(data_, mapped_bytes_); }

void MappedFile::Release(size_t begin, size_t end) const {
  end = std::min(end, mapped_bytes_);
  if (end <= begin) return;
  std::lock_guard lock(release_mutex_);
  pending_.emplace_back(begin, end);
  pending_bytes_ += end - begin;
  if (pending_bytes_ < kReleaseBatchBytes) return;
  // Ranges that touch or overlap (chunks share their cut byte) are dropped
  // as one: the pages they share are done with too.
  std::sort(pending_.begin(), pending_.end());
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  auto drop = [&](size_t from, size_t to) {
    const size_t first = (from + page - 1) / page * page;
    const size_t last = to / page * page;
    if (first < last) ::madvise(data_ + first, last - first, MADV_DONTNEED);
  };
  auto [from, to] = pending_.front();
  for (const auto& [b, e] : pending_) {
    if (b > to) {
      drop(from, to);
      from = b;
    }
    to = std::max(to, e);
  }
  drop(from, to);
  pending_.clear();
  pending_bytes_ = 0;
}

LoadedFile ReadWholeFile(const std::string& path) {
  InputFd fd = InputFd::Open(path);
  const CapInForce cap = WholeFileCap();
  LoadedFile loaded;
  loaded.path = path;
  if (!StartsWithGzipMagic(fd)) {
    // Plain: one read into a buffer of the file's size, refused up front
    // when over the cap.
    const uint64_t size = fd.size_bytes();
    if (size > cap.bytes)
      throw InputCapError(
          path, fmt::format("is {} bytes: {}", size, CapProblem(cap.bytes, cap.in_memory)),
          cap.bytes);
    simdjson::padded_string bytes(static_cast<size_t>(size));
    size_t total = 0;
    while (total < size) {
      size_t n = fd.ReadAt(total, bytes.data() + total, static_cast<size_t>(size) - total);
      if (n == 0) break;  // the file shrank while being read
      total += n;
      read_progress::AddBytesRead(n);
    }
    loaded.bytes = total == size ? std::move(bytes) : simdjson::padded_string(bytes.data(), total);
    BlankByteOrderMarkBeforeJson(loaded.bytes.data(), loaded.bytes.size());
    return loaded;
  }
  GzipSource source(std::move(fd), cap);
  std::string data;
  std::unique_ptr<char[]> block(new char[kReadBlockBytes]);
  for (;;) {
    size_t n = source.Read(block.get(), kReadBlockBytes);
    if (n == 0) break;
    data.append(block.get(), n);
  }
  loaded.compressed = true;
  loaded.warnings = source.warnings();
  loaded.bytes = simdjson::padded_string(data);
  return loaded;
}

WholeText WholeText::Read(const std::string& path) {
  WholeText out;
  std::optional<uint64_t> size;
  {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
      const uint64_t bytes = std::filesystem::file_size(path, ec);
      if (!ec) size = bytes;
    }
  }
  // Over the cap, ReadWholeFile refuses it with the error it always gave.
  if (size && *size <= WholeFileCap().bytes) out.mapped_ = MappedFile::Open(path);
  if (out.mapped_) {
    out.loaded_.path = path;
    read_progress::AddBytesRead(out.mapped_->size());
  } else {
    out.loaded_ = ReadWholeFile(path);
  }
  return out;
}

std::string_view WholeText::text() const {
  if (mapped_) return {mapped_->data(), mapped_->size()};
  return {loaded_.bytes.data(), loaded_.bytes.size()};
}

std::string ReadPrefix(const std::string& path, size_t max_bytes) {
  auto source = OpenByteSource(path);
  source->set_counts_progress(false);  // the full read counts the file
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

bool BlankByteOrderMarkBeforeJson(char* data, size_t size) {
  std::string_view text(data, std::min(size, kByteOrderMarkLookaheadBytes));
  if (text.substr(0, kUtf8Bom.size()) != kUtf8Bom) return false;
  size_t first = text.find_first_not_of(" \t\r\n", kUtf8Bom.size());
  if (first == std::string_view::npos || (text[first] != '{' && text[first] != '[')) return false;
  std::memset(data, ' ', kUtf8Bom.size());
  return true;
}

simdjson::padded_string PaddedJsonText(std::string_view json) {
  simdjson::padded_string buffer(json);
  BlankByteOrderMarkBeforeJson(buffer.data(), buffer.size());
  return buffer;
}

AlignedBytes::AlignedBytes(std::string_view bytes)
    : data_(reinterpret_cast<const uint8_t*>(bytes.data())) {
  if (reinterpret_cast<uintptr_t>(data_) % alignof(uint64_t) == 0) return;
  copy_.reset(new uint64_t[bytes.size() / 8 + 1]);
  std::memcpy(copy_.get(), bytes.data(), bytes.size());
  data_ = reinterpret_cast<const uint8_t*>(copy_.get());
}

std::string_view SkipByteOrderMark(std::string_view text) {
  if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) text.remove_prefix(kUtf8Bom.size());
  return text;
}

std::vector<std::string> TakeInputWarnings(const std::string& path) {
  InputNotes& notes = Notes();
  std::lock_guard<std::mutex> lock(notes.mutex);
  auto it = notes.by_path.find(path);
  if (it == notes.by_path.end()) return {};
  std::vector<std::string> out = std::move(it->second);
  notes.by_path.erase(it);
  return out;
}

std::vector<std::string> TakeInputWarnings() {
  InputNotes& notes = Notes();
  std::lock_guard<std::mutex> lock(notes.mutex);
  std::vector<std::string> out;
  for (auto& [path, warnings] : notes.by_path)
    for (auto& w : warnings) out.push_back(fmt::format("{}: {}", path, w));
  notes.by_path.clear();
  return out;
}

}  // namespace htpscope
