// speedscope JSON (file-format-spec.ts of speedscope; py-spy's exporter).
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "base/errors.h"
#include "formats/json_util.h"
#include "formats/sampling_profile_builder.h"

namespace htpscope::sampling_internal {
namespace {

struct RawEvent {
  bool open = false;
  uint32_t frame = 0;
  double at = 0;
  uint64_t offset = 0;  // where the event object ends, for errors
};

// One element of "profiles", read whatever the order of its keys.
struct RawProfile {
  std::string type, name, unit;
  bool has_type = false, has_unit = false;
  std::vector<uint32_t> sample_stacks;  // raw stack id per sample
  std::vector<double> weights;
  std::vector<RawEvent> events;
};

// Weight of one unit in seconds, or in samples for "none".
struct UnitScale {
  SampleWeightUnit unit;
  double factor;
};

std::optional<UnitScale> ScaleOf(std::string_view unit) {
  if (unit == "seconds") return UnitScale{SampleWeightUnit::kSeconds, 1.0};
  if (unit == "milliseconds") return UnitScale{SampleWeightUnit::kSeconds, 1e-3};
  if (unit == "microseconds") return UnitScale{SampleWeightUnit::kSeconds, 1e-6};
  if (unit == "nanoseconds") return UnitScale{SampleWeightUnit::kSeconds, 1e-9};
  if (unit == "none") return UnitScale{SampleWeightUnit::kSamples, 1.0};
  return std::nullopt;
}

class SpeedscopeParser {
 public:
  // `json` starts at file offset `base_offset` (past a byte-order mark).
  SpeedscopeParser(const std::string& path, simdjson::padded_string_view json, uint64_t base_offset,
                   SamplingProfile* out)
      : path_(path), reader_(path, json, base_offset), out_(out), raw_builder_(&raw_) {}

  void Parse() {
    auto root = reader_.Root();
    bool have_profiles = false;
    uint64_t profiles_offset = 0;
    reader_.Fields(root, "", [&](std::string_view key, JsonReader::value v) {
      if (key == "$schema") {
        std::string_view schema = reader_.String(v, "$schema");
        if (schema.find("speedscope") == std::string_view::npos)
          reader_.Invalid(fmt::format("$schema is \"{}\": not a speedscope profile", schema));
      } else if (key == "exporter") {
        std::string_view exporter;
        if (v.get_string().get(exporter) == simdjson::SUCCESS) out_->exporter = exporter;
      } else if (key == "shared") {
        ReadShared(v);
      } else if (key == "profiles") {
        have_profiles = true;
        profiles_offset = reader_.Offset();
        auto profiles = reader_.Array(v, "profiles");
        reader_.Elements(profiles, "profiles",
                         [&](JsonReader::value p, size_t index) { ReadProfile(p, index); });
      }
    });
    reader_.ExpectEnd();
    if (!have_profiles)
      throw InputError(path_, "JSON without a \"profiles\" array: not a speedscope profile", 0);
    if (max_frame_index_ && *max_frame_index_ >= frame_names_.size())
      throw InputError(
          path_,
          fmt::format("frame index {} is out of range: shared.frames has {} frame{}",
                      *max_frame_index_, frame_names_.size(), frame_names_.size() == 1 ? "" : "s"),
          max_frame_index_offset_);
    Remap();
    out_->format = SamplingProfileFormat::kSpeedscope;
    out_->weight_unit = unit_.value_or(SampleWeightUnit::kSeconds);
    RequireSamples(*out_, profiles_offset, false);
  }

 private:
  void ReadShared(JsonReader::value v) {
    auto shared = reader_.Object(v, "shared");
    reader_.Fields(shared, "shared", [&](std::string_view key, JsonReader::value fv) {
      if (key != "frames") return;
      frame_names_.clear();
      auto frames = reader_.Array(fv, "shared.frames");
      reader_.Elements(frames, "shared.frames", [&](JsonReader::value f, size_t) {
        auto frame = reader_.Object(f, "shared.frames[]");
        std::string name, file;
        bool has_name = false;
        reader_.Fields(frame, "shared.frames[]", [&](std::string_view k, JsonReader::value x) {
          if (k == "name") {
            name = reader_.String(x, "shared.frames[].name");
            has_name = true;
          } else if (k == "file") {
            bool is_null = false;
            if (x.is_null().get(is_null) == simdjson::SUCCESS && is_null) return;
            file = reader_.String(x, "shared.frames[].file");
          }
        });
        if (!has_name) reader_.Invalid("shared.frames[]: a frame without a \"name\"");
        frame_names_.push_back(file.empty() ? StripFrameLine(name)
                                            : fmt::format("{} ({})", name, file));
      });
    });
  }

