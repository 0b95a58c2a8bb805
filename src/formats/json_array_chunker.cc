#include "formats/json_array_chunker.h"

#include <fmt/format.h>

#include <cstring>

namespace htpscope {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view TrimJsonSpace(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  return text;
}

// Tracks JSON nesting and string state one byte at a time: only used on the
// small prologue and on the last chunk, never on the bulk of the data.
struct JsonScanner {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;

  // Advances over `c`; returns true when `c` is a structural character
  // outside any string.
  bool Step(char c) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      return false;
    }
    if (c == '"') {
      in_string = true;
      return false;
    }
    if (c == '{' || c == '[')
      ++depth;
    else if (c == '}' || c == ']')
      --depth;
    return true;
  }
};

}  // namespace

JsonArrayChunker::JsonArrayChunker(ByteSource& source, std::string member, size_t chunk_bytes)
    : source_(&source),
      member_(std::move(member)),
      chunk_bytes_(std::max<size_t>(chunk_bytes, 1)) {}

JsonArrayChunker::JsonArrayChunker(const MappedFile& file, std::string member, size_t chunk_bytes)
    : mapped_(&file),
      member_(std::move(member)),
      chunk_bytes_(std::max<size_t>(chunk_bytes, 1)),
      data_(file.data()),
      size_(file.size()),
      eof_(true) {}

std::pair<std::unique_ptr<char[]>, size_t> JsonArrayChunker::Allocate(size_t bytes) {
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
  size_t size = std::max(bytes, chunk_bytes_ + chunk_bytes_ / 16 + simdjson::SIMDJSON_PADDING);
  return {std::unique_ptr<char[]>(new char[size]), size};
}

void JsonArrayChunker::Recycle(JsonChunk&& chunk) {
  if (chunk.mapped) {
    // Pages shared with a neighbouring chunk hold its patched byte: the
    // release keeps to whole pages inside this chunk.
    chunk.mapped->Release(chunk.begin, chunk.begin + chunk.length);
    chunk.mapped = nullptr;
    return;
  }
  if (!chunk.storage) return;
  std::lock_guard lock(free_mutex_);
  constexpr size_t kMaxFree = 8;  // more than the chunks ever in flight
  if (free_buffers_.size() < kMaxFree)
    free_buffers_.emplace_back(std::move(chunk.storage), chunk.storage_bytes);
  chunk.storage.reset();
}

bool JsonArrayChunker::Fill() {
  if (eof_) return false;
  size_t kept = size_ - start_;
  if (!buffer_ || capacity_ - size_ < chunk_bytes_ + simdjson::SIMDJSON_PADDING) {
    // Move what is kept to a buffer with room for another chunk of data.
    size_t needed = kept + chunk_bytes_ + simdjson::SIMDJSON_PADDING;
    auto [fresh, fresh_bytes] = Allocate(needed);
    if (kept) std::memcpy(fresh.get(), buffer_.get() + start_, kept);
    buffer_offset_ += start_;
    buffer_ = std::move(fresh);
    data_ = buffer_.get();
    capacity_ = fresh_bytes;
    size_ = kept;
    start_ = 0;
  }
  size_t total = 0;
  while (total < chunk_bytes_) {
    size_t n = source_->Read(buffer_.get() + size_ + total, chunk_bytes_ - total);
    if (n == 0) {
      eof_ = true;
      break;
    }
    total += n;
  }
  size_ += total;
  bytes_read_ += total;
  std::memset(buffer_.get() + size_, 0,
              std::min<size_t>(capacity_ - size_, simdjson::SIMDJSON_PADDING));
  return total > 0;
}

