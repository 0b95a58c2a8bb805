// The QNN op and HTP op type tables: every op instance's totals by group,
// listed by DPC, then work (both descending), then name.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/sort_util.h"
#include "model/import.h"
#include "model/join.h"

namespace htpscope {
namespace {

// Sorts `groups` into listing order (DPC, absent as -1, then work, both
// descending, then name); returns the new index of each old group.
std::vector<uint32_t> SortGroups(std::vector<OpGroupRow>& groups, const Run& run) {
  return SortByRankThenName(
      groups,
      [](const OpGroupRow& g) {
        return std::array<int64_t, 2>{g.dpc_cycles.value_or(-1), g.work_cycles};
      },
      [&run](const OpGroupRow& g) { return run.Str(g.name); });
}

// A group's DPC basis is the weakest of its instances'.
DpcBasis Weaker(DpcBasis a, DpcBasis b) {
  auto rank = [](DpcBasis x) {
    switch (x) {
      case DpcBasis::kLowerBound:
        return 0;
      case DpcBasis::kNone:
        return 1;
      case DpcBasis::kReconstructed:
        return 2;
      case DpcBasis::kQhas:
        return 3;
      case DpcBasis::kOptrace:
        return 4;
    }
    return 1;
  };
  return rank(a) <= rank(b) ? a : b;
}

// Groups from the op instances (optrace, or QHAS lists that cover the graph).
void GroupsFromInstances(Run& run) {
  std::vector<uint32_t> qnn_group_of(run.strings.size(), 0), htp_group_of(run.strings.size(), 0);
  std::vector<uint32_t> qnn_index(run.op_instances.size());
  for (size_t k = 0; k < run.op_instances.size(); ++k) {
    const OpInstanceRow& op = run.op_instances[k];
    for (auto [groups, group_of, key, with_type] :
         {std::tuple{&run.qnn_ops, &qnn_group_of, op.qnn_op_name, true},
          std::tuple{&run.htp_op_types, &htp_group_of, op.htp_op_type, false}}) {
      uint32_t& index = (*group_of)[key];
      if (index == 0) {
        OpGroupRow g;
        g.name = key;
        g.type = with_type ? op.qnn_op_type : StringPool::kEmpty;
        g.category = op.category;
        g.dpc_cycles = 0;
        g.dpc_basis = op.dpc_basis;
        g.source = op.source;
        groups->push_back(g);
        index = static_cast<uint32_t>(groups->size());
      }
      OpGroupRow& g = (*groups)[index - 1];
      // A group is compute if any of its ops is.
      if (op.category == OpCategory::kCompute) g.category = OpCategory::kCompute;
      *g.dpc_cycles += op.dpc_cycles;
      g.work_cycles += op.work_cycles;
      g.instances += 1;
      g.dpc_basis = Weaker(g.dpc_basis, op.dpc_basis);
    }
    qnn_index[k] = qnn_group_of[op.qnn_op_name] - 1;
  }
  std::vector<uint32_t> new_index = SortGroups(run.qnn_ops, run);
  for (size_t k = 0; k < run.op_instances.size(); ++k)
    run.op_instances[k].qnn_op = new_index[qnn_index[k]];
  SortGroups(run.htp_op_types, run);
}

// The group of QHAS's aggregate row `row` (qnn_op_types or htp_op_types)
// with its figures, its name interned through `texts`; the type and
// category are the caller's.
OpGroupRow GroupOfQhasRow(model_import::QhasTextsIn& texts, const QhasOpAggregateRow& row) {
  OpGroupRow g;
  g.name = texts(row.name);
  g.dpc_cycles = row.dominant_path_cycles;
  g.dpc_basis = DpcBasis::kQhas;
  g.work_cycles = row.cycles;
  g.instances = row.count;
  g.source = Source::kQhas;
  return g;
}

// Groups from QHAS's aggregate rows, when its per-instance lists are partial.
void GroupsFromQhasRows(Run& run) {
  model_import::QhasTextsIn texts(run.qhas_strings, run.strings);
  for (const auto& row : run.qhas_qnn_op_rows) {
    OpGroupRow g = GroupOfQhasRow(texts, row);
    g.type = texts(row.qnn_op_type);
    g.category = ClassifyOp("", run.QhasStr(row.qnn_op_type), 0);
    run.qnn_ops.push_back(g);
  }
  for (const auto& row : run.qhas_htp_op_type_rows) {
    OpGroupRow g = GroupOfQhasRow(texts, row);
    g.category = ClassifyOp(run.QhasStr(row.name), "", 0);
    run.htp_op_types.push_back(g);
  }
  SortGroups(run.qnn_ops, run);
  SortGroups(run.htp_op_types, run);
}

// Per-node work of the first execution, when only a profile gives ops.
void GroupsFromProfile(Run& run) {
  const ProfileBlockRow& block = run.profile_blocks[run.executions.front().block];
  std::map<std::string, OpGroupRow> groups;
  for (uint32_t i = block.first_node; i < block.first_node + block.node_count; ++i) {
    const ProfileNodeRow& node = run.profile_nodes[i];
    const std::string& name = node.qnn_op_name.empty() ? node.label : node.qnn_op_name;
    OpGroupRow& g = groups[name];
    g.name = run.strings.Intern(name);
    g.work_cycles += node.cycles;
    g.instances += 1;
    g.source = Source::kProfile;
  }
  for (auto& [name, g] : groups) run.qnn_ops.push_back(g);
  SortGroups(run.qnn_ops, run);
}

}  // namespace

void BuildOpGroups(Run& run) {
  switch (run.figures.fine_source) {
    case Source::kOptrace:
      GroupsFromInstances(run);
      break;
    case Source::kQhas:
      if (run.qhas_cores.front().lists_complete && !run.op_instances.empty())
        GroupsFromInstances(run);
      else
        GroupsFromQhasRows(run);
      break;
    case Source::kProfile:
      GroupsFromProfile(run);
      break;
    default:
      break;
  }
}

}  // namespace htpscope
