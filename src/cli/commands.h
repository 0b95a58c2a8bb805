// Registration of the subcommands.  Each subcommand file defines one
// Register<Name>Command that adds a CLI11 subcommand and a runner.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

namespace htpscope::cli {

class CommandRegistry {
 public:
  // `run` returns the process exit status (0 ok, 1 gate failed, 2 input error).
  void Add(CLI::App* subcommand, std::function<int()> run) {
    commands_.push_back({subcommand, std::move(run)});
  }
  int RunSelected() const {
    for (const auto& c : commands_)
      if (c.subcommand->parsed()) return c.run();
    return 2;
  }

 private:
  struct Entry {
    CLI::App* subcommand;
    std::function<int()> run;
  };
  std::vector<Entry> commands_;
};

void RegisterSummaryCommand(CLI::App& app, CommandRegistry& registry);
void RegisterTimelineCommand(CLI::App& app, CommandRegistry& registry);
void RegisterGraphCommand(CLI::App& app, CommandRegistry& registry);
void RegisterNumericsCommand(CLI::App& app, CommandRegistry& registry);
void RegisterDiffCommand(CLI::App& app, CommandRegistry& registry);
void RegisterLintCommand(CLI::App& app, CommandRegistry& registry);
void RegisterHeapCommand(CLI::App& app, CommandRegistry& registry);
void RegisterMemoryCommand(CLI::App& app, CommandRegistry& registry);
void RegisterReportCommand(CLI::App& app, CommandRegistry& registry);
void RegisterAotCommand(CLI::App& app, CommandRegistry& registry);
void RegisterSqlCommand(CLI::App& app, CommandRegistry& registry);
void RegisterExportCommand(CLI::App& app, CommandRegistry& registry);
void RegisterIngestCommand(CLI::App& app, CommandRegistry& registry);
void RegisterTrendCommand(CLI::App& app, CommandRegistry& registry);
void RegisterShellDocCommands(CLI::App& app, CommandRegistry& registry);

inline void RegisterAllCommands(CLI::App& app, CommandRegistry& registry) {
  RegisterSummaryCommand(app, registry);
  RegisterTimelineCommand(app, registry);
  RegisterGraphCommand(app, registry);
  RegisterNumericsCommand(app, registry);
  RegisterDiffCommand(app, registry);
  RegisterLintCommand(app, registry);
  RegisterHeapCommand(app, registry);
  RegisterMemoryCommand(app, registry);
  RegisterReportCommand(app, registry);
  RegisterAotCommand(app, registry);
  RegisterSqlCommand(app, registry);
  RegisterExportCommand(app, registry);
  RegisterIngestCommand(app, registry);
  RegisterTrendCommand(app, registry);
  RegisterShellDocCommands(app, registry);  // last: it describes the commands above
}

}  // namespace htpscope::cli
