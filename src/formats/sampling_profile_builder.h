// Internal to the sampling-profile readers (sampling_profile*.cc): interning
// of frames, threads and stacks into a SamplingProfile.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/strings/string_view.h>
#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "formats/sampling_profile.h"

namespace htpscope::sampling_internal {

class ProfileBuilder {
 public:
  // Fills `out` (which must outlive the builder); out->frames, threads and
  // stacks must be empty.
  explicit ProfileBuilder(SamplingProfile* out) : out_(out) {}

  // The id of a frame or thread label, added on first sight.
  uint32_t Frame(std::string_view name) { return Intern(name, frame_ids_, out_->frames); }
  uint32_t Thread(std::string_view label) { return Intern(label, thread_ids_, out_->threads); }

  // The id (index into out->stacks) of `frames` (root first) on `thread`,
  // added with weight 0 on first sight.  Does not allocate for a known stack.
  uint32_t Stack(uint32_t thread, const std::vector<uint32_t>& frames) {
    key_.clear();
    key_.push_back(thread);
    key_.insert(key_.end(), frames.begin(), frames.end());
    auto it = stack_ids_.find(key_);
    if (it != stack_ids_.end()) return it->second;
    uint32_t id = static_cast<uint32_t>(out_->stacks.size());
    stack_ids_.emplace(key_, id);
    out_->stacks.push_back({frames, thread, 0});
    return id;
  }

  void Add(uint32_t thread, const std::vector<uint32_t>& frames, double weight) {
    out_->stacks[Stack(thread, frames)].weight += weight;
  }

 private:
  static uint32_t Intern(std::string_view name, absl::flat_hash_map<std::string, uint32_t>& ids,
                         std::vector<std::string>& names) {
    // absl's heterogeneous lookup takes absl::string_view, which need not be
    // std::string_view in Debian's build.
    auto it = ids.find(absl::string_view(name.data(), name.size()));
    if (it != ids.end()) return it->second;
    uint32_t id = static_cast<uint32_t>(names.size());
    names.emplace_back(name);
    ids.emplace(std::string(name), id);
    return id;
  }

  SamplingProfile* out_;
  absl::flat_hash_map<std::string, uint32_t> frame_ids_, thread_ids_;
  absl::flat_hash_map<std::vector<uint32_t>, uint32_t> stack_ids_;
  std::vector<uint32_t> key_;  // thread, then frames: the stack map's key
};

// Reads a speedscope JSON document (sampling_profile_speedscope.cc).
void ParseSpeedscope(const std::string& path, simdjson::padded_string_view json,
                     SamplingProfile* out);

// py-spy's root frames that name a process ("process 12:\"cmd\"") or a
// thread ("thread (0x7F...)") rather than code.
bool IsPySpyThreadFrame(std::string_view frame);

// Throws InputError when `profile` has no sample with a positive weight, or
// when its weights add up to more than a double holds.
void RequireSamples(const SamplingProfile& profile, uint64_t line_or_offset, bool is_line);

}  // namespace htpscope::sampling_internal