void JsonArrayChunker::FindArrayStart() {
  // Scan the prologue for  "<member>" : [  at depth 1.
  JsonScanner scanner;
  size_t i = 0;
  size_t root_open = std::string::npos;
  size_t string_start = 0;
  for (;;) {
    for (; i < size_; ++i) {
      char c = data_[i];
      bool was_in_string = scanner.in_string;
      bool structural = scanner.Step(c);
      if (!was_in_string && scanner.in_string) string_start = i;
      if (was_in_string && !scanner.in_string && scanner.depth == 1) {
        std::string_view key(data_ + string_start + 1, i - string_start - 1);
        if (key != member_) continue;
        // Expect  ws ':' ws '['  (possibly across a refill).
        size_t j = i + 1;
        while (j < size_ && IsSpace(data_[j])) ++j;
        while (j >= size_ && !eof_) {
          Fill();  // keeps [start_, size_) = everything so far since start_ == 0
          while (j < size_ && IsSpace(data_[j])) ++j;
        }
        if (j >= size_ || data_[j] != ':')
          throw ChunkingNotPossible("member key not followed by ':'");
        ++j;
        while (j < size_ && IsSpace(data_[j])) ++j;
        if (j >= size_ || data_[j] != '[') throw ChunkingNotPossible("member is not an array");
        if (root_open == std::string::npos) throw ChunkingNotPossible("no root object");
        prologue_members_ = std::string(
            TrimJsonSpace(std::string_view(data_ + root_open + 1, string_start - root_open - 1)));
        if (!prologue_members_.empty() && prologue_members_.back() == ',')
          prologue_members_.pop_back();
        start_ = j;  // the chunk begins at '['
        return;
      }
      if (structural && c == '{' && scanner.depth == 1 && root_open == std::string::npos)
        root_open = i;
      if (structural && scanner.depth <= 0 && root_open != std::string::npos)
        throw ChunkingNotPossible(fmt::format("no \"{}\" array in the root object", member_));
    }
    // Keep the whole prologue in the buffer (start_ stays 0) and read on.
    if (!Fill()) throw ChunkingNotPossible(fmt::format("no \"{}\" array", member_));
  }
}

