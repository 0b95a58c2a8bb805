#include "formats/json_util.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "formats/json_error_offset.h"

namespace htpscope {

uint64_t CurrentOffset(simdjson::ondemand::document& doc, simdjson::padded_string_view buffer) {
  const char* location = nullptr;
  if (doc.current_location().get(location) != simdjson::SUCCESS || location == nullptr)
    return buffer.size();
  if (location < buffer.data() || location > buffer.data() + buffer.size()) return buffer.size();
  return static_cast<uint64_t>(location - buffer.data());
}

std::optional<std::string> UnescapeJsonString(std::string_view raw) {
  if (raw.find('\\') == std::string_view::npos) return std::string(raw);
  simdjson::padded_string quoted("\"" + std::string(raw) + "\"");
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  std::string_view text;
  if (parser.iterate(quoted).get(doc) || doc.get_string().get(text)) return std::nullopt;
  return std::string(text);
}

bool FindObjectMember(std::string_view object_text, std::string_view key,
                      simdjson::ondemand::parser& parser,
                      const std::function<void(simdjson::ondemand::value)>& found) {
  simdjson::padded_string text(object_text);
  simdjson::ondemand::document doc;
  simdjson::ondemand::object object;
  if (parser.iterate(text).get(doc) || doc.get_object().get(object)) return false;
  for (auto field_result : object) {
    simdjson::ondemand::field field;
    std::string_view name;
    if (std::move(field_result).get(field) || field.unescaped_key().get(name)) return false;
    if (name != key) continue;
    found(field.value());
    return true;
  }
  return false;
}

std::optional<int64_t> IntegralValue(double number) {
  if (!std::isfinite(number) || number != std::floor(number) || std::fabs(number) > 9.0e18)
    return std::nullopt;
  return static_cast<int64_t>(number);
}

simdjson::error_code GetIntegralNumber(simdjson::ondemand::value value, int64_t* out) {
  simdjson::ondemand::number_type type;
  if (auto err = value.get_number_type().get(type)) return err;
  if (type == simdjson::ondemand::number_type::signed_integer) return value.get_int64().get(*out);
  if (type == simdjson::ondemand::number_type::unsigned_integer)
    return simdjson::NUMBER_OUT_OF_RANGE;
  double d = 0;
  if (auto err = value.get_double().get(d)) return err;
  const std::optional<int64_t> integral = IntegralValue(d);
  if (!integral) return simdjson::INCORRECT_TYPE;
  *out = *integral;
  return simdjson::SUCCESS;
}

void ThrowJsonError(const std::string& path, simdjson::ondemand::document& doc,
                    simdjson::padded_string_view buffer, simdjson::error_code error,
                    std::string_view context, uint64_t base_offset) {
  std::string what =
      error == simdjson::INCORRECT_TYPE        ? "wrong JSON type"
      : error == simdjson::NUMBER_OUT_OF_RANGE ? "number out of range"
      : error == simdjson::NUMBER_ERROR        ? "malformed number"
      : error == simdjson::TAPE_ERROR || error == simdjson::INCOMPLETE_ARRAY_OR_OBJECT
          ? "malformed or truncated JSON"
          : simdjson::error_message(error);
  throw InputError(path, fmt::format("{} ({})", context, what),
                   base_offset + CurrentOffset(doc, buffer));
}

}  // namespace htpscope

