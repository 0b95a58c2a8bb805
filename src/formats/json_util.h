// Small helpers shared by the simdjson-based readers.
#pragma once

#include <fmt/format.h>
#include <simdjson.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/errors.h"
#include "base/op_vocabulary.h"

namespace htpscope {

// Byte offset of the on-demand parser's current position in `buffer`, or the
// buffer length when the parser is past its end.
uint64_t CurrentOffset(simdjson::ondemand::document& doc, simdjson::padded_string_view buffer);

// The text of a JSON string given its raw bytes between the quotes
// ("\u0068eader" gives "header"; bytes without a backslash as they are), or
// nullopt when an escape in them is no valid one.
std::optional<std::string> UnescapeJsonString(std::string_view raw);

// Finds member `key` (compared unescaped) of the JSON object `object_text`
// and calls `found` with its value: true then, false when the text is no
// object or has no such member before any malformed one.  `parser` may be
// reused between calls.
bool FindObjectMember(std::string_view object_text, std::string_view key,
                      simdjson::ondemand::parser& parser,
                      const std::function<void(simdjson::ondemand::value)>& found);

// `number` as an integer when it is one (1.5e3, 42.0) within ±9e18, else
// nullopt (a fraction, NaN, infinity, beyond the range).
std::optional<int64_t> IntegralValue(double number);

// GetInteger's slow path: a number that is not a plain int64 literal.
simdjson::error_code GetIntegralNumber(simdjson::ondemand::value value, int64_t* out);

// Reads a JSON number that must be an integer.  Accepts integral doubles such
// as 1.0e3 (some writers print them); rejects fractions, NaN and overflow.
// Inline: called for tens of millions of values on big traces.
inline simdjson::error_code GetInteger(simdjson::ondemand::value value, int64_t* out) {
  // Nearly every value is a plain integer: parse it once, and only classify
  // the number when that fails.
  if (value.get_int64().get(*out) == simdjson::SUCCESS) return simdjson::SUCCESS;
  return GetIntegralNumber(value, out);
}

// Reads any JSON number as a double.
inline simdjson::error_code GetNumber(simdjson::ondemand::value value, double* out) {
  return value.get_double().get(*out);
}

// Raises InputError for a simdjson failure at the parser's current position.
// `base_offset` is the file offset of buffer[0] (non-zero for a chunk of a file).
[[noreturn]] void ThrowJsonError(const std::string& path, simdjson::ondemand::document& doc,
                                 simdjson::padded_string_view buffer, simdjson::error_code error,
                                 std::string_view context, uint64_t base_offset = 0);

}  // namespace htpscope

namespace htpscope {

// Typed access to an on-demand document with errors that name the file, the
// byte offset and the JSON path being read.  The path is composed only when
// something fails: `scope` (e.g. "traceEvents[12]") + the context passed to
// each call (e.g. "args.ID").
class JsonReader {
 public:
  using object = simdjson::ondemand::object;
  using array = simdjson::ondemand::array;
  using value = simdjson::ondemand::value;

  // `buffer` must outlive the reader.  `base_offset` is the file offset of
  // buffer[0], so that errors in a chunk of a file name file offsets.
  JsonReader(std::string path, simdjson::padded_string_view buffer, uint64_t base_offset = 0);
  // The same, parsing with `parser` (which must outlive the reader; null:
  // a parser of its own) instead of a parser of its own.
  JsonReader(std::string path, simdjson::padded_string_view buffer, uint64_t base_offset,
             simdjson::ondemand::parser* parser);

  // Parses `buffer` instead (before Root/RootArray only).  Offsets in errors
  // are still counted from base_offset.
  void SetBuffer(simdjson::padded_string_view buffer) { buffer_ = buffer; }

  // Starts parsing; the document must be a JSON object.
  object Root();
  // Starts parsing; the document must be a JSON array.
  array RootArray();
  // Fails unless the whole buffer was consumed.
  void ExpectEnd();
  // Reads header.artifact_type of `header` and fails unless it is `expected`.
  // Returns header.version as "major.minor.patch" ("" when absent).
  std::string CheckHeader(value header, std::string_view expected);

  object Object(value v, std::string_view ctx);
  array Array(value v, std::string_view ctx);
  int64_t Int(value v, std::string_view ctx);
  double Number(value v, std::string_view ctx);
  std::string_view String(value v, std::string_view ctx);
  bool Bool(value v, std::string_view ctx);
  uint64_t HexId(value v, std::string_view ctx);

  // Calls fn(std::string_view key, value v) for every member of `o`.
  template <typename Fn>
  void Fields(object& o, std::string_view ctx, Fn&& fn) {
    for (auto field_result : o) {
      simdjson::ondemand::field field;
      Check(std::move(field_result).get(field), ctx);
      std::string_view key;
      Check(field.unescaped_key().get(key), ctx);
      fn(key, field.value());
    }
  }
  // Calls fn(value v, size_t index) for every element of `a`.
  template <typename Fn>
  void Elements(array& a, std::string_view ctx, Fn&& fn) {
    size_t index = 0;
    for (auto element : a) {
      value v;
      Check(element.get(v), ctx);
      fn(v, index++);
    }
  }

  void set_scope(std::string scope) { scope_ = std::move(scope); }
  void Check(simdjson::error_code err, std::string_view ctx) {
    if (err) Fail(err, ctx);
  }
  [[noreturn]] void Fail(simdjson::error_code err, std::string_view ctx);
  // A semantic error (not a JSON one) at the current position.
  [[noreturn]] void Invalid(std::string_view problem);
  // File offset of the parser's current position; before Root or RootArray,
  // that of the buffer's start (base_offset).
  uint64_t Offset();
  const std::string& path() const { return path_; }

