// Streaming output for the synthetic run generator: a buffered writer to a
// plain file or, through zlib's gzopen/gzwrite, to a gzip file.
//
// Contract: memory use is bounded by the buffer (kFlushBytes), whatever the
// file size, so multi-gigabyte traces can be written.  gzip output carries no
// time stamp, so equal input gives byte-identical files.  Errors throw
// std::runtime_error naming the file.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "json_layout.h"

struct gzFile_s;

namespace htpscope::synth {

class OutputFile {
 public:
  static constexpr size_t kFlushBytes = 1 << 20;

  // Opens (creates or truncates) `path`; gzip-compressed when `gzip`.  JSON
  // written is re-spaced into `layout` (JsonRelayout) when one is given.
  OutputFile(std::string path, bool gzip, std::optional<JsonRelayout> layout = std::nullopt);
  ~OutputFile();  // closes without reporting errors; call Close() to see them
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void Write(std::string_view text) {
    if (layout_)
      layout_->Feed(text, &buffer_);
    else
      buffer_.append(text.data(), text.data() + text.size());
    if (buffer_.size() >= kFlushBytes) Flush();
  }

  template <typename... Args>
  void Print(fmt::format_string<Args...> format, Args&&... args) {
    if (layout_) {
      formatted_.clear();
      fmt::format_to(std::back_inserter(formatted_), format, std::forward<Args>(args)...);
      layout_->Feed(std::string_view(formatted_.data(), formatted_.size()), &buffer_);
    } else {
      fmt::format_to(std::back_inserter(buffer_), format, std::forward<Args>(args)...);
    }
    if (buffer_.size() >= kFlushBytes) Flush();
  }

  // Flushes and closes the file.  Throws std::runtime_error on I/O errors.
  void Close();

  const std::string& path() const { return path_; }
  // Uncompressed bytes written so far.
  uint64_t bytes_written() const { return bytes_written_ + buffer_.size(); }

 private:
  void Flush();

  std::string path_;
  std::optional<JsonRelayout> layout_;
  fmt::memory_buffer formatted_;  // Print's text before re-spacing
  fmt::memory_buffer buffer_;
  std::FILE* file_ = nullptr;
  gzFile_s* gz_ = nullptr;
  uint64_t bytes_written_ = 0;
};

}  // namespace htpscope::synth
