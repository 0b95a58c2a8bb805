#include "report/numerics_report.h"

#include <gtest/gtest.h>

#include <limits>

namespace htpscope::numerics_report_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

HandleRow Compared(int64_t handle, std::vector<double> ref, std::vector<double> dev,
                   const ErrorSums& sums) {
  HandleRow row;
  row.handle = handle;
  row.reference_tensor = "ref_" + std::to_string(handle);
  row.device_tensor = "dev_" + std::to_string(handle);
  row.reference_file = "ref/" + row.reference_tensor + ".npy";
  row.device_file = "dev/" + row.device_tensor + ".raw";
  row.reference_ops = {"aten.conv2d"};
  row.runtime_ops = {"q_conv"};
  row.shape = {1, 6};
  row.reference_preview = std::move(ref);
  row.device_preview = std::move(dev);
  row.sums = sums;
  row.metrics = FinishMetrics(sums);
  row.gap = row.metrics.cosine;
  return row;
}

// ref = 2, dev = 2.5 (6 elements): mse 0.25, cosine 1, SNR 12.04 dB.
ErrorSums OffsetSums() {
  std::vector<double> r(6, 2.0), d(6, 2.5);
  ErrorSums s;
  s.Add(r.data(), d.data(), 6);
  return s;
}

// ref = (1, 0, ...), dev = (0, 1, ...): orthogonal, cosine 0.
ErrorSums OrthogonalSums() {
  std::vector<double> r = {1, 0, 0, 0, 0, 0}, d = {0, 1, 0, 0, 0, 0};
  ErrorSums s;
  s.Add(r.data(), d.data(), 6);
  return s;
}

NumericsResult Sample() {
  NumericsResult result;
  result.reference_origin = "ref";
  result.device_origin = "dev/manifest.json";
  result.reference_tensors = 3;
  result.device_tensors = 3;
  result.metric = NumericsMetric::kCosine;
  result.threshold = 0.99;
  result.order_source = "device_manifest";
  result.rows.push_back(Compared(1, {2, 2, 2, 2}, {2.5, 2.5, 2.5, 2.5}, OffsetSums()));
  HandleRow bad = Compared(2, {1, 0, 0, 0}, {0, 1, 0, 0}, OrthogonalSums());
  bad.divergent = true;
  result.rows.push_back(bad);
  HandleRow ref_only;
  ref_only.handle = 3;
  ref_only.status = HandleStatus::kReferenceOnly;
  ref_only.reference_tensor = "split, first";  // a comma, to exercise CSV quoting
  ref_only.reference_ops = {"aten.split"};
  ref_only.shape = {2};
  ref_only.reference_preview = {7, 8};
  result.rows.push_back(ref_only);
  HandleRow dev_only;
  dev_only.handle = 4;
  dev_only.output_index = 1;
  dev_only.handle_outputs = 2;
  dev_only.status = HandleStatus::kDeviceOnly;
  dev_only.device_tensor = "convert__debugID_4";
  dev_only.runtime_ops = {"Convert"};
  dev_only.shape = {1};
  dev_only.device_preview = {-kInf};
  dev_only.dequantized = true;
  result.rows.push_back(dev_only);
  result.first_divergent = 1;
  result.compared = 2;
  result.divergent = 1;
  result.reference_only = 1;
  result.device_only = 1;
  return result;
}

TEST(NumericsReport, FormatsHandlesAndMetrics) {
  NumericsResult r = Sample();
  EXPECT_EQ(FormatHandleLabel(r.rows[0]), "1");
  EXPECT_EQ(FormatHandleLabel(r.rows[3]), "4:1");
  HandleRow unnamed;
  unnamed.reference_tensor = "logits";
  EXPECT_EQ(FormatHandleLabel(unnamed), "logits");
  EXPECT_EQ(FormatMetric(kInf), "inf");
  EXPECT_EQ(FormatMetric(-kInf), "-inf");
  EXPECT_EQ(FormatMetric(std::nullopt), "-");
  EXPECT_EQ(FormatMetric(0.123456789), "0.123457");
}