 private:
  std::string Context(std::string_view ctx) const;
  // Raises the InputError for a document the structural scan rejected, at
  // the place LocateJsonScanError finds.
  [[noreturn]] void ThrowScanError(simdjson::error_code error);
  // Check() for the top-level value, whose being left open is found before
  // the parser has a position in it: that error is put at the end.
  void CheckRoot(simdjson::error_code error, std::string_view ctx);

  std::string path_;
  simdjson::padded_string_view buffer_;
  uint64_t base_offset_ = 0;
  bool started_ = false;  // doc_ iterates buffer_ (Root or RootArray succeeded)
  simdjson::ondemand::parser own_parser_;
  // own_parser_, or a caller's parser reused across documents so that its
  // buffers (~5 bytes per input byte) are not allocated afresh each time.
  simdjson::ondemand::parser* parser_ = &own_parser_;
  simdjson::ondemand::document doc_;
  std::string scope_;
};

}  // namespace htpscope

namespace htpscope {

// Reads the members of one JSON object (a row, a node) with JsonReader's
// checks and messages, but composes the JSON path a message names only when
// an error is raised: `where()` returns the object's path (e.g.
// "htp_op_instances.data[12]"), and a member's is where() + "." + key.
// Millions of rows would otherwise format a path per member.
template <typename Where>
class FieldReader {
 public:
  using object = simdjson::ondemand::object;
  using value = simdjson::ondemand::value;

  FieldReader(JsonReader& reader, Where where) : reader_(reader), where_(std::move(where)) {}

  std::string Path() const { return where_(); }
  std::string Path(std::string_view key) const { return fmt::format("{}.{}", where_(), key); }

  // `v` as an object (the one this reader describes).
  object Object(value v) {
    object o;
    if (auto err = v.get_object().get(o))
      reader_.Fail(err, fmt::format("{}: expected an object", Path()));
    return o;
  }
  // Calls fn(std::string_view key, value v) for every member of `o`.
  template <typename Fn>
  void Fields(object& o, Fn&& fn) {
    for (auto field_result : o) {
      simdjson::ondemand::field field;
      if (auto err = std::move(field_result).get(field)) reader_.Fail(err, Path());
      std::string_view key;
      if (auto err = field.unescaped_key().get(key)) reader_.Fail(err, Path());
      fn(key, field.value());
    }
  }

  // Calls fn(value v, size_t index) for every element of member `key`'s
  // array `v` (errors as JsonReader::Array and Elements word them).
  template <typename Fn>
  void Elements(value v, std::string_view key, Fn&& fn) {
    simdjson::ondemand::array a;
    if (auto err = v.get_array().get(a))
      reader_.Fail(err, fmt::format("{}: expected an array", Path(key)));
    size_t index = 0;
    for (auto element : a) {
      value e;
      if (auto err = element.get(e)) reader_.Fail(err, Path(key));
      fn(e, index++);
    }
  }

  int64_t Int(value v, std::string_view key) {
    int64_t out = 0;
    if (auto err = GetInteger(v, &out))
      reader_.Fail(err, fmt::format("{}: expected an integer", Path(key)));
    return out;
  }
  // The object's own value (no member key): a path of where() alone.
  int64_t Int(value v) {
    int64_t out = 0;
    if (auto err = GetInteger(v, &out))
      reader_.Fail(err, fmt::format("{}: expected an integer", Path()));
    return out;
  }
  double Number(value v) {
    double out = 0;
    if (auto err = GetNumber(v, &out))
      reader_.Fail(err, fmt::format("{}: expected a number", Path()));
    return out;
  }
  std::string_view String(value v) {
    std::string_view out;
    if (auto err = v.get_string().get(out))
      reader_.Fail(err, fmt::format("{}: expected a string", Path()));
    return out;
  }
  bool Bool(value v) {
    bool out = false;
    if (auto err = v.get_bool().get(out))
      reader_.Fail(err, fmt::format("{}: expected true or false", Path()));
    return out;
  }
  // An integer that is never negative in a genuine file (cycles, bytes,
  // counts): a negative one would turn into a negative share.
  int64_t Count(value v, std::string_view key) {
    const int64_t n = Int(v, key);
    if (n < 0) reader_.Invalid(fmt::format("{}: {} is negative, expected a count", Path(key), n));
    return n;
  }
  double Number(value v, std::string_view key) {
    double out = 0;
    if (auto err = GetNumber(v, &out))
      reader_.Fail(err, fmt::format("{}: expected a number", Path(key)));
    return out;
  }
  std::string_view String(value v, std::string_view key) {
    std::string_view out;
    if (auto err = v.get_string().get(out))
      reader_.Fail(err, fmt::format("{}: expected a string", Path(key)));
    return out;
  }
  bool Bool(value v, std::string_view key) {
    bool out = false;
    if (auto err = v.get_bool().get(out))
      reader_.Fail(err, fmt::format("{}: expected true or false", Path(key)));
    return out;
  }
  uint64_t HexId(value v, std::string_view key) {
    const std::string_view text = String(v, key);
    auto id = ParseHexId(text);
    if (!id) reader_.Invalid(fmt::format("{}: \"{}\" is not a hex id", Path(key), text));
    return *id;
  }

  JsonReader& reader() { return reader_; }

 private:
  JsonReader& reader_;
  Where where_;
};

}  // namespace htpscope
