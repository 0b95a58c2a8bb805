#include "formats/llm_runner_stats.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "base/errors.h"
#include "formats/byte_source.h"
#include "formats/json_util.h"

namespace htpscope {
namespace {

constexpr size_t kObserverReadChunkBytes = 64 << 10;

// Splits a stream of bytes into lines and keeps of each only what a stats
// line needs: for a line holding kPyTorchObserverMarker, the text from the
// marker's '{' to the end of the line; of any other line, only its last
// bytes (where a marker cut between two pieces may start).  Memory stays
// below kLlmRunnerMaxObjectBytes whatever the lines' lengths.
class ObserverLineScanner {
 public:
  // Calls on_object(line, column, text, too_long) for every line holding the
  // marker, when the line ends: `text` is the JSON object's text without the
  // line's trailing white space (CR included), `column` the 1-based column
  // of its '{', `too_long` true when the object passed the limit (then
  // `text` holds its first bytes only).
  template <typename Fn>
  void Feed(std::string_view bytes, Fn&& on_object) {
    while (!bytes.empty()) {
      const size_t newline = bytes.find('\n');
      Append(bytes.substr(0, newline));
      if (newline == std::string_view::npos) return;
      EndLine(on_object);
      bytes.remove_prefix(newline + 1);
    }
  }

  // Ends the last line when it has no newline.
  template <typename Fn>
  void Finish(Fn&& on_object) {
    if (in_object_) on_object(line_, object_column_, Trimmed(), too_long_);
    if (column_ > 0) ++lines_;
  }

  uint64_t lines() const { return lines_; }  // complete lines so far (all of them after Finish)

 private:
  void Append(std::string_view piece) {
    if (piece.empty()) return;
    if (in_object_) {
      AppendObject(piece);
    } else {
      constexpr size_t keep = kPyTorchObserverMarker.size() - 1;
      // A marker that starts in the kept tail and ends in this piece.
      std::string probe = tail_;
      probe.append(piece.substr(0, std::min(piece.size(), keep)));
      std::optional<int64_t> start;  // of the marker, relative to `piece`
      if (size_t at = probe.find(kPyTorchObserverMarker); at != std::string::npos)
        start = static_cast<int64_t>(at) - static_cast<int64_t>(tail_.size());
      else if (size_t in = piece.find(kPyTorchObserverMarker); in != std::string_view::npos)
        start = static_cast<int64_t>(in);
      if (start) {
        const auto brace = static_cast<size_t>(*start + static_cast<int64_t>(keep));
        in_object_ = true;
        object_column_ = column_ + brace + 1;
        object_.clear();
        AppendObject(piece.substr(brace));
      } else if (piece.size() >= keep) {
        tail_.assign(piece.substr(piece.size() - keep));
      } else {
        tail_.append(piece);
        if (tail_.size() > keep) tail_.erase(0, tail_.size() - keep);
      }
    }
    column_ += piece.size();
  }

  void AppendObject(std::string_view piece) {
    if (too_long_) return;
    if (object_.size() + piece.size() > kLlmRunnerMaxObjectBytes) {
      too_long_ = true;
      object_.append(piece.substr(0, kLlmRunnerMaxObjectBytes - object_.size()));
      return;
    }
    object_.append(piece);
  }

  std::string_view Trimmed() const {
    std::string_view text = object_;
    while (!text.empty() && (text.back() == '\r' || text.back() == ' ' || text.back() == '\t'))
      text.remove_suffix(1);
    return text;
  }

  template <typename Fn>
  void EndLine(Fn&& on_object) {
    if (in_object_) on_object(line_, object_column_, Trimmed(), too_long_);
    in_object_ = too_long_ = false;
    tail_.clear();
    column_ = 0;
    ++line_;
    ++lines_;
  }

