// Records of a profile CSV, split per RFC 4180 (internal to profile_csv.cc).
//
//  * Fields are separated by ',' and records by "\n" or "\r\n"; a lone "\r"
//    is text.
//  * A field whose first character other than spaces or tabs is '"' is
//    quoted: it runs to the next '"' not doubled, and may hold ',', '"' (as
//    "") and line breaks.  Spaces before the opening quote and after the
//    closing one are allowed (qnn-profile-viewer separates fields by ", ").
//  * Anything else after a closing quote means the field was not quoted
//    after all (ONNX Runtime writes identifiers as they are, quotes
//    included): it is then read as plain text up to the next ',' or line end.
//  * A quote opened and never closed before the end of the file is an error
//    naming the line where it opened.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace htpscope::profile_internal {

struct CsvRecord {
  // The values: quoted ones without their quotes and with "" undone; plain
  // ones as written (not trimmed).
  std::vector<std::string> fields;
  std::vector<bool> quoted;
  // Where each field starts in the text (its leading spaces included).
  std::vector<size_t> field_begin;
  size_t end = 0;           // where the record ends (its line break excluded)
  uint64_t first_line = 0;  // 1-based line where the record starts
  uint64_t last_line = 0;   // ... and where it ends (> first_line with quoted line breaks)

  // The record's text from field `i` to its end, as written.
  std::string_view RawFrom(std::string_view text, size_t i) const {
    return text.substr(field_begin[i], end - field_begin[i]);
  }
  // True for a line of nothing but white space.
  bool Blank() const;
};

class CsvRecordReader {
 public:
  // `text` must outlive the reader.  `path` names the file in errors.
  CsvRecordReader(const std::string& path, std::string_view text) : path_(path), text_(text) {}
  // Reads the next record into `out` (its vectors are reused).  Returns false
  // at the end of the text.  Throws InputError for an unclosed quote.
  bool Next(CsvRecord* out);

 private:
  // Reads one field starting at pos_; returns false when the record ends after it.
  bool ReadField(CsvRecord* out);
  bool AtRecordEnd(size_t at) const;

  const std::string& path_;
  std::string_view text_;
  size_t pos_ = 0;
  uint64_t line_ = 1;
};

// The 7 column names of the profile CSV header.
inline constexpr std::string_view kCsvColumns[] = {
    "Msg Timestamp", "Message",         "Time", "Unit of Measurement", "Timing Source",
    "Event Level",   "Event Identifier"};
inline constexpr size_t kCsvColumnCount = 7;
inline constexpr std::string_view kCsvSourceOpsColumn = "ONNX Source Ops";

// Whether `record` is a header row (its first field is "Msg Timestamp").
bool IsCsvHeader(const CsvRecord& record);

// The depth of an Event Level: "ROOT" 0, "SUB-EVENT" 1, "SUB-SUB-EVENT" 2,
// ... (case-insensitive); -1 when it is none of these.
int CsvEventDepth(std::string_view level);

}  // namespace htpscope::profile_internal
