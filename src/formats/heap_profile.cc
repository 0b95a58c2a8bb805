#include "formats/heap_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

#include "base/errors.h"
#include "base/text_util.h"
#include "formats/artifact_kind.h"
#include "formats/byte_source.h"
#include "formats/json_util.h"

namespace htpscope {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
constexpr std::string_view kBefore = "DSP:before_context_created";
constexpr std::string_view kAfter = "DSP:after_context_freed";
constexpr size_t kMaxQuotedChars = 80;

std::string Quote(std::string_view text) {
  if (text.size() <= kMaxQuotedChars) return fmt::format("\"{}\"", text);
  return fmt::format("\"{}...\"", text.substr(0, kMaxQuotedChars));
}

std::optional<HeapCheckpointKind> KindOfName(std::string_view name) {
  if (name == kBefore) return HeapCheckpointKind::kBeforeContextCreated;
  if (name == kAfter) return HeapCheckpointKind::kAfterContextFreed;
  return std::nullopt;
}

// Calls fn(line, 1-based line number) for every line of `text` (CR LF or LF).
template <typename Fn>
void ForEachLine(std::string_view text, Fn&& fn) {
  uint64_t number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    fn(line, ++number);
    pos = end + 1;
  }
}

// A whole number of bytes as ExecuTorch prints it (decimal digits only).
// Returns nullopt and sets *problem otherwise.
std::optional<int64_t> ParseWholeBytes(std::string_view text, std::string* problem) {
  if (text.empty()) {
    *problem = "no value after the comma: expected a whole number of bytes";
    return std::nullopt;
  }
  std::string_view digits = text[0] == '-' || text[0] == '+' ? text.substr(1) : text;
  bool all_digits = !digits.empty() && std::all_of(digits.begin(), digits.end(),
                                                   [](char c) { return c >= '0' && c <= '9'; });
  if (!all_digits) {
    *problem = fmt::format("value {} is not a whole number of bytes", Quote(text));
    return std::nullopt;
  }
  if (text[0] == '-') {
    *problem = fmt::format("value {} is negative: a heap size is a non-negative number of bytes",
                           Quote(text));
    return std::nullopt;
  }
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) {
    *problem = fmt::format("value {} overflows a 64-bit integer", Quote(text));
    return std::nullopt;
  }
  return value;
}

// A profile value (double) as whole non-negative bytes.
std::optional<int64_t> WholeBytes(double value) {
  // 2^63: whole doubles below it convert to int64 exactly.
  if (!std::isfinite(value) || value < 0 || std::floor(value) != value ||
      value >= 9223372036854775808.0)
    return std::nullopt;
  return static_cast<int64_t>(value);
}

