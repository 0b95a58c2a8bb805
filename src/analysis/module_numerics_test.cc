#include "analysis/module_numerics.h"

#include <gtest/gtest.h>

namespace htpscope::module_numerics_test {
namespace {

HandleRow Row(std::string tensor, double cosine, bool divergent) {
  HandleRow r;
  r.reference_tensor = std::move(tensor);
  r.gap = cosine;
  r.divergent = divergent;
  return r;
}

TEST(ModuleNumerics, GapsRollUpTheModuleTree) {
  NumericsResult result;
  result.metric = NumericsMetric::kCosine;
  result.rows = {Row("/model/layers.0/attn/MatMul_output_0__debugID_3", 0.999, false),
                 Row("/model/layers.1/attn/MatMul_output_0__debugID_7", 0.95, true),
                 Row("/model/layers.1/mlp/Add_output_0", 0.98, true), Row("input", 1.0, false)};
  HandleRow device_only;
  device_only.status = HandleStatus::kDeviceOnly;
  device_only.device_tensor = "/model/layers.2/X";
  result.rows.push_back(device_only);
  std::vector<ModuleNumericsRow> rows = NumericsByModule(result);
  auto find = [&](const std::string& path) -> const ModuleNumericsRow* {
    for (const auto& r : rows)
      if (r.path == path) return &r;
    return nullptr;
  };
  ASSERT_EQ(rows.front().path, "");
  EXPECT_EQ(rows.front().compared, 4u);
  EXPECT_EQ(rows.front().divergent, 2u);
  const ModuleNumericsRow* l1 = find("model/layers.1");
  ASSERT_TRUE(l1);
  EXPECT_EQ(l1->compared, 2u);
  EXPECT_EQ(l1->divergent, 2u);
  EXPECT_DOUBLE_EQ(*l1->worst_gap, 0.95);  // cosine: the lowest is the worst
  EXPECT_EQ(l1->worst_row, 1u);
  EXPECT_EQ(l1->first_divergent_row, 1u);
  EXPECT_EQ(find("model/layers.0")->divergent, 0u);
  EXPECT_FALSE(find("model/layers.0")->first_divergent_row);
  EXPECT_EQ(find(std::string(kNoModule))->compared, 1u);
  EXPECT_FALSE(find("model/layers.2"));  // device-only: nothing compared
  // Error metrics: the highest is the worst.
  result.metric = NumericsMetric::kMaxAbs;
  EXPECT_DOUBLE_EQ(*NumericsByModule(result).front().worst_gap, 1.0);
}

TEST(ModuleNumerics, NoModuleInAnyNameGivesNoRows) {
  NumericsResult result;
  result.rows = {Row("conv_1", 0.9, true)};
  EXPECT_TRUE(NumericsByModule(result).empty());
}

}  // namespace
}  // namespace htpscope::module_numerics_test
