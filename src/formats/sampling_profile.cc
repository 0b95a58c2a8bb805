#include "formats/sampling_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "base/errors.h"
#include "base/text_util.h"
#include "formats/byte_source.h"
#include "formats/sampling_profile_builder.h"

namespace htpscope {
namespace {

using sampling_internal::IsPySpyThreadFrame;
using sampling_internal::ProfileBuilder;

constexpr size_t kSniffBytes = 64 * 1024;
constexpr size_t kChunkBytes = 1 << 20;
constexpr size_t kMaxLineBytes = 64 << 20;
constexpr size_t kMaxQuotedChars = 60;
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
constexpr double kSecondsPerMicrosecond = 1e-6;

std::string Quote(std::string_view text) {
  if (text.size() <= kMaxQuotedChars) return fmt::format("\"{}\"", text);
  return fmt::format("\"{}...\"", text.substr(0, kMaxQuotedChars));
}

bool IsDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool IsHexDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

// An optionally signed decimal integer (austin's memory deltas).
bool IsSignedInteger(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  return IsDigits(s);
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Splits off the last blank-separated word: returns it and leaves the text
// before it (right-trimmed) in *rest; nullopt when there is no blank.
std::optional<std::string_view> LastWord(std::string_view text, std::string_view* rest) {
  size_t blank = text.find_last_of(" \t");
  if (blank == std::string_view::npos) return std::nullopt;
  *rest = Trim(text.substr(0, blank));
  return text.substr(blank + 1);
}

std::optional<uint64_t> ParseUnsigned(std::string_view s) {
  uint64_t v = 0;
  if (!IsDigits(s)) return std::nullopt;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// A sample count as flamegraph.pl accepts it: digits with an optional
// decimal part.
std::optional<double> ParseCount(std::string_view s) {
  size_t dot = s.find('.');
  if (!IsDigits(s.substr(0, dot))) return std::nullopt;
  if (dot != std::string_view::npos && dot + 1 < s.size() && !IsDigits(s.substr(dot + 1)))
    return std::nullopt;
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Calls fn(line, 1-based number) for every line of the chunks fed to it,
// without the line break ("\n" or "\r\n").  A line split across chunks is
// joined first.
class LineSplitter {
 public:
  explicit LineSplitter(const std::string& path) : path_(path) {}

  template <typename Fn>
  void Feed(std::string_view chunk, Fn&& fn) {
    size_t pos = 0;
    while (pos < chunk.size()) {
      size_t eol = chunk.find('\n', pos);
      if (eol == std::string_view::npos) {
        carry_.append(chunk.substr(pos));
        if (carry_.size() > kMaxLineBytes)
          throw InputError(path_, fmt::format("line longer than {} MiB", kMaxLineBytes >> 20), {},
                           number_ + 1);
        return;
      }
      if (carry_.empty()) {
        Emit(chunk.substr(pos, eol - pos), fn);
      } else {
        carry_.append(chunk.substr(pos, eol - pos));
        Emit(carry_, fn);
        carry_.clear();
      }
      pos = eol + 1;
    }
  }

  // Emits the last line when the data does not end with a line break;
  // returns the number of lines.
  template <typename Fn>
  uint64_t Finish(Fn&& fn) {
    if (!carry_.empty()) Emit(carry_, fn);
    carry_.clear();
    return number_;
  }

 private:
  template <typename Fn>
  void Emit(std::string_view line, Fn&& fn) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    fn(line, ++number_);
  }

  const std::string& path_;
  std::string carry_;
  uint64_t number_ = 0;
};

// austin's process/thread prefix: "P<pid>;T<tid>" (austin 2 and 3),
// "Thread <hex>" or "Process <pid>;Thread <hex>" (austin 1).  Returns how
// many ';'-separated tokens it takes, 0 when `line` does not start with one.
size_t AustinHeadTokens(std::string_view line) {
  auto token = [&](size_t index) -> std::string_view {
    size_t begin = 0;
    for (size_t i = 0; i < index; ++i) {
      begin = line.find(';', begin);
      if (begin == std::string_view::npos) return {};
      ++begin;
    }
    std::string_view rest = line.substr(begin);
    return rest.substr(0, rest.find(';'));
  };
  auto is_thread = [](std::string_view t) {
    // Thread ids are hex; the last token may still carry the metric.
    if (!StartsWith(t, "Thread ")) return false;
    std::string_view id = t.substr(7);
    return IsHexDigits(id.substr(0, id.find_first_of(" \t")));
  };
  std::string_view first = token(0);
  if (first.size() > 1 && first[0] == 'P' && IsDigits(first.substr(1)) && StartsWith(token(1), "T"))
    return 2;
  if (is_thread(first)) return 1;
  if (StartsWith(first, "Process ") && IsDigits(first.substr(8)) && is_thread(token(1))) return 2;
  return 0;
}

// `frame` without the line number of "function (file:line)"; the result
// views `frame` or *scratch, so that known frames cost no allocation.
std::string_view WithoutLine(std::string_view frame, std::string* scratch) {
  if (frame.empty() || frame.back() != ')') return frame;
  size_t open = frame.rfind(" (");
  size_t colon = frame.rfind(':');
  if (open == std::string_view::npos || colon == std::string_view::npos || colon < open ||
      !IsDigits(frame.substr(colon + 1, frame.size() - 1 - (colon + 1))))
    return frame;
  scratch->assign(frame.substr(0, colon));
  *scratch += ')';
  return *scratch;
}

// An austin frame as "function (file)": austin 3 writes "file:function:line"
// (or "file:function" followed by an "L<line>" token), austin 1 and 2
// "function (file)" or "function (file:line)".  ":GC:" and ":INVALID:" stay.
std::string_view AustinFrameName(std::string_view token, std::string* scratch) {
  if (token.size() >= 2 && token.front() == ':' && token.back() == ':') return token;
  if (!token.empty() && token.back() == ')' && token.find(" (") != std::string_view::npos)
    return WithoutLine(token, scratch);
  std::string_view rest = token;
  size_t colon = rest.rfind(':');
  if (colon != std::string_view::npos && IsDigits(rest.substr(colon + 1)))
    rest = rest.substr(0, colon);
  colon = rest.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == rest.size()) return token;
  scratch->assign(rest.substr(colon + 1));
  *scratch += " (";
  *scratch += rest.substr(0, colon);
  *scratch += ')';
  return *scratch;
}

bool IsAustinLineToken(std::string_view token) {
  return token.size() > 1 && token[0] == 'L' && IsDigits(token.substr(1));
}

// Collapsed stacks and austin output, one line at a time.
class TextParser {
 public:
  TextParser(const std::string& path, SamplingProfile* out)
      : path_(path), out_(out), builder_(out) {}

  void Line(std::string_view raw, uint64_t number) {
    if (number == 1 && StartsWith(raw, kUtf8Bom)) raw.remove_prefix(kUtf8Bom.size());
    std::string_view line = Trim(raw);
    if (line.empty()) return;
    if (line[0] == '#') return Meta(line, number);
    if (kind_ == Kind::kUndecided) {
      kind_ = austin_meta_ || AustinHeadTokens(line) > 0 ? Kind::kAustin : Kind::kCollapsed;
      if (kind_ == Kind::kAustin && out_->austin_mode == "memory")
        Fail(mode_line_,
             "austin memory mode: the metrics are bytes, not time; profile in wall (default), "
             "cpu (-s) or full (-f) mode");
    }
    if (kind_ == Kind::kAustin) {
      ++out_->samples_read;
      AustinSample(line, number);
    } else {
      CollapsedSample(line, number);
    }
  }

  void Finish(uint64_t lines) {
    uint64_t where = std::max<uint64_t>(lines, 1);
    if (kind_ == Kind::kUndecided) {
      if (austin_meta_) Fail(where, "austin output without any sample line");
      Fail(where,
           "no samples: expected speedscope JSON, collapsed stacks (\"frame;frame COUNT\") or "
           "austin output");
    }
    if (kind_ == Kind::kAustin) {
      out_->format = SamplingProfileFormat::kAustin;
      out_->weight_unit = SampleWeightUnit::kSeconds;
      // Summed in whole µs (exact), converted once.
      for (auto& s : out_->stacks) s.weight *= kSecondsPerMicrosecond;
      if (metric_ == Metric::kSpaceFull || metric_ == Metric::kCommaFull)
        out_->notes.push_back("austin full mode: the time metric (wall-clock µs) is read");
      if (out_->austin_version.empty())
        out_->notes.push_back(
            "no \"# austin:\" header (austin 1 or 2, or stripped): metrics taken as µs of time");
    } else {
      out_->format = SamplingProfileFormat::kCollapsed;
      out_->weight_unit = SampleWeightUnit::kSamples;
    }
    sampling_internal::RequireSamples(*out_, where, true);
  }

 private:
  enum class Kind { kUndecided, kCollapsed, kAustin };
  enum class Metric { kUndecided, kTime, kCommaFull, kSpaceFull };

  [[noreturn]] void Fail(uint64_t line, std::string problem) {
    throw InputError(path_, std::move(problem), {}, line);
  }

  // "# key: value": austin's metadata; any other '#' line is a comment.
  void Meta(std::string_view line, uint64_t number) {
    if (kind_ == Kind::kCollapsed) return;
    std::string_view body = Trim(line.substr(1));
    size_t colon = body.find(':');
    if (colon == std::string_view::npos) return;
    std::string_view key = Trim(body.substr(0, colon));
    std::string_view value = Trim(body.substr(colon + 1));
    auto whole_us = [&](std::optional<int64_t>* field) {
      auto v = ParseUnsigned(value);
      if (!v || *v > static_cast<uint64_t>(INT64_MAX))
        Fail(number,
             fmt::format("austin \"# {}:\" is {}, not a whole number of µs", key, Quote(value)));
      *field = static_cast<int64_t>(*v);
    };
    if (key == "austin") {
      austin_meta_ = true;
      out_->austin_version = std::string(value);
    } else if (key == "interval") {
      austin_meta_ = true;
      whole_us(&out_->austin_interval_us);
    } else if (key == "mode") {
      austin_meta_ = true;
      if (value != "wall" && value != "cpu" && value != "full" && value != "memory")
        Fail(number, fmt::format("austin \"# mode:\" is {}: expected wall, cpu, full or memory",
                                 Quote(value)));
      if (value == "memory" && kind_ == Kind::kAustin)
        Fail(number, "austin memory mode: the metrics are bytes, not time");
      out_->austin_mode = std::string(value);
      mode_line_ = number;
    } else if (key == "duration" && kind_ == Kind::kAustin) {
      whole_us(&out_->austin_duration_us);
    } else if (key == "gc" && kind_ == Kind::kAustin) {
      whole_us(&out_->austin_gc_us);
    }
  }

  // Splits `stack` at ';' into frames_ (after `skip` head tokens), each named
  // by name(token, &scratch); tokens for which `drop` holds are left out.
  template <typename NameFn, typename DropFn>
  void SplitFrames(std::string_view stack, size_t skip, NameFn&& name, DropFn&& drop) {
    frames_.clear();
    size_t pos = 0, index = 0;
    while (pos <= stack.size()) {
      size_t semi = stack.find(';', pos);
      if (semi == std::string_view::npos) semi = stack.size();
      std::string_view token = stack.substr(pos, semi - pos);
      pos = semi + 1;
      if (index++ < skip || drop(token)) continue;
      frames_.push_back(builder_.Frame(name(token, &scratch_)));
    }
  }

  void CollapsedSample(std::string_view line, uint64_t number) {
    std::string_view stack;
    auto count_text = LastWord(line, &stack);
    if (!count_text)
      Fail(number, fmt::format("expected \"frame;frame;... COUNT\" (collapsed stacks), found {}",
                               Quote(line)));
    auto count = ParseCount(*count_text);
    if (!count)
      Fail(number, fmt::format("{} is not a sample count: expected \"frame;frame;... COUNT\"",
                               Quote(*count_text)));
    if (stack.empty()) Fail(number, "no stack before the sample count");
    std::string_view last_frame = stack.substr(stack.rfind(';') + 1);
    std::string_view unused;
    auto before = LastWord(last_frame, &unused);
    if (before && ParseCount(*before))
      Fail(number,
           "two counts at the end of the line (a differential folded file?): give the two "
           "profiles instead");
    // py-spy --subprocesses / --threads put process and thread frames first.
    size_t head = 0;
    label_.clear();
    for (size_t pos = 0; pos < stack.size();) {
      size_t semi = std::min(stack.find(';', pos), stack.size());
      std::string_view token = stack.substr(pos, semi - pos);
      if (!IsPySpyThreadFrame(token)) break;
      if (!label_.empty()) label_ += ';';
      label_ += token;
      ++head;
      pos = semi + 1;
    }
    SplitFrames(stack, head, WithoutLine, [](std::string_view) { return false; });
    builder_.Add(builder_.Thread(label_), frames_, *count);
    out_->samples_read += static_cast<uint64_t>(std::llround(*count));
  }

  void AustinSample(std::string_view line, uint64_t number) {
    auto fail_shape = [&](std::string_view what) {
      Fail(number,
           fmt::format("{}: expected an austin sample \"P<pid>;T<tid>;frame;... <µs>\"", what));
    };
    std::string_view rest;
    auto last = LastWord(line, &rest);
    if (!last) fail_shape("no metric at the end of the line");
    if (metric_ == Metric::kUndecided) metric_ = DecideMetric(*last, rest, number);
    std::string_view time_text = *last;
    if (metric_ == Metric::kCommaFull) {
      // "<µs>,<idle 0|1>,<memory delta bytes>"
      size_t c1 = last->find(','), c2 = c1 == std::string_view::npos ? c1 : last->find(',', c1 + 1);
      if (c2 == std::string_view::npos || !IsDigits(last->substr(c1 + 1, c2 - c1 - 1)) ||
          !IsSignedInteger(last->substr(c2 + 1)))
        fail_shape(
            fmt::format("full-mode metrics {} are not \"<µs>,<idle>,<bytes>\"", Quote(*last)));
      time_text = last->substr(0, c1);
    } else if (metric_ == Metric::kSpaceFull) {
      // "<µs> <+bytes> <-bytes>": the time is two words before the end.
      std::string_view mem_plus_rest;
      auto mem_plus = LastWord(rest, &mem_plus_rest);
      std::string_view time_rest;
      auto time = mem_plus ? LastWord(mem_plus_rest, &time_rest) : std::nullopt;
      if (!time || !IsSignedInteger(*last) || !IsSignedInteger(*mem_plus))
        fail_shape("full-mode metrics are not \"<µs> <+bytes> <-bytes>\"");
      time_text = *time;
      rest = time_rest;
    }
    auto micros = ParseUnsigned(time_text);
    if (!micros) fail_shape(fmt::format("{} is not a whole number of µs", Quote(time_text)));
    size_t head = AustinHeadTokens(rest);
    if (head == 0) fail_shape("no \"P<pid>;T<tid>\" or \"Thread <tid>\" at the start");
    size_t label_end = 0;
    for (size_t i = 0; i < head; ++i) {
      label_end = rest.find(';', label_end);
      if (label_end == std::string_view::npos) break;
      if (i + 1 < head) ++label_end;
    }
    std::string_view label = rest.substr(0, label_end);
    SplitFrames(rest, head, AustinFrameName,
                [](std::string_view t) { return t.empty() || IsAustinLineToken(t); });
    builder_.Add(builder_.Thread(label), frames_, static_cast<double>(*micros));
  }

  // Full mode shows in the metric: "a,b,c" (austin 3) or three trailing
  // integers (austin 1 and 2); the header, when present, must agree.
  Metric DecideMetric(std::string_view last, std::string_view rest, uint64_t number) {
    Metric m = Metric::kTime;
    if (last.find(',') != std::string_view::npos) {
      m = Metric::kCommaFull;
    } else {
      std::string_view r1, r2;
      auto w1 = LastWord(rest, &r1);
      auto w2 = w1 ? LastWord(r1, &r2) : std::nullopt;
      if (w1 && w2 && IsSignedInteger(*w1) && IsDigits(*w2)) m = Metric::kSpaceFull;
    }
    bool full = m != Metric::kTime;
    if (out_->austin_mode == "full" && !full)
      Fail(number, "\"# mode: full\" but the sample ends with a single metric");
    if ((out_->austin_mode == "wall" || out_->austin_mode == "cpu") && full)
      Fail(number, fmt::format("\"# mode: {}\" but the sample ends with full-mode metrics",
                               out_->austin_mode));
    return m;
  }

  const std::string& path_;
  SamplingProfile* out_;
  ProfileBuilder builder_;
  Kind kind_ = Kind::kUndecided;
  Metric metric_ = Metric::kUndecided;
  bool austin_meta_ = false;  // an austin header line was seen
  uint64_t mode_line_ = 1;
  std::vector<uint32_t> frames_;
  std::string label_, scratch_;
};

bool StartsLikeJson(std::string_view prefix) {
  if (StartsWith(prefix, kUtf8Bom)) prefix.remove_prefix(kUtf8Bom.size());
  size_t first = prefix.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && prefix[first] == '{';
}

SamplingProfile NewProfile(const std::string& path) {
  SamplingProfile out;
  out.path = path;
  return out;
}

}  // namespace

const char* SamplingProfileFormatName(SamplingProfileFormat format) {
  switch (format) {
    case SamplingProfileFormat::kSpeedscope:
      return "speedscope";
    case SamplingProfileFormat::kCollapsed:
      return "collapsed";
    case SamplingProfileFormat::kAustin:
      return "austin";
  }
  return "?";
}

std::string StripFrameLine(std::string_view frame) {
  std::string scratch;
  return std::string(WithoutLine(frame, &scratch));
}

std::optional<SamplingProfileFormat> DetectSamplingProfileFormat(std::string_view prefix) {
  if (StartsLikeJson(prefix)) return SamplingProfileFormat::kSpeedscope;
  if (StartsWith(prefix, kUtf8Bom)) prefix.remove_prefix(kUtf8Bom.size());
  for (size_t pos = 0; pos < prefix.size();) {
    size_t eol = std::min(prefix.find('\n', pos), prefix.size());
    std::string_view line = Trim(prefix.substr(pos, eol - pos));
    pos = eol + 1;
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (StartsWith(line, "# austin:")) return SamplingProfileFormat::kAustin;
      continue;
    }
    if (AustinHeadTokens(line) > 0) return SamplingProfileFormat::kAustin;
    std::string_view stack;
    auto count = LastWord(line, &stack);
    if (count && ParseCount(*count) && !stack.empty()) return SamplingProfileFormat::kCollapsed;
    return std::nullopt;
  }
  return std::nullopt;
}

namespace sampling_internal {

bool IsPySpyThreadFrame(std::string_view frame) {
  if (StartsWith(frame, "thread (")) return true;
  if (!StartsWith(frame, "process ")) return false;
  std::string_view rest = frame.substr(8);
  size_t colon = rest.find(':');
  return colon != std::string_view::npos && IsDigits(rest.substr(0, colon));
}

void RequireSamples(const SamplingProfile& profile, uint64_t line_or_offset, bool is_line) {
  double total = 0;
  for (const auto& s : profile.stacks) total += s.weight;
  std::string problem;
  if (!std::isfinite(total))
    problem = "the weights add up beyond the range of a double";
  else if (total > 0)
    return;
  else
    problem = "the profile has no sample with a positive weight";
  if (is_line) throw InputError(profile.path, problem, {}, line_or_offset);
  throw InputError(profile.path, problem, line_or_offset);
}

}  // namespace sampling_internal

SamplingProfile ParseSamplingProfile(const std::string& path, std::string_view content) {
  SamplingProfile out = NewProfile(path);
  if (StartsLikeJson(content)) {
    simdjson::padded_string json(content);
    sampling_internal::ParseSpeedscope(path, json, &out);
    return out;
  }
  TextParser parser(path, &out);
  LineSplitter lines(path);
  auto on_line = [&](std::string_view line, uint64_t n) { parser.Line(line, n); };
  lines.Feed(content, on_line);
  parser.Finish(lines.Finish(on_line));
  return out;
}

std::optional<SamplingProfileFormat> DetectSamplingProfileFormatOf(const std::string& path) {
  return DetectSamplingProfileFormat(ReadPrefix(path, kSniffBytes));
}

SamplingProfile ReadSamplingProfile(const std::string& path) {
  SamplingProfile out = NewProfile(path);
  if (DetectSamplingProfileFormatOf(path) == SamplingProfileFormat::kSpeedscope) {
    LoadedFile file = ReadWholeFile(path);
    sampling_internal::ParseSpeedscope(path, file.bytes, &out);
    return out;
  }
  auto source = OpenByteSource(path);
  TextParser parser(path, &out);
  LineSplitter lines(path);
  auto on_line = [&](std::string_view line, uint64_t n) { parser.Line(line, n); };
  std::string buffer(kChunkBytes, '\0');
  while (size_t n = source->Read(buffer.data(), buffer.size()))
    lines.Feed(std::string_view(buffer.data(), n), on_line);
  parser.Finish(lines.Finish(on_line));
  return out;
}

}  // namespace htpscope