  uint32_t FrameIndex(JsonReader::value v, std::string_view ctx) {
    int64_t index = reader_.Int(v, ctx);
    if (index < 0 || index > std::numeric_limits<uint32_t>::max())
      reader_.Invalid(fmt::format("{}: frame index {} is out of range", ctx, index));
    if (!max_frame_index_ || static_cast<uint64_t>(index) > *max_frame_index_) {
      max_frame_index_ = static_cast<uint64_t>(index);
      max_frame_index_offset_ = reader_.Offset();
    }
    return static_cast<uint32_t>(index);
  }

  void ReadProfile(JsonReader::value v, size_t index) {
    reader_.set_scope(fmt::format("profiles[{}]", index));
    auto object = reader_.Object(v, "");
    RawProfile p;
    reader_.Fields(object, "", [&](std::string_view key, JsonReader::value x) {
      if (key == "type") {
        p.type = reader_.String(x, "type");
        p.has_type = true;
      } else if (key == "name") {
        p.name = reader_.String(x, "name");
      } else if (key == "unit") {
        p.unit = reader_.String(x, "unit");
        p.has_unit = true;
      } else if (key == "samples") {
        ReadSamples(x, p);
      } else if (key == "weights") {
        auto weights = reader_.Array(x, "weights");
        reader_.Elements(weights, "weights", [&](JsonReader::value w, size_t) {
          double weight = reader_.Number(w, "weights[]");
          if (!std::isfinite(weight) || weight < 0)
            reader_.Invalid(fmt::format("profiles[{}].weights: {} is not a non-negative weight",
                                        index, weight));
          p.weights.push_back(weight);
        });
      } else if (key == "events") {
        ReadEvents(x, p);
      }
    });
    std::string where = fmt::format("profiles[{}]", index);
    if (!p.has_type) reader_.Invalid(where + ": no \"type\" (sampled or evented)");
    if (!p.has_unit) reader_.Invalid(where + ": no \"unit\"");
    if (p.unit == "bytes") reader_.Invalid(where + ": unit \"bytes\" weighs memory, not time");
    auto scale = ScaleOf(p.unit);
    if (!scale)
      reader_.Invalid(fmt::format(
          "{}: unit \"{}\": expected seconds, milliseconds, microseconds, nanoseconds or none",
          where, p.unit));
    if (unit_ && *unit_ != scale->unit)
      reader_.Invalid(where + ": mixes a time unit and \"none\" (samples) with other profiles");
    unit_ = scale->unit;
    uint32_t thread = raw_builder_.Thread(p.name);
    if (p.type == "sampled") {
      if (p.sample_stacks.size() != p.weights.size())
        reader_.Invalid(fmt::format("{}: {} samples but {} weights", where, p.sample_stacks.size(),
                                    p.weights.size()));
      for (size_t i = 0; i < p.sample_stacks.size(); ++i) {
        auto& stack = raw_.stacks[p.sample_stacks[i]];
        stack.thread = thread;
        stack.weight += p.weights[i] * scale->factor;
      }
      out_->samples_read += p.sample_stacks.size();
    } else if (p.type == "evented") {
      ReplayEvents(p, thread, scale->factor, where);
    } else {
      reader_.Invalid(fmt::format("{}: type \"{}\": expected sampled or evented", where, p.type));
    }
    reader_.set_scope("");
  }

  // Sampled stacks are interned on a placeholder thread; the profile's own
  // thread is set once its name is known (every stack of one profile is new
  // to it: the placeholder is the profile's index).
  void ReadSamples(JsonReader::value v, RawProfile& p) {
    uint32_t placeholder = raw_builder_.Thread(fmt::format("\x01{}", ++profile_serial_));
    auto samples = reader_.Array(v, "samples");
    reader_.Elements(samples, "samples", [&](JsonReader::value s, size_t) {
      auto stack = reader_.Array(s, "samples[]");
      scratch_.clear();
      reader_.Elements(stack, "samples[]", [&](JsonReader::value f, size_t) {
        scratch_.push_back(FrameIndex(f, "samples[][]"));
      });
      p.sample_stacks.push_back(raw_builder_.Stack(placeholder, scratch_));
    });
  }

