// DiffRunModules (run_diff.h): the module trees of both sides' runs,
// compared module by module (module_diff.h).
#include <future>

#include "analysis/module_run.h"
#include "analysis/run_diff.h"

namespace htpscope {
namespace {

std::vector<ModuleTree> TreesOf(const std::vector<RunFacts>& runs) {
  std::vector<ModuleTree> out;
  out.reserve(runs.size());
  for (const auto& r : runs) out.push_back(r.run ? ComputeRunModules(*r.run).tree : ModuleTree{});
  return out;
}

std::vector<const ModuleTree*> Pointers(const std::vector<ModuleTree>& trees) {
  std::vector<const ModuleTree*> out;
  for (const auto& t : trees) out.push_back(&t);
  return out;
}

}  // namespace

ModuleDiff DiffRunModules(const std::vector<RunFacts>& a, const std::vector<RunFacts>& b) {
  std::future<std::vector<ModuleTree>> trees_b =
      std::async(std::launch::async | std::launch::deferred, [&b] { return TreesOf(b); });
  std::vector<ModuleTree> trees_a = TreesOf(a);
  std::vector<ModuleTree> tb = trees_b.get();
  return DiffModules(Pointers(trees_a), Pointers(tb));
}

}  // namespace htpscope
