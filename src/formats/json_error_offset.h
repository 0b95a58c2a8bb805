// Where a JSON document goes wrong when simdjson's first stage (the
// structural scan of the whole buffer) rejects it: that stage says what is
// wrong but not where, so the place is found here, on the error path only.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace htpscope {

struct JsonScanError {
  uint64_t byte_offset = 0;  // within `json`
  std::string problem;       // "not valid JSON (...)" with what was found there
};

// For the error simdjson's iterate() gave on `json`:
//  * UNCLOSED_STRING: the end of the input, where a string is still open
//    (a file cut short inside a string);
//  * UTF8_ERROR: the first byte that is not part of valid UTF-8;
//  * UNESCAPED_CHARS: the first control character inside a string;
//  * anything else: the start of the input (EMPTY: an empty document).
JsonScanError LocateJsonScanError(std::string_view json, simdjson::error_code error);

// For a document whose top-level object or array is not closed at its end
// (INCOMPLETE_ARRAY_OR_OBJECT when the root is opened): the end of its
// content, where the closing bracket is missing (a file cut short).
JsonScanError LocateUnclosedRoot(std::string_view json);

}  // namespace htpscope