  void ReadEvents(JsonReader::value v, RawProfile& p) {
    auto events = reader_.Array(v, "events");
    reader_.Elements(events, "events", [&](JsonReader::value e, size_t) {
      auto event = reader_.Object(e, "events[]");
      RawEvent raw;
      bool has_type = false, has_at = false, has_frame = false;
      reader_.Fields(event, "events[]", [&](std::string_view key, JsonReader::value x) {
        if (key == "type") {
          std::string_view type = reader_.String(x, "events[].type");
          if (type != "O" && type != "C")
            reader_.Invalid(fmt::format("events[].type \"{}\": expected \"O\" or \"C\"", type));
          raw.open = type == "O";
          has_type = true;
        } else if (key == "at") {
          raw.at = reader_.Number(x, "events[].at");
          has_at = true;
        } else if (key == "frame") {
          raw.frame = FrameIndex(x, "events[].frame");
          has_frame = true;
        }
      });
      raw.offset = reader_.Offset();
      if (!has_type || !has_at || !has_frame)
        reader_.Invalid("events[]: an event needs \"type\", \"at\" and \"frame\"");
      if (!std::isfinite(raw.at)) reader_.Invalid("events[].at is not a finite number");
      p.events.push_back(raw);
    });
  }

  // The open stack between two events weighs the time between them.
  void ReplayEvents(const RawProfile& p, uint32_t thread, double factor, const std::string& where) {
    std::vector<uint32_t> open;
    double last_at = 0;
    for (size_t i = 0; i < p.events.size(); ++i) {
      const RawEvent& e = p.events[i];
      if (i > 0 && e.at < last_at)
        throw InputError(path_,
                         fmt::format("{}.events[{}]: at {} is before the previous event's {}",
                                     where, i, e.at, last_at),
                         e.offset);
      if (!open.empty() && e.at > last_at) {
        raw_.stacks[raw_builder_.Stack(thread, open)].weight += (e.at - last_at) * factor;
        ++out_->samples_read;
      }
      last_at = e.at;
      if (e.open) {
        open.push_back(e.frame);
      } else if (open.empty() || open.back() != e.frame) {
        throw InputError(
            path_,
            open.empty()
                ? fmt::format("{}.events[{}] closes frame {} but no frame is open", where, i,
                              e.frame)
                : fmt::format("{}.events[{}] closes frame {} but frame {} is the innermost open",
                              where, i, e.frame, open.back()),
            e.offset);
      } else {
        open.pop_back();
      }
    }
    if (!open.empty())
      throw InputError(path_,
                       fmt::format("{}: {} frame{} still open after the last event", where,
                                   open.size(), open.size() == 1 ? " is" : "s are"),
                       p.events.back().offset);
  }

  // From speedscope frame indices to named frames; py-spy's process and
  // thread frames at the root join the thread label.
  void Remap() {
    ProfileBuilder builder(out_);
    std::vector<int64_t> frame_ids(frame_names_.size(), -1);
    std::vector<uint32_t> frames;
    std::string label;
    for (const auto& stack : raw_.stacks) {
      if (stack.weight <= 0) continue;
      label = raw_.threads[stack.thread];
      frames.clear();
      for (uint32_t index : stack.frames) {
        const std::string& name = frame_names_[index];
        if (frames.empty() && IsPySpyThreadFrame(name)) {
          if (!label.empty()) label += ';';
          label += name;
          continue;
        }
        if (frame_ids[index] < 0) frame_ids[index] = builder.Frame(name);
        frames.push_back(static_cast<uint32_t>(frame_ids[index]));
      }
      builder.Add(builder.Thread(label), frames, stack.weight);
    }
  }

  const std::string& path_;
  JsonReader reader_;
  SamplingProfile* out_;
  SamplingProfile raw_;  // stacks of speedscope frame indices
  ProfileBuilder raw_builder_;
  std::vector<std::string> frame_names_;
  std::optional<uint64_t> max_frame_index_;
  uint64_t max_frame_index_offset_ = 0;
  std::optional<SampleWeightUnit> unit_;
  std::vector<uint32_t> scratch_;
  uint32_t profile_serial_ = 0;
};

}  // namespace

void ParseSpeedscope(const std::string& path, simdjson::padded_string_view json,
                     SamplingProfile* out) {
  // simdjson does not skip a UTF-8 byte-order mark; offsets stay file offsets.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  size_t skip = std::string_view(json.data(), json.size()).substr(0, 3) == kBom ? 3 : 0;
  simdjson::padded_string_view body(json.data() + skip, json.size() - skip, json.capacity() - skip);
  SpeedscopeParser(path, body, skip, out).Parse();
}

}  // namespace htpscope::sampling_internal