  uint64_t line_ = 1;    // 1-based number of the current line
  uint64_t lines_ = 0;   // complete lines
  uint64_t column_ = 0;  // bytes of the current line so far
  bool in_object_ = false, too_long_ = false;
  uint64_t object_column_ = 0;
  std::string object_;  // from the marker's '{'
  std::string tail_;    // the line's last bytes, fewer than the marker's, outside an object
};

// Where the JSON object that starts `text` (at its '{') closes, one past
// its '}', or npos when the text ends first: braces and brackets are
// counted outside strings.
size_t ObjectEnd(std::string_view text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

// False for a line of PyTorch's benchmark observer (speed_benchmark_torch:
// {"type", "metric", "unit", "value"}), whose lines share the marker.
bool IsRunnerObject(std::string_view text) {
  return text.find("\"metric\"") == std::string_view::npos ||
         text.find("\"prompt_tokens\"") != std::string_view::npos;
}

// The fields of the definition, in the order stats_to_json_string writes them.
enum class StatsField : uint8_t {
  kPromptTokens,
  kGeneratedTokens,
  kModelLoadStart,
  kModelLoadEnd,
  kInferenceStart,
  kInferenceEnd,
  kPromptEvalEnd,
  kFirstToken,
  kSamplingTime,
  kGpuTotal,
  kGpuFreeBeforeLoad,
  kGpuFreeAfterLoad,
  kGpuFreeAfterGenerate,
  kGpuPeakUsage,
  kScaling,
  kCount,
};

struct StatsFieldInfo {
  std::string_view key;
  const char* what;  // for "a <what> is never negative"
  std::optional<int64_t> LlmRunnerStatsLine::*int_member;
  bool time;  // a timestamp or time in 1/units_per_second s
};

constexpr StatsFieldInfo kStatsFields[] = {
    {"prompt_tokens", "token count", &LlmRunnerStatsLine::prompt_tokens, false},
    {"generated_tokens", "token count", &LlmRunnerStatsLine::generated_tokens, false},
    {"model_load_start_ms", "steady-clock time", &LlmRunnerStatsLine::model_load_start_ms, true},
    {"model_load_end_ms", "steady-clock time", &LlmRunnerStatsLine::model_load_end_ms, true},
    {"inference_start_ms", "steady-clock time", &LlmRunnerStatsLine::inference_start_ms, true},
    {"inference_end_ms", "steady-clock time", &LlmRunnerStatsLine::inference_end_ms, true},
    {"prompt_eval_end_ms", "steady-clock time", &LlmRunnerStatsLine::prompt_eval_end_ms, true},
    {"first_token_ms", "steady-clock time", &LlmRunnerStatsLine::first_token_ms, true},
    {"aggregate_sampling_time_ms", "time", &LlmRunnerStatsLine::aggregate_sampling_time_ms, true},
    {"gpu_total_bytes", "size", &LlmRunnerStatsLine::gpu_total_bytes, false},
    {"gpu_free_before_load_bytes", "size", &LlmRunnerStatsLine::gpu_free_before_load_bytes, false},
    {"gpu_free_after_load_bytes", "size", &LlmRunnerStatsLine::gpu_free_after_load_bytes, false},
    {"gpu_free_after_generate_bytes", "size", &LlmRunnerStatsLine::gpu_free_after_generate_bytes,
     false},
    {"gpu_peak_usage_mb", "size", nullptr, false},
    {"SCALING_FACTOR_UNITS_PER_SECOND", "scaling factor", &LlmRunnerStatsLine::units_per_second,
     false},
};
static_assert(std::size(kStatsFields) == static_cast<size_t>(StatsField::kCount));

// Reads the stats lines of one log as its bytes arrive.
class LlmStatsLogReader {
 public:
  explicit LlmStatsLogReader(std::string path) : path_(std::move(path)) {}

  void Feed(std::string_view bytes) {
    scanner_.Feed(bytes, [this](uint64_t line, uint64_t column, std::string_view text,
                                bool too_long) { ReadObject(line, column, text, too_long); });
  }

  LlmRunnerStats Finish() {
    scanner_.Finish([this](uint64_t line, uint64_t column, std::string_view text, bool too_long) {
      ReadObject(line, column, text, too_long);
    });
    out_.log_lines = scanner_.lines();
    if (out_.lines.empty())
      throw InputError(
          path_,
          out_.other_observer_lines > 0
              ? fmt::format("its {} PyTorchObserver line{} {} PyTorch's benchmark "
                            "observer's ({{\"type\", \"metric\", \"value\"}}), not an "
                            "ExecuTorch LLM runner's stats",
                            out_.other_observer_lines, out_.other_observer_lines == 1 ? "" : "s",
                            out_.other_observer_lines == 1 ? "is" : "are")
              : "no PyTorchObserver stats line: an ExecuTorch LLM runner prints "
                "\"PyTorchObserver {json}\" after each generation");
    return std::move(out_);
  }

 private:
  [[noreturn]] void Fail(uint64_t line, std::string problem) const {
    throw InputError(path_, std::move(problem), std::nullopt, line);
  }

  void ReadObject(uint64_t line, uint64_t column, std::string_view text, bool too_long) {
    if (too_long)
      Fail(line, fmt::format("the PyTorchObserver object is longer than {} KiB (a runner's "
                             "stats are one short line)",
                             kLlmRunnerMaxObjectBytes >> 10));
    const size_t end = ObjectEnd(text);
    if (end == std::string_view::npos)
      Fail(line, fmt::format("column {}: the PyTorchObserver object is not closed on its line "
                             "(a line cut short?)",
                             column + text.size()));
    if (end < text.size())
      Fail(line, fmt::format("column {}: text after the PyTorchObserver object: \"{}\"",
                             column + end, text.substr(end, 40)));
    LlmRunnerStatsLine row;
    row.line = line;
    bool seen[static_cast<size_t>(StatsField::kCount)] = {};
    bool saw_metric = false;
    std::vector<std::string> unknown;  // this line's keys not in the definition
    simdjson::padded_string json(text);
    try {
      JsonReader reader(path_, json, 0, &parser_);
      auto root = reader.Root();
      reader.Fields(
          root, "PyTorchObserver", [&](std::string_view key, simdjson::ondemand::value v) {
            size_t field = 0;
            while (field < std::size(kStatsFields) && kStatsFields[field].key != key) ++field;
            if (field == std::size(kStatsFields)) {
              if (key == "metric") saw_metric = true;
              unknown.emplace_back(key);
              return;
            }
            const StatsFieldInfo& info = kStatsFields[field];
            if (seen[field]) reader.Invalid(fmt::format("\"{}\" is given twice", key));
            seen[field] = true;
            if (!info.int_member) {  // gpu_peak_usage_mb: MiB as a fraction
              const double mb = reader.Number(v, key);
              if (mb < 0)
                reader.Invalid(fmt::format("{} is {}: a size is never negative", key, mb));
              row.gpu_peak_usage_mb = mb;
              return;
            }
            const int64_t n = reader.Int(v, key);
            if (static_cast<StatsField>(field) == StatsField::kScaling && n <= 0)
              reader.Invalid(fmt::format("{} is {}: the units per second are positive", key, n));
            if (n < 0)
              reader.Invalid(fmt::format("{} is {}: a {} is never negative", key, n, info.what));
            row.*info.int_member = n;
          });
      reader.ExpectEnd();
    } catch (const InputError& e) {
      const uint64_t at = column + e.byte_offset().value_or(0);
      Fail(line, fmt::format("column {}: PyTorchObserver object: {}", at, e.problem()));
    }
    const bool prompt = seen[static_cast<size_t>(StatsField::kPromptTokens)];
    const bool generated = seen[static_cast<size_t>(StatsField::kGeneratedTokens)];
    if (!prompt && !generated && saw_metric) {
      ++out_.other_observer_lines;
      return;
    }
    if (!prompt || !generated)
      Fail(line, fmt::format("the PyTorchObserver object has no \"{}\": an ExecuTorch LLM "
                             "runner's stats (stats_to_json_string) have prompt_tokens and "
                             "generated_tokens",
                             !prompt ? "prompt_tokens" : "generated_tokens"));
    for (const StatsFieldInfo& info : kStatsFields) {
      if (!info.time || !(row.*info.int_member)) continue;
      const int64_t units = *(row.*info.int_member);
      if (!LlmRunnerUnitsToUs(units, row.UnitsPerSecond()))
        Fail(line, fmt::format("{} is {}: in µs ({} units per second) it does not fit in 64 bits",
                               info.key, units, row.UnitsPerSecond()));
    }
    for (auto& key : unknown)
      if (std::find(out_.unknown_keys.begin(), out_.unknown_keys.end(), key) ==
          out_.unknown_keys.end())
        out_.unknown_keys.push_back(std::move(key));
    out_.lines.push_back(std::move(row));
  }

  std::string path_;
  ObserverLineScanner scanner_;
  simdjson::ondemand::parser parser_;
  LlmRunnerStats out_;
};

}  // namespace

std::optional<int64_t> LlmRunnerUnitsToUs(int64_t units, int64_t units_per_second) {
  if (units_per_second <= 0) return std::nullopt;
  if (1'000'000 % units_per_second == 0) {
    int64_t us = 0;
    if (__builtin_mul_overflow(units, 1'000'000 / units_per_second, &us)) return std::nullopt;
    return us;
  }
  const double us =
      std::round(static_cast<double>(units) * 1e6 / static_cast<double>(units_per_second));
  if (!(std::abs(us) < 9.2e18)) return std::nullopt;
  return static_cast<int64_t>(us);
}

bool LooksLikeLlmRunnerStats(std::string_view text) {
  ObserverLineScanner scanner;
  bool found = false;
  auto check = [&found](uint64_t, uint64_t, std::string_view object, bool) {
    found = found || IsRunnerObject(object);
  };
  scanner.Feed(text, check);
  scanner.Finish(check);
  return found;
}

bool LlmRunnerStatsWithin(const std::string& path, uint64_t max_bytes) {
  std::unique_ptr<ByteSource> source = OpenByteSource(path);
  source->set_counts_progress(false);  // the reader's full read counts the file
  ObserverLineScanner scanner;
  bool found = false;
  auto check = [&found](uint64_t, uint64_t, std::string_view object, bool) {
    found = found || IsRunnerObject(object);
  };
  std::string chunk(kObserverReadChunkBytes, '\0');
  uint64_t total = 0;
  try {
    while (!found && total < max_bytes) {
      const size_t n = source->Read(chunk.data(), chunk.size());
      if (n == 0) break;
      total += n;
      scanner.Feed(std::string_view(chunk.data(), n), check);
    }
  } catch (const InputError&) {
    // Damage past the first bytes: what was read decides; the reader's full
    // read reports the damage.
  }
  if (!found) scanner.Finish(check);
  return found;
}

LlmRunnerStats ParseLlmRunnerStats(const std::string& path, std::string_view text,
                                   size_t piece_bytes) {
  LlmStatsLogReader reader(path);
  if (piece_bytes == 0) piece_bytes = std::max<size_t>(text.size(), 1);
  for (size_t at = 0; at < text.size(); at += piece_bytes)
    reader.Feed(text.substr(at, piece_bytes));
  return reader.Finish();
}

LlmRunnerStats ReadLlmRunnerStats(const std::string& path) {
  std::unique_ptr<ByteSource> source = OpenByteSource(path);
  LlmStatsLogReader reader(path);
  std::string chunk(kObserverReadChunkBytes, '\0');
  while (const size_t n = source->Read(chunk.data(), chunk.size()))
    reader.Feed(std::string_view(chunk.data(), n));
  return reader.Finish();
}

}  // namespace htpscope