TEST(NumericsReport, TextTableCallsOutFirstDivergentHandle) {
  EXPECT_EQ(FormatNumericsText(Sample()),
            "reference: ref (3 tensors)\n"
            "device:    dev/manifest.json (3 tensors)\n"
            "metric:    cosine (divergent below 0.99); rows in device manifest order\n"
            "\n"
            "#  handle  reference ops  runtime ops  reference          device              "
            "       cosine  status\n"
            "1  1       aten.conv2d    q_conv       [2, 2, 2, 2, ...]  [2.5, 2.5, 2.5, 2.5, ...]"
            "       1  ok\n"
            "2  2       aten.conv2d    q_conv       [1, 0, 0, 0, ...]  [0, 1, 0, 0, ...]        "
            "       0  DIVERGENT  <-- first divergent\n"
            "3  3       aten.split     -            [7, 8]             -                        "
            "       -  reference only\n"
            "4  4:1     -              Convert      -                  [-inf]                   "
            "       -  device only\n"
            "\n"
            "first divergent handle: 2 (reference ops: aten.conv2d; runtime ops: q_conv)\n"
            "  cosine 0 < 0.99\n"
            "  mse 0.333333  mean_abs 0.333333  max_abs 1  cosine 0  snr -3.0103 dB\n"
            "  NaN/Inf: reference 0/0, device 0/0; 6 of 6 elements compared\n"
            "  reference ref/ref_2.npy  device dev/dev_2.raw\n"
            "4 rows: 2 compared (1 divergent), 1 reference only, 1 device only\n");
}

TEST(NumericsReport, TextWithoutDivergenceSaysSo) {
  NumericsResult r = Sample();
  r.rows.resize(1);
  r.first_divergent.reset();
  std::string text = FormatNumericsText(r);
  EXPECT_NE(text.find("no divergent handle (cosine >= 0.99)\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("first divergent"), std::string::npos);
}

TEST(NumericsReport, JsonKeepsHandlesStatusAndInfiniteSnrAsNull) {
  nlohmann::json doc = nlohmann::json::parse(NumericsToJson(Sample()).dump());
  EXPECT_EQ(doc["first_divergent_handle"], 2);
  EXPECT_EQ(doc["first_divergent"]["row"], 1);
  EXPECT_EQ(doc["metric"], "cosine");
  EXPECT_EQ(doc["threshold"], 0.99);
  EXPECT_EQ(doc["divergent_when"], "below");
  EXPECT_EQ(doc["order"], "device_manifest");
  EXPECT_EQ(doc["summary"]["compared"], 2);
  const auto& h = doc["handles"];
  ASSERT_EQ(h.size(), 4u);
  EXPECT_EQ(h[0]["handle"], 1);
  EXPECT_EQ(h[0]["status"], "compared");
  EXPECT_EQ(h[0]["mse"], 0.25);
  EXPECT_EQ(h[0]["mean_abs"], 0.5);
  EXPECT_EQ(h[0]["max_abs"], 0.5);
  EXPECT_EQ(h[0]["cosine"], 1.0);
  EXPECT_DOUBLE_EQ(h[0]["snr_db"].get<double>(), 10 * std::log10(16.0));
  EXPECT_EQ(h[0]["elements"], 6);
  EXPECT_EQ(h[0]["reference_preview"], nlohmann::json({2, 2, 2, 2}));
  EXPECT_EQ(h[1]["divergent"], true);
  EXPECT_EQ(h[2]["status"], "reference_only");
  EXPECT_TRUE(h[2]["mse"].is_null());
  EXPECT_TRUE(h[2]["elements"].is_null());
  EXPECT_TRUE(h[2]["device_tensor"].is_null());
  EXPECT_EQ(h[3]["status"], "device_only");
  EXPECT_EQ(h[3]["output_index"], 1);
  EXPECT_TRUE(h[3]["device_preview"][0].is_null());  // -inf
  EXPECT_EQ(h[3]["dequantized"], true);
  // Keys keep a readable order: each entry starts with its handle.
  EXPECT_EQ(NumericsToJson(Sample())["handles"][0].begin().key(), "handle");

  NumericsResult identical = Sample();
  std::vector<double> x = {1, 2};
  ErrorSums same;
  same.Add(x.data(), x.data(), 2);
  identical.rows[0].metrics = FinishMetrics(same);
  auto j = NumericsToJson(identical);
  EXPECT_TRUE(j["handles"][0]["snr_db"].is_null());  // +inf
  EXPECT_EQ(j["handles"][0]["mse"], 0.0);
}

TEST(NumericsReport, JsonWithoutDivergenceHasNullFirstHandle) {
  NumericsResult r = Sample();
  r.first_divergent.reset();
  auto doc = NumericsToJson(r);
  EXPECT_TRUE(doc["first_divergent_handle"].is_null());
  EXPECT_TRUE(doc["first_divergent"].is_null());
}

TEST(NumericsReport, CsvHasHeaderQuotingAndInf) {
  NumericsResult r = Sample();
  std::vector<double> x = {1, 2};
  ErrorSums same;
  same.Add(x.data(), x.data(), 2);
  r.rows[0].metrics = FinishMetrics(same);
  r.rows[0].sums = same;
  std::string csv = FormatNumericsCsv(r);
  std::vector<std::string> lines;
  for (size_t start = 0, end; (end = csv.find("\r\n", start)) != std::string::npos; start = end + 2)
    lines.push_back(csv.substr(start, end - start));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0].substr(0, 40), "order,handle,output_index,status,diverge");
  EXPECT_EQ(lines[1],
            "1,1,0,compared,false,ref_1,dev_1,aten.conv2d,q_conv,1x6,2,2,0,0,0,1,inf,0,0,0,0,0,"
            "2 2 2 2,2.5 2.5 2.5 2.5");
  EXPECT_EQ(lines[3],
            "3,3,0,reference_only,false,\"split, first\",,aten.split,,2,,,,,,,,,,,,,7 8,");
  EXPECT_EQ(lines[4], "4,4,1,device_only,false,,convert__debugID_4,,Convert,1,,,,,,,,,,,,,,-inf");
}

