// `summary --modules[=DEPTH]`, `diff` gates on modules, and `sql` over the
// modules table, run through the built binary.
#include <gtest/gtest.h>

#include "cli/cli_test_util.h"

namespace htpscope::modules_cli_test {
namespace {

using testing_support::RunCli;

const std::string kResnet =
    std::string(HTPSCOPE_SOURCE_DIR) + "/src/formats/testdata/ort_qnn_ep_resnet_modules.csv";
const std::string kResnetB =
    std::string(HTPSCOPE_SOURCE_DIR) + "/examples/docs/modules/resnet_b.csv";

TEST(ModulesCli, SummaryPrintsTheTreeOnlyWhenAsked) {
  auto plain = RunCli("summary '" + kResnet + "'", "modules_plain");
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.out.find("Modules: time by the model's own modules"), std::string::npos);
  auto tree = RunCli("summary '" + kResnet + "' --modules", "modules_tree");
  EXPECT_EQ(tree.status, 0) << tree.err;
  EXPECT_NE(tree.out.find("Modules: time by the model's own modules"), std::string::npos);
  EXPECT_NE(tree.out.find("      stages.2/…"), std::string::npos) << tree.out;  // default depth 3
  auto deep = RunCli("summary '" + kResnet + "' --modules=4", "modules_deep");
  EXPECT_EQ(deep.status, 0) << deep.err;
  EXPECT_NE(deep.out.find("        layers.1/…"), std::string::npos) << deep.out;
  auto bad = RunCli("summary '" + kResnet + "' --modules=x", "modules_bad");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("DEPTH must be a whole number"), std::string::npos) << bad.err;
}

TEST(ModulesCli, DiffGateNamesTheSlowerStage) {
  auto r = RunCli("diff '" + kResnet + "' '" + kResnetB +
                      "' --fail-on 'module:resnet/encoder/stages.*:cycles>+5%'",
                  "modules_diff");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("the repeated block that grew most: resnet/encoder/stages.3/layers.1"),
            std::string::npos)
      << r.out;
  auto ok = RunCli("diff '" + kResnet + "' '" + kResnet +
                       "' --fail-on 'module:resnet/encoder/stages.*:cycles>+5%'",
                   "modules_diff_same");
  EXPECT_EQ(ok.status, 0) << ok.out;
}

TEST(ModulesCli, SqlOverTheModulesTable) {
  auto r = RunCli("sql '" + kResnet +
                      "' --format csv -q \"select path, time_cycles from modules where path = "
                      "'resnet/encoder/stages.2'\"",
                  "modules_sql");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("resnet/encoder/stages.2,9232688.5"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace htpscope::modules_cli_test