namespace htpscope {

JsonReader::JsonReader(std::string path, simdjson::padded_string_view buffer, uint64_t base_offset)
    : path_(std::move(path)), buffer_(buffer), base_offset_(base_offset) {}

JsonReader::JsonReader(std::string path, simdjson::padded_string_view buffer, uint64_t base_offset,
                       simdjson::ondemand::parser* parser)
    : path_(std::move(path)),
      buffer_(buffer),
      base_offset_(base_offset),
      parser_(parser ? parser : &own_parser_) {}

JsonReader::object JsonReader::Root() {
  auto err = parser_->iterate(buffer_).get(doc_);
  if (err) ThrowScanError(err);
  started_ = true;
  object root;
  CheckRoot(doc_.get_object().get(root), "top level: expected a JSON object");
  return root;
}

JsonReader::array JsonReader::RootArray() {
  auto err = parser_->iterate(buffer_).get(doc_);
  if (err) ThrowScanError(err);
  started_ = true;
  array root;
  CheckRoot(doc_.get_array().get(root), "expected a JSON array");
  return root;
}

void JsonReader::CheckRoot(simdjson::error_code error, std::string_view ctx) {
  if (error == simdjson::INCOMPLETE_ARRAY_OR_OBJECT) {
    JsonScanError unclosed = LocateUnclosedRoot({buffer_.data(), buffer_.size()});
    throw InputError(path_, std::move(unclosed.problem), base_offset_ + unclosed.byte_offset);
  }
  Check(error, ctx);
}

void JsonReader::ThrowScanError(simdjson::error_code error) {
  JsonScanError scan = LocateJsonScanError({buffer_.data(), buffer_.size()}, error);
  throw InputError(path_, std::move(scan.problem), base_offset_ + scan.byte_offset);
}

void JsonReader::ExpectEnd() {
  // current_location() answers OUT_OF_BOUNDS exactly when everything was consumed.
  const char* location = nullptr;
  if (doc_.current_location().get(location) == simdjson::SUCCESS)
    Fail(simdjson::TRAILING_CONTENT, "after the top-level value");
}

std::string JsonReader::CheckHeader(value header_value, std::string_view expected) {
  object header = Object(header_value, "header");
  std::string artifact, version;
  Fields(header, "header", [&](std::string_view key, value v) {
    if (key == "artifact_type") {
      artifact = std::string(String(v, "header.artifact_type"));
    } else if (key == "version") {
      object parts = Object(v, "header.version");
      int64_t major = 0, minor = 0, patch = 0;
      Fields(parts, "header.version", [&](std::string_view part, value pv) {
        if (part == "major") major = Int(pv, "header.version.major");
        if (part == "minor") minor = Int(pv, "header.version.minor");
        if (part == "patch") patch = Int(pv, "header.version.patch");
      });
      version = fmt::format("{}.{}.{}", major, minor, patch);
    }
  });
  if (artifact != expected)
    Invalid(fmt::format("header.artifact_type is \"{}\", expected \"{}\"", artifact, expected));
  return version;
}

JsonReader::object JsonReader::Object(value v, std::string_view ctx) {
  object o;
  auto err = v.get_object().get(o);
  if (err) Fail(err, fmt::format("{}: expected an object", ctx));
  return o;
}

JsonReader::array JsonReader::Array(value v, std::string_view ctx) {
  array a;
  auto err = v.get_array().get(a);
  if (err) Fail(err, fmt::format("{}: expected an array", ctx));
  return a;
}

int64_t JsonReader::Int(value v, std::string_view ctx) {
  int64_t out = 0;
  auto err = GetInteger(v, &out);
  if (err) Fail(err, fmt::format("{}: expected an integer", ctx));
  return out;
}

double JsonReader::Number(value v, std::string_view ctx) {
  double out = 0;
  auto err = GetNumber(v, &out);
  if (err) Fail(err, fmt::format("{}: expected a number", ctx));
  return out;
}

std::string_view JsonReader::String(value v, std::string_view ctx) {
  std::string_view out;
  auto err = v.get_string().get(out);
  if (err) Fail(err, fmt::format("{}: expected a string", ctx));
  return out;
}

bool JsonReader::Bool(value v, std::string_view ctx) {
  bool out = false;
  auto err = v.get_bool().get(out);
  if (err) Fail(err, fmt::format("{}: expected true or false", ctx));
  return out;
}

uint64_t JsonReader::HexId(value v, std::string_view ctx) {
  std::string_view text = String(v, ctx);
  auto id = ParseHexId(text);
  if (!id) Invalid(fmt::format("{}: \"{}\" is not a hex id", Context(ctx), text));
  return *id;
}

std::string JsonReader::Context(std::string_view ctx) const {
  if (scope_.empty()) return std::string(ctx);
  return fmt::format("{}.{}", scope_, ctx);
}

void JsonReader::Fail(simdjson::error_code err, std::string_view ctx) {
  ThrowJsonError(path_, doc_, buffer_, err, Context(ctx), base_offset_);
}

void JsonReader::Invalid(std::string_view problem) {
  throw InputError(path_, std::string(problem), Offset());
}

uint64_t JsonReader::Offset() {
  // A document not yet iterated has no position to ask for.
  return base_offset_ + (started_ ? CurrentOffset(doc_, buffer_) : 0);
}

}  // namespace htpscope
