#include "model/side_input_registry.h"

#include "formats/heap_profile.h"
#include "formats/sampling_profile.h"
#include "model/etdump_run.h"

namespace htpscope {
namespace {

const char* HeapFormOf(const std::string& path) {
  std::optional<HeapSourceFormat> format = DetectHeapSourceFormatOf(path);
  return format ? HeapSourceFormatName(*format) : nullptr;
}
SideInputData LoadHeapSideInput(const std::string& path, const SideInputOptions&) {
  return LoadHeapFile(path);
}

const char* TensorSetFormOf(const std::string& path) {
  std::optional<TensorSetSource> source = TensorSetSourceOf(path);
  return source ? TensorSetSourceName(*source) : nullptr;
}
SideInputData LoadTensorSetSideInput(const std::string& path, const SideInputOptions& options) {
  return LoadTensorSet(path, options.manifest, options.debug_buffer);
}

const char* EtdumpFormOf(const std::string& path) {
  return IsEtdumpFile(path) ? TensorSetSourceName(TensorSetSource::kEtdump) : nullptr;
}
SideInputData LoadEtdumpSideInput(const std::string& path, const SideInputOptions& options) {
  return LoadEtdumpTensorSet(path, options.debug_buffer);
}

const char* SamplingProfileFormOf(const std::string& path) {
  std::optional<SamplingProfileFormat> format = DetectSamplingProfileFormatOf(path);
  return format ? SamplingProfileFormatName(*format) : nullptr;
}
SideInputData LoadSamplingProfileSideInput(const std::string& path,
                                           const SideInputOptions& options) {
  return LoadLoweringProfile(path, options.lowering);
}

// In the order of SideInput.
constexpr SideInputSpec kSideInputSpecs[] = {
    {SideInput::kHeapCheckpoints, "heap_checkpoints",
     "DSP heap before the first context is created and after the last is freed, in bytes, each "
     "with where in the file it was found",
     "`HeapFile` (`model/heap_file.h`)",
     "ExecuTorch heap file, profile-viewer text or CSV, QNN_PROFILE JSON: by content "
     "(`DetectHeapSourceFormat`); plain or gzip",
     "`heap`", std::nullopt, HeapFormOf, LoadHeapSideInput},
    {SideInput::kTensorSet, "tensor_set",
     "tensors to compare per debug handle: dtype, shape, layout, quantization, where their "
     "elements are",
     "`TensorSet` (`model/tensor_set.h`)",
     "a directory of .npy files or holding manifest.json (or given a manifest option), a manifest "
     ".json, one .npy file, or an ETDump (`etdump_debug_tensors`): directories and extensions, "
     "the ETDump by content (`TensorSetSourceOf`)",
     "`numerics` (REF, DEVICE), Python `numerics()`", ValueRole::kEtdumpDebugBuffer,
     TensorSetFormOf, LoadTensorSetSideInput},
    {SideInput::kEtdumpDebugTensors, "etdump_debug_tensors",
     "the tensors an ExecuTorch ETDump's debug events logged (intermediate outputs), their "
     "elements in the debug buffer written beside it",
     "`TensorSet` (`model/tensor_set.h`)",
     "ExecuTorch ETDump: by content, size prefix and identifier ED00 (`IsEtdumpFile`)",
     "`numerics` (an ETDump as REF or DEVICE)", ValueRole::kEtdumpDebugBuffer, EtdumpFormOf,
     LoadEtdumpSideInput},
    {SideInput::kSamplingProfile, "sampling_profile",
     "seconds per distinct stack of an ahead-of-time lowering run",
     "`LoweringProfile` (`model/lowering_profile.h`)",
     "speedscope JSON, collapsed stacks, austin output: by content "
     "(`DetectSamplingProfileFormat`); plain or gzip",
     "`aot`", std::nullopt, SamplingProfileFormOf, LoadSamplingProfileSideInput},
};

}  // namespace

std::span<const SideInputSpec> SideInputSpecs() { return kSideInputSpecs; }

const SideInputSpec& FindSideInputSpec(SideInput kind) {
  for (const SideInputSpec& spec : kSideInputSpecs)
    if (spec.kind == kind) return spec;
  throw InternalError("a kind of side input without its SideInputSpec");
}

}  // namespace htpscope
