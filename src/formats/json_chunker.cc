#include "formats/json_chunker.h"

#include <algorithm>
#include <cstring>

#include "base/read_progress.h"
#include "formats/byte_source_open.h"
#include "formats/json_util.h"

namespace htpscope {
namespace {

constexpr size_t kPadding = simdjson::SIMDJSON_PADDING;
// Guessed cuts (JsonChunker::set_guess_cuts): how far past the target size
// a guess is looked for (less for small chunks), the white space it allows
// on each side of its comma, and how many first bytes of an element it
// compares.
constexpr size_t kGuessWindowBytes = 64 << 10;
constexpr int kGuessSpaceBytes = 16;
constexpr size_t kElementStartBytes = 8;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The capacity to grow a buffer to, for `needed` bytes (at most `limit`),
// at least `doubled`: past `small`, a step of the ladder limit, limit / 2,
// limit / 4, ..., so that the last growth before the limit copies no more
// than half of it and the memory held stays near the limit, never twice it.
size_t GrowthCapacity(size_t needed, size_t doubled, size_t limit, size_t small) {
  const size_t want = std::max(needed, doubled);
  if (want >= limit) return std::max(needed, limit);
  if (want <= small) return want;
  size_t step = limit;
  while (step / 2 >= want) step /= 2;
  return step;
}

}  // namespace

JsonChunker::JsonChunker(ByteSource& source, JsonStreamSelector select, size_t chunk_bytes)
    : source_(&source),
      select_(std::move(select)),
      chunk_bytes_(std::max<size_t>(chunk_bytes, 1)),
      input_path_(source.path()),
      held_cap_bytes_(CurrentInputLimits().max_in_memory_bytes) {}

JsonChunker::JsonChunker(const MappedFile& file, JsonStreamSelector select, size_t chunk_bytes)
    : mapped_(&file),
      select_(std::move(select)),
      chunk_bytes_(std::max<size_t>(chunk_bytes, 1)),
      input_path_(file.path()),
      held_cap_bytes_(CurrentInputLimits().max_in_memory_bytes),
      data_(file.data()),
      size_(file.size()),
      eof_(true) {}

std::pair<std::unique_ptr<char[]>, size_t> JsonChunker::Allocate(size_t bytes) {
  {
    std::lock_guard lock(free_mutex_);
    for (auto it = free_buffers_.begin(); it != free_buffers_.end(); ++it) {
      if (it->second < bytes) continue;
      auto buffer = std::move(*it);
      free_buffers_.erase(it);
      return buffer;
    }
  }
  // Room for a chunk plus a typical carried tail, so recycled buffers fit.
  size_t size = std::max(bytes, chunk_bytes_ + chunk_bytes_ / 16 + kPadding);
  return {std::unique_ptr<char[]>(new char[size]), size};
}

void JsonChunker::Recycle(JsonChunk&& chunk) {
  if (chunk.mapped) {
    // Pages shared with a neighbouring chunk hold its patched byte: the
    // release keeps to whole pages inside this chunk.
    chunk.mapped->Release(chunk.begin, chunk.begin + chunk.length);
    chunk.mapped = nullptr;
    read_progress::AddBytesRead(chunk.length);
    return;
  }
  if (!chunk.storage) return;
  std::lock_guard lock(free_mutex_);
  constexpr size_t kMaxFree = 8;  // more than the chunks ever in flight
  if (free_buffers_.size() < kMaxFree)
    free_buffers_.emplace_back(std::move(chunk.storage), chunk.storage_bytes);
  chunk.storage.reset();
}

size_t JsonChunker::KeepFrom() const {
  if (streaming_) return start_;
  return in_string_ && key_string_ ? std::min(key_start_, pos_) : pos_;
}

void JsonChunker::AppendSkeleton(size_t from, size_t to) {
  if (to <= from) return;
  CountSkeletonText(to - from);
  const size_t needed = skeleton_.size() + (to - from);
  if (needed > skeleton_.capacity())
    skeleton_.reserve(GrowthCapacity(needed, 2 * skeleton_.capacity(), held_cap_bytes_, 1 << 20));
  skeleton_.append(data_ + from, to - from);
}

void JsonChunker::CountSkeletonText(size_t bytes) {
  skeleton_text_bytes_ += bytes;
  if (skeleton_text_bytes_ > held_cap_bytes_)
    HeldBytesOverCap("its JSON outside the streamed containers, read whole,", pos_);
}

void JsonChunker::HeldBytesOverCap(const char* what, size_t at) const {
  throw InputCapError(input_path_,
                      CapExceededProblem(what, held_cap_bytes_, kMaxInMemoryBytesVariable),
                      buffer_offset_ + at);
}

bool JsonChunker::Fill() {
  if (eof_ || !source_) return false;
  if (!streaming_) {
    AppendSkeleton(skeleton_from_, pos_);
    skeleton_from_ = pos_;
  }
  if (streaming_) {
    // White space between the cut and the next element is dropped: the
    // byte before the element's first becomes the chunk's bracket-to-be
    // (a fresh buffer since the cut: no chunk handed out reads these bytes).
    const size_t first = SkipJsonWhiteSpace(data_, start_ + 1, scan_at_);
    if (first - 1 > start_) {
      data_[first - 1] = data_[start_];
      start_ = first - 1;
    }
  }
  const size_t keep = KeepFrom();
  const size_t kept = size_ - keep;
  // What is kept is the chunk being cut (up to chunk_bytes_) and its last
  // element, or a key: that element or key may take up to the in-memory cap.
  if (kept > chunk_bytes_ + held_cap_bytes_)
    HeldBytesOverCap(streaming_
                         ? "the bytes of one element of a streamed container, held in memory,"
                         : "one key, held in memory,",
                     keep);
  if (!buffer_ || capacity_ - size_ < chunk_bytes_ + kPadding) {
    // Grows geometrically, so that an element far bigger than a chunk is
    // still copied a bounded number of times, and never past the cap and
    // one more read.
    const size_t limit = held_cap_bytes_ + 2 * chunk_bytes_;
    auto [fresh, fresh_bytes] =
        Allocate(GrowthCapacity(kept + chunk_bytes_, 2 * kept, limit, 4 * chunk_bytes_) + kPadding);
    if (kept) std::memcpy(fresh.get(), data_ + keep, kept);
    bytes_moved_ += kept;
    auto shift = [keep](size_t& offset) { offset = offset >= keep ? offset - keep : 0; };
    shift(pos_);
    shift(skeleton_from_);
    shift(key_start_);
    shift(start_);
    shift(scan_at_);
    buffer_offset_ += keep;
    buffer_ = std::move(fresh);
    data_ = buffer_.get();
    capacity_ = fresh_bytes;
    size_ = kept;
  }
  // No more than a chunk's worth: a buffer grown for one huge element would
  // otherwise read far ahead, and every chunk cut from it would carry that
  // read-ahead over to the next buffer (quadratic copying).
  const size_t room = std::min(capacity_ - size_ - kPadding, chunk_bytes_);
  size_t total = 0;
  while (total < room) {
    const size_t n = source_->Read(data_ + size_ + total, room - total);
    if (n == 0) {
      eof_ = true;
      break;
    }
    total += n;
  }
  size_ += total;
  bytes_read_ += total;
  std::memset(data_ + size_, 0, kPadding);
  return total > 0;
}

bool JsonChunker::ScanSkeleton() {
  for (;;) {
    for (; pos_ < size_; ++pos_) {
      const char c = data_[pos_];
      if (in_string_) {
        if (escaped_) {
          escaped_ = false;
        } else if (c == '\\') {
          escaped_ = true;
        } else if (c == '"') {
          in_string_ = false;
          if (key_string_) {
            std::string& key = frames_.back().key;
            key.assign(data_ + key_start_, pos_ - key_start_);
            // The selector compares keys as text: "\u0067raph" is "graph".
            if (key.find('\\') != std::string::npos) key = UnescapeJsonString(key).value_or(key);
          }
        }
        continue;
      }
      if (IsSpace(c)) {
        // Left out of the skeleton, so that white space costs no memory.
        AppendSkeleton(skeleton_from_, pos_);
        const size_t end = SkipJsonWhiteSpace(data_, pos_ + 1, size_);
        CountSkeletonText(end - pos_);
        skeleton_from_ = end;
        pos_ = end - 1;  // the loop steps to `end`
        continue;
      }
      if (frames_.empty() && c != '{' && c != '[')
        throw ChunkingNotPossible(root_seen_ ? "text after the root container"
                                             : "the root is not an object or array");
      switch (c) {
        case '"':
          in_string_ = true;
          key_string_ = frames_.back().is_object && frames_.back().expect_key;
          key_start_ = pos_ + 1;
          break;
        case ':':
          if (frames_.back().is_object) frames_.back().expect_key = false;
          break;
        case ',':
          if (frames_.back().is_object) frames_.back().expect_key = true;
          break;
        case '{':
        case '[': {
          const bool is_array = c == '[';
          if (frames_.empty()) {
            if (root_seen_) throw ChunkingNotPossible("text after the root container");
            root_seen_ = true;
          } else {
            path_.clear();
            for (const Frame& f : frames_) path_.push_back(f.is_object ? f.key : std::string());
            if (const int tag = select_(path_, is_array)) {
              AppendSkeleton(skeleton_from_, pos_ + 1);
              streamed_offsets_.push_back(skeleton_.size() - 1);
              streaming_ = true;
              bytes_scanned_ += scanner_.bytes_scanned();
              scanner_ = JsonContainerScanner();
              start_ = pos_;
              scan_at_ = pos_ + 1;
              first_chunk_ = true;
              container_ = static_cast<uint32_t>(streamed_offsets_.size() - 1);
              tag_ = tag;
              is_array_ = is_array;
              return true;
            }
          }
          frames_.push_back({!is_array, !is_array, {}});
          break;
        }
        case '}':
        case ']':
          frames_.pop_back();
          break;
        default:
          break;
      }
    }
    if (!Fill()) return false;
  }
}

void JsonChunker::FinishSkeleton() {
  if (!root_seen_ || !frames_.empty() || in_string_)
    throw ChunkingNotPossible("the document ends inside its root container");
  AppendSkeleton(skeleton_from_, size_);
  skeleton_from_ = size_;
}

bool JsonChunker::HoldsElement(size_t from, size_t to) const {
  for (size_t i = from + 1; i < to; ++i)
    if (!IsSpace(data_[i])) return true;
  return false;
}

JsonChunk JsonChunker::NewChunk(uint64_t file_offset) {
  JsonChunk chunk;
  chunk.file_offset = file_offset;
  chunk.index = next_index_++;
  chunk.container = container_;
  chunk.tag = tag_;
  chunk.is_array = is_array_;
  if (source_) {
    chunk.read_bytes = bytes_read_;
    chunk.source_bytes = source_->file_bytes_consumed();
  }
  return chunk;
}

JsonChunk JsonChunker::CopyChunk(size_t from, size_t to) {
  JsonChunk chunk = NewChunk(buffer_offset_ + from - 1);
  chunk.length = to - from + 2;
  auto [copy, copy_bytes] = Allocate(chunk.length + kPadding);
  copy[0] = is_array_ ? '[' : '{';
  std::memcpy(copy.get() + 1, data_ + from, to - from);
  bytes_moved_ += to - from;
  copy[chunk.length - 1] = is_array_ ? ']' : '}';
  std::memset(copy.get() + chunk.length, 0, kPadding);
  chunk.capacity = chunk.storage_bytes = copy_bytes;
  chunk.storage = std::move(copy);
  return chunk;
}

JsonChunk JsonChunker::TakeChunk(size_t end) {
  const char open = is_array_ ? '[' : '{';
  const char close = is_array_ ? ']' : '}';
  const bool cut = data_[end] == ',';  // else the container's own closing bracket
  if (mapped_ && end + 1 + kPadding > mapped_->mapped_bytes()) {
    // Too close to the mapping's end for simdjson's padding: copy.
    JsonChunk chunk = CopyChunk(start_ + 1, end);
    if (!cut) chunk.storage[chunk.length - 1] = data_[end];
    return chunk;
  }
  JsonChunk chunk = NewChunk(buffer_offset_ + start_);
  chunk.begin = start_;
  chunk.length = end + 1 - start_;
  if (mapped_) {
    // A view: the bytes after it (at least the padding) serve as padding.
    chunk.mapped = mapped_;
    chunk.capacity = mapped_->mapped_bytes() - start_;
  } else {
    // The buffer goes with the chunk; the caller carries the rest over.
    chunk.capacity = capacity_ - start_;
    chunk.storage_bytes = capacity_;
  }
  // Already written when the chunk before was cut (NextStreamed), before
  // any worker had that chunk: storing it again raced with the worker
  // parsing it, which reads the first byte past its end (simdjson's check
  // for an unbalanced document; ThreadSanitizer saw it).
  if (data_[start_] != open) data_[start_] = open;
  if (cut) data_[end] = close;
  return chunk;
}

void JsonChunker::CarryTail(size_t from) {
  const size_t carried = size_ - from;
  auto [fresh, fresh_bytes] = Allocate(carried + chunk_bytes_ + kPadding);
  std::memcpy(fresh.get(), data_ + from, carried);
  bytes_moved_ += carried;
  std::memset(fresh.get() + carried, 0, kPadding);
  buffer_ = std::move(fresh);
  data_ = buffer_.get();
  capacity_ = fresh_bytes;
  buffer_offset_ += from;
  size_ = carried;
}

void JsonChunker::CloseContainer(size_t resume_at) {
  skeleton_.push_back(is_array_ ? ']' : '}');
  pos_ = skeleton_from_ = resume_at;
  streaming_ = false;
}

size_t JsonChunker::GuessCut() const {
  if (!guess_cuts_ || !mapped_ || !is_array_ || element_start_.empty()) return SIZE_MAX;
  const size_t from = std::max(scan_at_, start_ + chunk_bytes_);
  const size_t window = std::min(kGuessWindowBytes, 4 * chunk_bytes_);
  // The last stretch is scanned: the container's end is found, not guessed.
  if (from >= size_ || size_ - from < 4 * chunk_bytes_ + window) return SIZE_MAX;
  const char* const to = data_ + from + window;
  for (const char* p = data_ + from; p < to; ++p) {
    p = static_cast<const char*>(std::memchr(p, ',', static_cast<size_t>(to - p)));
    if (!p) break;
    // White space around the comma, a short run of it (a long one is
    // read by the scanner instead).
    const char* before = p - 1;
    for (int n = 0; n < kGuessSpaceBytes && before > data_ + start_ && IsSpace(*before); ++n)
      --before;
    if (before <= data_ + start_ || *before != '}') continue;
    const char* after = p + 1;
    const char* const end = data_ + size_ - element_start_.size();
    for (int n = 0; n < kGuessSpaceBytes && after < end && IsSpace(*after); ++n) ++after;
    if (after <= end && std::memcmp(after, element_start_.data(), element_start_.size()) == 0)
      return static_cast<size_t>(p - data_);
  }
  return SIZE_MAX;
}

void JsonChunker::LearnElementStart(size_t comma) {
  const size_t first = SkipJsonWhiteSpace(data_, comma + 1, size_);
  const size_t length = std::min(kElementStartBytes, size_ - first);
  // Objects only: a '}' before the comma is then the end of an element.
  if (length == kElementStartBytes && data_[first] == '{')
    element_start_.assign(data_ + first, length);
  else
    element_start_.clear();
}

std::optional<JsonChunk> JsonChunker::NextStreamed() {
  using Stop = JsonContainerScanner::Stop;
  for (;;) {
    const size_t guess = GuessCut();
    // The last bytes (less than a block) are only scanned once no more
    // can come.
    const bool final = eof_;
    const auto found = guess != SIZE_MAX
                           ? JsonContainerScanner::Found{Stop::kSeparator, guess}
                           : scanner_.Scan(data_, scan_at_, size_, start_ + chunk_bytes_, final);
    if (found.stop == Stop::kNeedMoreData) {
      if (final) throw ChunkingNotPossible("a streamed container is not closed");
      scan_at_ = found.offset;
      Fill();
      continue;
    }
    const size_t end = found.offset;
    const bool last = found.stop == Stop::kClose;
    if (!HoldsElement(start_, end)) {
      // "[]" is an empty container; "[,", ",]" or ",," no JSON at all.
      if (!last || !first_chunk_) throw ChunkingNotPossible("a comma without an element");
      CloseContainer(end + 1);
      return std::nullopt;
    }
    first_chunk_ = false;
    // Each scanned cut teaches what the next guesses look for: a section
    // of elements of another kind (counters after ops) is guessed anew.
    if (guess_cuts_ && guess == SIZE_MAX && !last && mapped_) LearnElementStart(end);
    JsonChunk chunk = TakeChunk(end);
    if (guess != SIZE_MAX) {
      chunk.end_guessed = true;
      ++guessed_cuts_;
    }
    if (!mapped_) {
      // The chunk takes the buffer; what follows moves to a fresh one, its
      // first byte (the comma) becoming the next chunk's bracket.
      chunk.storage = std::move(buffer_);
      CarryTail(last ? end + 1 : end);
      if (last) {
        CloseContainer(0);
      } else {
        start_ = 0;
        scan_at_ = 1;
      }
      return chunk;
    }
    if (last) {
      CloseContainer(end + 1);
      return chunk;
    }
    if (end + 1 < size_ && IsSpace(data_[end + 1])) {
      // The white space after the comma becomes the next chunk's bracket
      // (never scanned again: the scanner resumes after it).
      start_ = end + 1;
      scan_at_ = end + 2;
      data_[start_] = is_array_ ? '[' : '{';
      return chunk;
    }
    // The comma is this chunk's end and would have to be the next one's
    // start too: the element after it goes into a small copy of its own,
    // and the next chunk starts at the comma after that element.
    const auto next = scanner_.Scan(data_, end + 1, size_, end + 1, true);
    if (next.stop == Stop::kNeedMoreData)
      throw ChunkingNotPossible("a streamed container is not closed");
    if (!HoldsElement(end, next.offset)) throw ChunkingNotPossible("a comma without an element");
    pending_.push_back(CopyChunk(end + 1, next.offset));
    if (next.stop == Stop::kClose) {
      CloseContainer(next.offset + 1);
    } else {
      start_ = next.offset;
      scan_at_ = next.offset + 1;
      data_[start_] = is_array_ ? '[' : '{';
    }
    return chunk;
  }
}

std::optional<JsonChunk> JsonChunker::Next() {
  for (;;) {
    if (!pending_.empty()) {
      JsonChunk chunk = std::move(pending_.front());
      pending_.pop_front();
      return chunk;
    }
    if (finished_) return std::nullopt;
    if (streaming_) {
      if (auto chunk = NextStreamed()) return chunk;
      continue;
    }
    if (!ScanSkeleton()) {
      FinishSkeleton();
      finished_ = true;
    }
  }
}

}  // namespace htpscope