std::optional<JsonChunk> JsonArrayChunker::FinalChunk() {
  // The rest holds the last elements, the array's ']' and the object's end.
  JsonScanner scanner;
  scanner.depth = 1;  // inside the array, at an element boundary
  size_t close = std::string::npos;
  for (size_t i = start_ + 1; i < size_; ++i) {
    if (scanner.Step(data_[i]) && scanner.depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string::npos || data_[close] != ']')
    throw ChunkingNotPossible("array is not closed");
  // After ']': [, more members] '}' and only white space.
  std::string_view rest(data_ + close + 1, size_ - close - 1);
  rest = TrimJsonSpace(rest);
  if (rest.empty() || rest.back() != '}') throw ChunkingNotPossible("root object is not closed");
  rest.remove_suffix(1);
  rest = TrimJsonSpace(rest);
  if (!rest.empty()) {
    if (rest.front() != ',') throw ChunkingNotPossible("unexpected text after the array");
    rest.remove_prefix(1);
  }
  std::string epilogue(TrimJsonSpace(rest));
  other_members_ = "{" + prologue_members_ +
                   (prologue_members_.empty() || epilogue.empty() ? "" : ",") + epilogue + "}";
  JsonChunk chunk = ChunkAtStart(close + 1 - start_);
  if (mapped_ && start_ + chunk.length + simdjson::SIMDJSON_PADDING > mapped_->mapped_bytes()) {
    // Too close to the mapping's end for simdjson's padding: copy.
    auto [copy, copy_bytes] = Allocate(chunk.length + simdjson::SIMDJSON_PADDING);
    std::memcpy(copy.get(), data_ + start_, chunk.length);
    std::memset(copy.get() + chunk.length, 0, simdjson::SIMDJSON_PADDING);
    copy[0] = '[';
    chunk.begin = 0;
    chunk.capacity = copy_bytes;
    chunk.storage_bytes = copy_bytes;
    chunk.storage = std::move(copy);
  } else if (mapped_) {
    data_[start_] = '[';
    chunk.capacity = mapped_->mapped_bytes() - start_;
    chunk.mapped = mapped_;
  } else {
    chunk.capacity = capacity_ - start_;
    buffer_[start_] = '[';
    chunk.storage_bytes = capacity_;
    chunk.storage = std::move(buffer_);
  }
  finished_ = true;
  return chunk;
}

std::optional<JsonChunk> JsonArrayChunker::Next() {
  if (finished_) return std::nullopt;
  if (!started_) {
    started_ = true;
    Fill();
    FindArrayStart();
  }
  if (mapped_) {
    size_t cut = NextMappedCut();
    return cut == std::string::npos ? FinalChunk() : CutChunk(cut);
  }
  for (;;) {
    if (eof_) return FinalChunk();
    if (size_ - start_ >= chunk_bytes_) {
      // Cut before the last line that starts with '{' (an element start),
      // leaving at least one element in the chunk: the first element's own
      // line start (right after '[' or the carried '\n') is no cut.
      size_t first = start_ + 1;
      while (first < size_ && IsSpace(data_[first])) ++first;
      size_t cut = std::string::npos;
      for (size_t i = size_ - 1; i > first; --i) {
        if (data_[i] == '{' && data_[i - 1] == '\n') {
          cut = i - 1;
          break;
        }
      }
      if (cut != std::string::npos) return CutChunk(cut);
    }
    Fill();
  }
}

JsonChunk JsonArrayChunker::ChunkAtStart(size_t length) {
  JsonChunk chunk;
  chunk.begin = start_;
  chunk.length = length;
  chunk.file_offset = buffer_offset_ + start_;
  chunk.index = next_index_++;
  if (source_) {
    chunk.read_bytes = bytes_read_;
    chunk.source_bytes = source_->file_bytes_consumed();
  }
  return chunk;
}

JsonChunk JsonArrayChunker::CutChunk(size_t cut) {
  // The chunk is [start_, cut): '[' or '\n', elements, ',' and white space.
  size_t last = cut;
  while (last > start_ && IsSpace(data_[last - 1])) --last;
  if (last <= start_ + 1 || data_[last - 1] != ',')
    throw ChunkingNotPossible("a line-start '{' is not preceded by ','");
  JsonChunk chunk = ChunkAtStart(last - start_);
  if (mapped_) {
    // A view: the bytes after it (at least the padding, see NextMappedCut)
    // serve as padding, and the next chunk starts at the cut.
    chunk.capacity = mapped_->mapped_bytes() - start_;
    chunk.mapped = mapped_;
    data_[start_] = '[';
    data_[last - 1] = ']';
    start_ = cut;
    return chunk;
  }
  chunk.capacity = capacity_ - start_;  // the carried tail after it serves as padding
  // The tail from the cut on moves to a fresh buffer; the chunk keeps this one.
  size_t carried = size_ - cut;
  size_t needed = carried + chunk_bytes_ + simdjson::SIMDJSON_PADDING;
  auto [fresh, fresh_bytes] = Allocate(needed);
  std::memcpy(fresh.get(), buffer_.get() + cut, carried);
  chunk.storage_bytes = capacity_;
  chunk.storage = std::move(buffer_);
  chunk.storage[chunk.begin] = '[';
  chunk.storage[last - 1] = ']';
  buffer_ = std::move(fresh);
  data_ = buffer_.get();
  buffer_offset_ += cut;
  capacity_ = fresh_bytes;
  size_ = carried;
  start_ = 0;
  return chunk;
}

size_t JsonArrayChunker::NextMappedCut() const {
  // Forward from start_ + chunk_bytes_ to the next line that starts with '{'
  // and leaves room for simdjson's padding before the mapping ends.
  size_t from = start_ + chunk_bytes_;
  while (from < size_) {
    const void* newline = std::memchr(data_ + from, '\n', size_ - from);
    if (!newline) break;
    const size_t i = static_cast<size_t>(static_cast<const char*>(newline) - data_);
    if (i + 1 + simdjson::SIMDJSON_PADDING > size_) break;
    if (data_[i + 1] == '{') return i;
    from = i + 1;
  }
  return std::string::npos;
}

}  // namespace htpscope
