#include <fmt/format.h>

#include "cli/commands.h"
#include "formats/optrace.h"

namespace htpscope::cli {

void RegisterSummaryCommand(CLI::App& app, CommandRegistry& registry) {
  auto* cmd = app.add_subcommand("summary", "Coarse and fine views of one profiled run");
  static std::vector<std::string> inputs;
  cmd->add_option("inputs", inputs, "A run directory, or artifact files")->required();
  registry.Add(cmd, [] {
    for (const auto& p : inputs) {
      auto t = ReadOptrace(p);
      fmt::print("{} slices {} dups {} origin {}\n", p, t.slices.size(), t.duplicate_slices,
                 t.origin_cycles);
    }
    return 0;
  });
}

}  // namespace htpscope::cli