// True when `line` names checkpoint `name` as a whole identifier (not as the
// prefix of a longer one such as "DSP:before_context_created_2").
bool LineNames(std::string_view line, std::string_view name) {
  size_t at = line.find(name);
  while (at != std::string_view::npos) {
    size_t end = at + name.size();
    bool bounded = end == line.size() ||
                   !(std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_');
    if (bounded) return true;
    at = line.find(name, at + 1);
  }
  return false;
}

// ---------------------------------------------------------------------------
// QNN_PROFILE JSON.

class QnnProfileParser {
 public:
  QnnProfileParser(const std::string& path, const simdjson::padded_string& buffer)
      : reader_(path, buffer) {
    out_.path = path;
  }

  QnnProfileJson Run() {
    auto root = reader_.Root();
    bool saw_header = false, saw_messages = false;
    reader_.Fields(root, "top level", [&](std::string_view key, JsonReader::value v) {
      if (key == "header") {
        reader_.CheckHeader(v, "QNN_PROFILE");
        saw_header = true;
      } else if (key == "metadata") {
        ReadMetadata(v);
      } else if (key == "messages") {
        saw_messages = true;
        auto messages = reader_.Array(v, "messages");
        reader_.Elements(messages, "messages", [&](JsonReader::value m, size_t index) {
          out_.messages.push_back(ReadMessage(m, index));
        });
      } else {
        NoteUnknownKey("top level", key);
      }
    });
    reader_.ExpectEnd();
    if (!saw_header)
      throw InputError(out_.path,
                       "no \"header\" object: not a QNN_PROFILE JSON (expected "
                       "{\"header\": {\"artifact_type\": \"QNN_PROFILE\"}, ...})",
                       0);
    if (!saw_messages) throw InputError(out_.path, "no \"messages\" array", 0);
    return std::move(out_);
  }

 private:
  void NoteUnknownKey(std::string_view where, std::string_view key) {
    std::string note = fmt::format("{}: unknown key \"{}\" ignored", where, key);
    if (seen_unknown_.insert(note).second && out_.warnings.size() < 20)
      out_.warnings.push_back(std::move(note));
  }

  void ReadMetadata(JsonReader::value v) {
    auto metadata = reader_.Object(v, "metadata");
    reader_.Fields(metadata, "metadata", [&](std::string_view key, JsonReader::value mv) {
      simdjson::ondemand::json_type type;
      reader_.Check(mv.type().get(type), "metadata");
      if (type == simdjson::ondemand::json_type::string) {
        out_.metadata[std::string(key)] =
            std::string(reader_.String(mv, fmt::format("metadata.{}", key)));
      } else {
        NoteUnknownKey("metadata", key);  // only strings are documented
      }
    });
  }

  QnnProfileMessage ReadMessage(JsonReader::value v, size_t index) {
    std::string ctx = fmt::format("messages[{}]", index);
    QnnProfileMessage message;
    auto obj = reader_.Object(v, ctx);
    reader_.Fields(obj, ctx, [&](std::string_view key, JsonReader::value mv) {
      if (key == "method") {
        message.method = std::string(reader_.String(mv, ctx + ".method"));
      } else if (key == "profilingEvents") {
        std::string events_ctx = ctx + ".profilingEvents";
        auto events = reader_.Array(mv, events_ctx);
        reader_.Elements(events, events_ctx, [&](JsonReader::value ev, size_t i) {
          message.events.push_back(ReadEvent(ev, fmt::format("{}[{}]", events_ctx, i), 0));
        });
      } else {
        NoteUnknownKey("messages[]", key);
      }
    });
    return message;
  }

  QnnProfileEvent ReadEvent(JsonReader::value v, const std::string& ctx, int depth) {
    // Sub-events nest one level in every documented file; a deep nest is
    // malformed input, not a reason to exhaust the stack.
    if (depth > 64) reader_.Invalid(fmt::format("{}: sub-events nested too deeply", ctx));
    QnnProfileEvent event;
    event.byte_offset = reader_.Offset();
    auto obj = reader_.Object(v, ctx);
    reader_.Fields(obj, ctx, [&](std::string_view key, JsonReader::value ev) {
      std::string field = fmt::format("{}.{}", ctx, key);
      if (key == "identifier") {
        event.identifier = std::string(reader_.String(ev, field));
      } else if (key == "unit") {
        event.unit = std::string(reader_.String(ev, field));
      } else if (key == "type") {
        event.type = std::string(reader_.String(ev, field));
      } else if (key == "value") {
        ReadValue(ev, field, &event);
      } else if (key == "sub-events") {
        auto subs = reader_.Array(ev, field);
        reader_.Elements(subs, field, [&](JsonReader::value sv, size_t i) {
          event.sub_events.push_back(ReadEvent(sv, fmt::format("{}[{}]", field, i), depth + 1));
        });
      } else {
        NoteUnknownKey("profilingEvents[]", key);
      }
    });
    return event;
  }

  void ReadValue(JsonReader::value v, const std::string& field, QnnProfileEvent* event) {
    simdjson::ondemand::number number;
    reader_.Check(v.get_number().get(number), field + ": expected a number");
    event->has_value = true;
    if (number.is_int64()) {
      event->integer_value = number.get_int64();
      event->value = static_cast<double>(number.get_int64());
    } else if (number.is_uint64()) {
      event->value = static_cast<double>(number.get_uint64());  // beyond int64: no integer
    } else {
      double d = number.get_double();
      event->value = d;
      if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9223372036854775808.0)
        event->integer_value = static_cast<int64_t>(d);
    }
  }

  JsonReader reader_;
  QnnProfileJson out_;
  std::set<std::string> seen_unknown_;
};

