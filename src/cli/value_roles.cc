#include "cli/value_roles.h"

namespace htpscope::cli {

const char* OptionOf(ValueRole role) {
  switch (role) {
    case ValueRole::kGraphName:
      return "--graph";
    case ValueRole::kDroppedDependency:
      return "--drop-edge";
    case ValueRole::kStageRule:
      return "--stage";
    case ValueRole::kGcFramePattern:
      return "--gc-frame";
    case ValueRole::kTrendBaselineRuns:
      return "--baseline";
    case ValueRole::kQueryOutputFormat:
      return "--format";
    case ValueRole::kClockGhz:
      return "--clock-ghz";
    case ValueRole::kTensorLayouts:
      return "--ref-layout/--device-layout";
    case ValueRole::kEtdumpDebugBuffer:
      return "--debug-buffer (or --ref-debug-buffer)";
    case ValueRole::kRunStore:
      return "--db";
  }
  return "an option";
}

std::string OptionMessage(const ValueError& e) {
  return DescribeValueProblem(OptionOf(e.role()), e.value(), e.problem(), e.offset());
}

InputError WithOptionAdvice(const InputNeedsValueError& e) {
  const std::string option = OptionOf(e.needed());
  switch (e.needed()) {
    case ValueRole::kTensorLayouts:  // the manifest states them too
      return InputError(e.file(), e.problem() + " (manifest \"layout\", or " + option + ")");
    case ValueRole::kEtdumpDebugBuffer:
      return InputError(e.file(), e.problem() + " with " + option);
    case ValueRole::kRunStore:
      return InputError(
          e.file(), e.problem() + "; create one with `htpscope ingest RUN " + option + " FILE`");
    default:
      return InputError(e.file(), e.problem() + " (" + option + ")");
  }
}

}  // namespace htpscope::cli
