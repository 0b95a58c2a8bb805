#include "model/tables.h"

namespace htpscope {
namespace {

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// Runtrace ticks: the 19.2 MHz global timer.
constexpr double kRuntraceTicksPerUs = 19.2;

}  // namespace

const char* SourceName(Source source) {
  switch (source) {
    case Source::kNone:
      return "none";
    case Source::kOptrace:
      return "optrace";
    case Source::kQhas:
      return "qhas";
    case Source::kProfile:
      return "profile";
    case Source::kRuntrace:
      return "runtrace";
    case Source::kHtpGraph:
      return "htp_graph";
    case Source::kReconstructed:
      return "reconstructed";
  }
  return "none";
}

const char* OpCategoryName(OpCategory category) {
  switch (category) {
    case OpCategory::kCompute:
      return "compute";
    case OpCategory::kSystemService:
      return "system_service";
    case OpCategory::kBoundary:
      return "boundary";
  }
  return "compute";
}

OpCategory ClassifyOp(std::string_view htp_op_type, std::string_view qnn_op_type, uint8_t flags) {
  // dma_wait slices carry the type of the op they wait for, so flags first.
  if (flags & (kFlagDmaSet | kFlagDmaWait | kFlagSync)) return OpCategory::kSystemService;
  if (Contains(htp_op_type, "DmaCheckpoint") || Contains(htp_op_type, "SyncOp") ||
      Contains(htp_op_type, "Sync Op") || Contains(htp_op_type, "DramToTcm") ||
      Contains(htp_op_type, "TcmToDram") || Contains(htp_op_type, "BlockZap") ||
      Contains(htp_op_type, "SystemService") || Contains(htp_op_type, "_to_vtcm") ||
      qnn_op_type.substr(0, 13) == "SystemService")
    return OpCategory::kSystemService;
  if (Contains(htp_op_type, "Spill") || Contains(htp_op_type, "Fill") ||
      Contains(htp_op_type, "Concat") || Contains(htp_op_type, "ForceFormat") ||
      Contains(htp_op_type, "flat_from_vtcm") || Contains(htp_op_type, "Slice"))
    return OpCategory::kBoundary;
  return OpCategory::kCompute;
}

OpCategory OpClassifier::operator()(StringId htp_op_type, StringId qnn_op_type, uint8_t flags) {
  auto [it, inserted] = known_.try_emplace({htp_op_type, qnn_op_type, flags}, OpCategory::kCompute);
  if (inserted)
    it->second = ClassifyOp(strings_.View(htp_op_type), strings_.View(qnn_op_type), flags);
  return it->second;
}

const char* DpcBasisName(DpcBasis basis) {
  switch (basis) {
    case DpcBasis::kNone:
      return "none";
    case DpcBasis::kOptrace:
      return "optrace";
    case DpcBasis::kQhas:
      return "qhas";
    case DpcBasis::kReconstructed:
      return "reconstructed";
    case DpcBasis::kLowerBound:
      return "lower_bound";
  }
  return "none";
}

double PhaseRow::wall_us() const { return static_cast<double>(wall_ticks()) / kRuntraceTicksPerUs; }

std::optional<int64_t> PhaseRow::wall_cycles() const {
  if (!start_cycle || !end_cycle) return std::nullopt;
  return *end_cycle - *start_cycle;
}

std::optional<double> PhaseRow::effective_ghz() const {
  auto cycles = wall_cycles();
  if (!cycles || wall_ticks() <= 0) return std::nullopt;
  return static_cast<double>(*cycles) / wall_us() / 1000.0;
}

}  // namespace htpscope