QnnProfileJson ParseQnnProfileBuffer(const std::string& path,
                                     const simdjson::padded_string& buffer) {
  return QnnProfileParser(path, buffer).Run();
}

void CollectQnnCheckpoints(const std::vector<QnnProfileEvent>& events, const std::string& context,
                           const std::string& path, HeapCheckpoints* out) {
  for (const auto& event : events) {
    if (auto kind = KindOfName(event.identifier)) {
      if (!EqualsIgnoreCase(event.unit, "BYTES"))
        throw InputError(
            path,
            fmt::format("\"{}\" has unit \"{}\": expected \"BYTES\"", event.identifier, event.unit),
            event.byte_offset);
      if (!event.has_value)
        throw InputError(path, fmt::format("\"{}\" has no \"value\"", event.identifier),
                         event.byte_offset);
      if (event.value < 0)
        throw InputError(path,
                         fmt::format("\"{}\" has a negative value ({:g}): a heap size is a "
                                     "non-negative number of bytes",
                                     event.identifier, event.value),
                         event.byte_offset);
      if (!event.integer_value)
        throw InputError(path,
                         fmt::format("\"{}\" value {:g} is not a whole number of bytes",
                                     event.identifier, event.value),
                         event.byte_offset);
      HeapCheckpoint c;
      c.kind = *kind;
      c.identifier = event.identifier;
      c.value_bytes = *event.integer_value;
      c.byte_offset = event.byte_offset;
      c.context = context;
      out->checkpoints.push_back(std::move(c));
    }
    CollectQnnCheckpoints(event.sub_events, context, path, out);
  }
}

}  // namespace

// ---------------------------------------------------------------------------

const char* HeapSourceFormatName(HeapSourceFormat format) {
  switch (format) {
    case HeapSourceFormat::kExecuTorchHeapFile:
      return "ExecuTorch heap file";
    case HeapSourceFormat::kProfileText:
      return "profile-viewer text";
    case HeapSourceFormat::kProfileCsv:
      return "profile CSV";
    case HeapSourceFormat::kQnnProfileJson:
      return "QNN_PROFILE JSON";
  }
  return "unknown";
}

QnnProfileJson ReadQnnProfileJson(const std::string& path) {
  LoadedFile file = ReadWholeFile(path);
  return ParseQnnProfileBuffer(path, file.bytes);
}

QnnProfileJson ParseQnnProfileJson(const std::string& path, std::string_view json) {
  return ParseQnnProfileBuffer(path, PaddedJsonText(json));
}

HeapCheckpoints ParseExecuTorchHeapFile(const std::string& path, std::string_view text) {
  HeapCheckpoints out;
  out.path = path;
  out.format = HeapSourceFormat::kExecuTorchHeapFile;
  if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) text.remove_prefix(kUtf8Bom.size());
  if (Trim(text).empty())
    throw InputError(path,
                     "empty file: expected ExecuTorch's heap file, one \"<identifier>, <value>\" "
                     "line per checkpoint (e.g. \"DSP:before_context_created (bytes), 928212\")");
  ForEachLine(text, [&](std::string_view raw, uint64_t line) {
    std::string_view trimmed = Trim(raw);
    if (trimmed.empty()) return;
    auto fail = [&](std::string problem) { throw InputError(path, std::move(problem), {}, line); };
    size_t comma = trimmed.rfind(',');
    if (comma == std::string_view::npos)
      fail(fmt::format(
          "{}: expected \"<identifier>, <value>\" (e.g. \"DSP:before_context_created (bytes), "
          "928212\")",
          Quote(trimmed)));
    std::string_view identifier = Trim(trimmed.substr(0, comma));
    std::string_view value_text = Trim(trimmed.substr(comma + 1));
    // ExecuTorch appends the event's unit: " (bytes)", " (us)", " (count)",
    // or nothing for cycles and backend-specific units.
    std::string_view base = identifier;
    std::optional<std::string_view> unit;
    size_t open = identifier.rfind(" (");
    if (open != std::string_view::npos && identifier.back() == ')') {
      base = Trim(identifier.substr(0, open));
      unit = identifier.substr(open + 2, identifier.size() - open - 3);
    }
    std::optional<HeapCheckpointKind> kind = KindOfName(base);
    if (!kind)
      fail(
          fmt::format("unknown identifier {}: expected \"DSP:before_context_created (bytes)\" or "
                      "\"DSP:after_context_freed (bytes)\"",
                      Quote(identifier)));
    if (unit && !EqualsIgnoreCase(*unit, "bytes"))
      fail(fmt::format("{} is in \"{}\": a DSP heap checkpoint is in bytes", Quote(identifier),
                       *unit));
    if (!unit)
      out.warnings.push_back(fmt::format(
          "line {}: {} has no unit suffix (ExecuTorch writes \" (bytes)\" for byte-valued events, "
          "nothing for cycles); the value is taken as bytes",
          line, Quote(identifier)));
    std::string problem;
    std::optional<int64_t> value = ParseWholeBytes(value_text, &problem);
    if (!value) fail(fmt::format("{}: {}", Quote(identifier), problem));
    HeapCheckpoint c;
    c.kind = *kind;
    c.identifier = std::string(identifier);
    c.value_bytes = *value;
    c.line = line;
    out.checkpoints.push_back(std::move(c));
  });
  return out;
}