TEST(NumericsReport, CsvNeutralisesFormulaTensorNames) {
  NumericsResult r = Sample();
  r.rows[0].reference_tensor = "=HYPERLINK(\"http://evil\",\"x\")";
  r.rows[0].device_tensor = "@SUM(1)";
  r.rows[0].reference_ops = {"+cmd"};
  std::string csv = FormatNumericsCsv(r);
  std::string row = csv.substr(csv.find("\r\n") + 2);
  row = row.substr(0, row.find("\r\n"));
  EXPECT_EQ(row.rfind("1,1,0,compared,false,\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\","
                      "'@SUM(1),'+cmd,q_conv,",
                      0),
            0u)
      << row;
  EXPECT_EQ(csv.find(",=H"), std::string::npos);
  EXPECT_EQ(csv.find(",@S"), std::string::npos);
}

}  // namespace
}  // namespace htpscope::numerics_report_test

namespace htpscope::numerics_report_test {
namespace {

TEST(NumericsReport, GapsByModuleWhenHandleNamesCarryModules) {
  NumericsResult r;
  r.metric = NumericsMetric::kCosine;
  r.threshold = 0.99;
  HandleRow a;
  a.handle = 1;
  a.reference_tensor = "/model/layers.0/attn/MatMul_output_0";
  a.gap = 0.999;
  HandleRow b;
  b.handle = 2;
  b.reference_tensor = "/model/layers.1/attn/MatMul_output_0";
  b.gap = 0.9;
  b.divergent = true;
  r.rows = {a, b};
  r.compared = 2;
  r.divergent = 1;
  std::string text = FormatNumericsText(r);
  EXPECT_NE(text.find("by module (worst cosine"), std::string::npos) << text;
  EXPECT_NE(text.find("    layers.1"), std::string::npos) << text;
  nlohmann::json doc = nlohmann::json::parse(NumericsToJson(r).dump());
  ASSERT_EQ(doc["modules"].size(), 6u);  // "", model, layers.0, its attn, layers.1, its attn
  EXPECT_EQ(doc["modules"][0]["divergent"], 1);
  EXPECT_EQ(doc["modules"][0]["first_divergent_handle"], "2");
  EXPECT_EQ(doc["modules"][4]["path"], "model/layers.1");
  EXPECT_EQ(doc["modules"][4]["worst_gap"], 0.9);
}

}  // namespace
}  // namespace htpscope::numerics_report_test
