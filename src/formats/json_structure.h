// Finding the structure of JSON text at memory speed, without parsing it:
// which bytes lie inside strings, and how deeply brackets nest.
//
// The text is read 64 bytes at a time.  For each block, bit masks of its
// backslashes and quotes give the quotes that are not escaped (a byte is
// escaped when an odd run of backslashes precedes it), and a prefix XOR of
// those gives the bytes inside strings; brackets and commas outside strings
// are structural.  The state (inside a string or not, an escape pending, the
// depth) carries from one block, and from one call, to the next, so a
// document can be scanned in pieces as it arrives.  This is the method of
// simdjson's stage 1, reduced to what cutting a document into elements needs;
// it does not validate the text (the parser of each piece does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace htpscope {

// The first byte of text[from, to) that is not JSON white space (space, tab,
// line feed, carriage return), or `to`.  Runs of spaces are skipped 8 bytes
// at a time, so that gigabytes of padding cost little.
inline size_t SkipJsonWhiteSpace(const char* text, size_t from, size_t to) {
  constexpr uint64_t kEightSpaces = 0x2020202020202020ull;
  for (;;) {
    while (from + 8 <= to) {
      uint64_t word;
      std::memcpy(&word, text + from, 8);
      if (word != kEightSpaces) break;
      from += 8;
    }
    if (from >= to) return to;
    const char c = text[from];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return from;
    ++from;
  }
}

// The bit masks of one 64-byte block (bit i = byte i).
struct JsonBlockMasks {
  uint64_t quotes = 0;       // '"'
  uint64_t backslashes = 0;  // '\\'
  uint64_t opens = 0;        // '{' or '['
  uint64_t closes = 0;       // '}' or ']'
  uint64_t commas = 0;       // ','
};

// Classifies the 64 bytes at `block` (SIMD where the build has it).
JsonBlockMasks ClassifyJsonBlock(const char* block);

// The bytes escaped by a preceding odd run of backslashes, given the
// block's backslash mask.  `carry` says whether the block's first byte is
// escaped (the previous block ended inside an odd run) and is updated for
// the next block.
uint64_t EscapedJsonBytes(uint64_t backslashes, uint64_t* carry);

// Copies `text` to `out` without the white space outside strings (64 bytes
// at a time): the same JSON value, minified.  `out` must have room for
// `length` + 64 bytes (whole blocks are stored); returns the bytes written,
// or kMinifyRefused when white space alone separates two values (no JSON:
// "1 2" minified would read as the valid 12).  Other text that is no JSON (a
// string left open) comes out changed in some way its parser rejects as well.
inline constexpr size_t kMinifyRefused = SIZE_MAX;
size_t MinifyJson(const char* text, size_t length, char* out);

// Scans the elements of one JSON container (array or object) for the bytes
// that end them: the commas between its elements and its closing bracket.
class JsonContainerScanner {
 public:
  enum class Stop {
    kSeparator,     // a ',' between two of the container's elements
    kClose,         // the container's closing bracket
    kNeedMoreData,  // the text given ended first
  };
  struct Found {
    Stop stop;
    size_t offset;  // of the byte found; for kNeedMoreData, where to resume
  };

  // Starts just after the container's opening bracket.
  JsonContainerScanner() = default;

  // Scans text[at, length) for the first separator at or after `min_offset`,
  // or the container's closing bracket wherever it is.  Whole blocks of 64
  // bytes are scanned; a shorter tail only when `final` (no text follows),
  // else the call returns kNeedMoreData with the offset of the first byte
  // not scanned, from which the next call (given more text) resumes.  Bytes
  // are never read at or past `length`.
  Found Scan(const char* text, size_t at, size_t length, size_t min_offset, bool final);

  // Bracket depth after the bytes scanned: 1 between the container's
  // elements, 0 once it is closed.
  int64_t depth() const { return depth_; }

  // Whether a scan that returned `found` ran to the end of its text between
  // the container's elements: no bracket it opened left open, no string.
  bool EndedBetweenElements(const Found& found) const {
    return found.stop == Stop::kNeedMoreData && depth_ == 1 && in_string_ == 0;
  }

  // Bytes classified so far (64 per block, tails included).
  uint64_t bytes_scanned() const { return bytes_scanned_; }

 private:
  uint64_t in_string_ = 0;     // all ones when the last byte scanned is inside a string
  uint64_t escape_carry_ = 0;  // 1 when the next byte is escaped
  int64_t depth_ = 1;
  uint64_t bytes_scanned_ = 0;
};

// Whether `text` is '[', then elements that each close what they open
// (brackets, strings) with commas and white space between them, then ']':
// a JSON array's element boundaries where the text says, checked by the
// structural scan alone (64 bytes at a time), not the elements' grammar.
bool IsArrayOfClosedElements(const char* text, size_t length);

}  // namespace htpscope
