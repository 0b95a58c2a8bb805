#include "cli/run_args.h"

#include <malloc.h>

#include <filesystem>

#include "base/errors.h"
#include "cli/cli_support.h"

namespace htpscope::cli {

void AddRunArgs(CLI::App* cmd, RunArgs& args) {
  cmd->add_option("run", args.inputs, "A run directory, or artifact files of one run")->required();
  cmd->add_flag("--allow-mismatch", args.allow_mismatch,
                "Join artifacts that do not look like one run (op IDs or cycles disagree) "
                "instead of refusing them; the output carries the warning mismatched_artifacts");
  cmd->add_option("--graph", args.graph,
                  "Only this graph of a profile that holds several (prefill, decode, ...), by the "
                  "name the profile gives it");
}

void AddRunViewArgs(CLI::App* cmd, RunViewArgs& args, const std::string& schema_doc,
                    const std::string& top_help) {
  AddRunArgs(cmd, args.run);
  AddJsonFlag(cmd, args.json, schema_doc);
  cmd->add_option("--top", args.top_n, top_help)->check(AtLeast(1));
}

void ReturnFreedMemory() { malloc_trim(0); }

Run LoadRunFromArgs(const RunArgs& args, FreedMemory freed) {
  LoadOptions options;
  options.allow_mismatch = args.allow_mismatch;
  options.graph = args.graph;
  try {
    Run run = LoadRun(args.inputs, options);
    if (freed == FreedMemory::kReturn) ReturnFreedMemory();
    return run;
  } catch (const MismatchedArtifactsError& e) {
    throw InputError(e.file(), e.problem() +
                                   " (give the files of one run, or --allow-mismatch to join "
                                   "them anyway)");
  }
}

std::vector<std::vector<std::string>> GroupRunInputs(const std::vector<std::string>& inputs) {
  std::vector<std::vector<std::string>> runs;
  std::vector<std::string> files;
  for (const auto& input : inputs) {
    std::error_code ec;
    if (std::filesystem::is_directory(input, ec))
      runs.push_back({input});
    else
      files.push_back(input);
  }
  if (!files.empty()) runs.push_back(std::move(files));
  return runs;
}

}  // namespace htpscope::cli