HeapCheckpoints HeapCheckpointsFromProfile(const ProfileReport& report, std::string_view text) {
  HeapCheckpoints out;
  out.path = report.path;
  out.format = report.format == ProfileFormat::kCsv ? HeapSourceFormat::kProfileCsv
                                                    : HeapSourceFormat::kProfileText;
  // The metrics, in file order as far as the report keeps it (text blocks by
  // their first line; CSV blocks have none, so statistics before executions).
  struct Found {
    const ProfileMetric* metric;
    const ProfileBlock* block;
  };
  std::vector<const ProfileBlock*> blocks;
  for (const auto& b : report.statistics) blocks.push_back(&b);
  for (const auto& b : report.raw) blocks.push_back(&b);
  std::stable_sort(blocks.begin(), blocks.end(), [](const ProfileBlock* a, const ProfileBlock* b) {
    return a->first_line < b->first_line;
  });
  std::vector<Found> found[2];
  for (const ProfileBlock* b : blocks)
    for (const auto& m : b->metrics)
      if (auto kind = KindOfName(m.name)) found[static_cast<int>(*kind)].push_back({&m, b});

  // The lines naming each checkpoint give the messages their place.
  std::vector<uint64_t> lines[2];
  if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) text.remove_prefix(kUtf8Bom.size());
  ForEachLine(text, [&](std::string_view line, uint64_t number) {
    if (LineNames(line, kBefore)) lines[0].push_back(number);
    if (LineNames(line, kAfter)) lines[1].push_back(number);
  });

  for (int k = 0; k < 2; ++k) {
    auto kind = static_cast<HeapCheckpointKind>(k);
    if (found[k].size() != lines[k].size()) {
      std::vector<std::string> where;
      for (uint64_t l : lines[k]) where.push_back(std::to_string(l));
      throw InputError(
          report.path,
          fmt::format("{} is named on line(s) {} but the profile reader took {} value(s) from "
                      "them: expected \"{} : <bytes>  bytes\" or \"Backend ({}): <bytes>  bytes\"",
                      HeapCheckpointName(kind), fmt::join(where, ", "), found[k].size(),
                      HeapCheckpointName(kind), HeapCheckpointName(kind)),
          {}, lines[k].empty() ? std::optional<uint64_t>{} : lines[k].front());
    }
    for (size_t i = 0; i < found[k].size(); ++i) {
      const ProfileMetric& m = *found[k][i].metric;
      uint64_t line = lines[k][i];
      if (!m.has_value || m.unit != "bytes")
        throw InputError(report.path,
                         fmt::format("{} is in \"{}\": expected a value in bytes", m.name,
                                     m.has_value ? m.unit : "no value"),
                         {}, line);
      std::optional<int64_t> value = WholeBytes(m.value);
      if (!value)
        throw InputError(report.path,
                         fmt::format("{} value {:g} is not a whole, non-negative number of bytes",
                                     m.name, m.value),
                         {}, line);
      HeapCheckpoint c;
      c.kind = kind;
      c.identifier = m.name;
      c.value_bytes = *value;
      c.line = line;
      const ProfileBlock& b = *found[k][i].block;
      c.context = b.graph.empty() ? b.title : b.title + " / " + b.graph;
      out.checkpoints.push_back(std::move(c));
    }
  }
  std::stable_sort(
      out.checkpoints.begin(), out.checkpoints.end(),
      [](const HeapCheckpoint& a, const HeapCheckpoint& b) { return *a.line < *b.line; });
  return out;
}

