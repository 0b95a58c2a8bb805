// Every kind of side input, declared once: a file a command reads beside a
// run (or instead of one) whose data is not one of the run's tables: DSP
// heap checkpoints (`heap`), tensor sets (`numerics`), sampling profiles
// (`aot`).  For each kind: its stable name, what it gives and the model
// struct it fills, the forms it is read from and how each is recognised (by
// the formats layer's recognition), the commands that read it, the value an
// error may ask for beside it, and its loader.  Commands load side inputs
// through LoadSideInput; docs/architecture.md lists the registry ("Adding a
// side input"; its test holds the list equal).
//
// Errors name the file, as every InputError does; a side input that needs
// another value (an ETDump's debug buffer) throws InputNeedsValueError with
// the row's `asks_for` role, which the caller names in its own terms (the
// CLI's option, cli/value_roles.cc).
//
// Adding a side input: its formats file (reader and recognition), one
// SideInputSpec row (side_input_registry.cc; a new model struct also takes
// its place in SideInputData and SideInputStruct below), and its model
// struct with the conversion into it (model/<struct>.{h,cc}).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <variant>

#include "base/errors.h"
#include "model/heap_file.h"
#include "model/lowering_profile.h"
#include "model/tensor_set.h"

namespace htpscope {

enum class SideInput : uint8_t {
  kHeapCheckpoints,     // DSP heap checkpoints of one run (`heap`)
  kTensorSet,           // reference or device tensors, any form (`numerics`)
  kEtdumpDebugTensors,  // the tensors an ExecuTorch ETDump's debug events logged
  kSamplingProfile,     // a sampling profile of an ahead-of-time lowering run (`aot`)
};

// What a side input's loader may use beside its path; each kind reads only
// the fields its row names.
struct SideInputOptions {
  std::string manifest;             // tensor_set: a manifest describing the directory given
  std::string debug_buffer;         // tensor_set, etdump_debug_tensors: the ETDump's debug buffer
  LoweringProfileOptions lowering;  // sampling_profile: the rate of sample-count weights
};

// What a side input gives: one model struct per kind (kinds may share one).
using SideInputData = std::variant<HeapFile, TensorSet, LoweringProfile>;

// The model struct of each kind, for LoadSideInput's callers.
template <SideInput kind>
using SideInputStruct = std::conditional_t<
    kind == SideInput::kHeapCheckpoints, HeapFile,
    std::conditional_t<kind == SideInput::kSamplingProfile, LoweringProfile, TensorSet>>;

// One kind of side input.  Its texts are table cells of the docs' list.
struct SideInputSpec {
  SideInput kind;
  const char* name;          // stable, snake_case: "heap_checkpoints"
  const char* gives;         // what it gives, one line
  const char* model_struct;  // the struct it fills, with its header
  const char* forms;         // the forms it is read from, and how each is recognised
  const char* read_by;       // the commands (and bindings) that read it
  // The value an error may ask for beside it (InputNeedsValueError::needed).
  std::optional<ValueRole> asks_for;
  // The form the file (or directory) at `path` is in, by its kind's own
  // recognition (e.g. "QNN_PROFILE JSON"), or nullptr when it is not
  // recognisably of this kind.  Reads at most a file's first bytes; throws
  // InputError only when a file cannot be opened.
  const char* (*form_of)(const std::string& path);
  // Reads `path` into the kind's model struct; throws InputError naming the
  // file (and line or byte offset) when it is unreadable or malformed.
  SideInputData (*load)(const std::string& path, const SideInputOptions& options);
};

// Every kind, in the order of SideInput.
std::span<const SideInputSpec> SideInputSpecs();
const SideInputSpec& FindSideInputSpec(SideInput kind);

// Loads the side input of kind `kind` at `path` through its row.
template <SideInput kind>
SideInputStruct<kind> LoadSideInput(const std::string& path, const SideInputOptions& options = {}) {
  return std::get<SideInputStruct<kind>>(FindSideInputSpec(kind).load(path, options));
}

}  // namespace htpscope