HeapCheckpoints HeapCheckpointsFromQnnProfile(const QnnProfileJson& profile) {
  HeapCheckpoints out;
  out.path = profile.path;
  out.format = HeapSourceFormat::kQnnProfileJson;
  for (size_t i = 0; i < profile.messages.size(); ++i) {
    const QnnProfileMessage& m = profile.messages[i];
    CollectQnnCheckpoints(m.events, fmt::format("messages[{}] {}", i, m.method), profile.path,
                          &out);
  }
  out.warnings = profile.warnings;
  return out;
}

namespace {

// The checkpoints of `file`, whichever of the four formats it is in.
HeapCheckpoints HeapCheckpointsOfFile(const std::string& path, const LoadedFile& file) {
  std::string_view text(file.bytes.data(), file.bytes.size());
  std::string artifact_type;
  std::optional<HeapSourceFormat> format = DetectHeapSourceFormat(
      text.substr(0, std::min(text.size(), kArtifactSniffBytes)), &artifact_type);
  if (!format)
    throw InputError(path,
                     fmt::format("JSON of artifact type \"{}\" holds no DSP heap checkpoints: "
                                 "expected QNN_PROFILE JSON, profile-viewer text or CSV, or "
                                 "ExecuTorch's heap file",
                                 artifact_type));
  switch (*format) {
    case HeapSourceFormat::kProfileCsv:
      return HeapCheckpointsFromProfile(ParseProfileCsv(path, text), text);
    case HeapSourceFormat::kProfileText:
      return HeapCheckpointsFromProfile(ParseProfileText(path, text), text);
    case HeapSourceFormat::kExecuTorchHeapFile:
      return ParseExecuTorchHeapFile(path, text);
    case HeapSourceFormat::kQnnProfileJson:
      return HeapCheckpointsFromQnnProfile(ParseQnnProfileBuffer(path, file.bytes));
  }
  throw InternalError("a heap source format without its reader");
}

}  // namespace

std::optional<HeapSourceFormat> DetectHeapSourceFormat(std::string_view prefix,
                                                       std::string* artifact_type) {
  std::string type;
  switch (DetectArtifactKindFromPrefix(prefix, &type)) {
    case ArtifactKind::kProfileCsv:
      return HeapSourceFormat::kProfileCsv;
    case ArtifactKind::kProfileText:
      return HeapSourceFormat::kProfileText;
    case ArtifactKind::kUnknown:
      return HeapSourceFormat::kExecuTorchHeapFile;
    default:
      break;
  }
  // A JSON without a header is read as QNN_PROFILE so that the error says
  // what the header should be.
  if (type == "QNN_PROFILE" || type.empty()) return HeapSourceFormat::kQnnProfileJson;
  if (artifact_type) *artifact_type = std::move(type);
  return std::nullopt;
}

std::optional<HeapSourceFormat> DetectHeapSourceFormatOf(const std::string& path) {
  return DetectHeapSourceFormat(ReadPrefix(path, kArtifactSniffBytes));
}

HeapCheckpoints ReadHeapCheckpoints(const std::string& path) {
  LoadedFile file = ReadWholeFile(path);
  HeapCheckpoints out = HeapCheckpointsOfFile(path, file);
  out.warnings.insert(out.warnings.end(), file.warnings.begin(), file.warnings.end());
  TakeInputWarnings(path);  // reported here
  return out;
}

}  // namespace htpscope
