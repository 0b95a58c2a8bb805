// The AI Hub profile reader against inputs written from the client's
// definition (qai_hub client.py _profile_pb_to_python_dict, and the older
// tetra_hub and profile-major-version-0 layouts): every key, its unit, nulls.
#include "formats/aihub_profile.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "base/errors.h"
#include "formats/artifact_kind.h"
#include "formats/linting_example_test_util.h"

namespace htpscope::aihub_profile_test {
namespace {

AihubProfile Parse(const std::string& text) {
  simdjson::padded_string json(text);
  return ParseAihubProfile("mem.json", json);
}

std::string ErrorOf(const std::string& text) {
  try {
    Parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(AihubProfile, ReadsEveryFieldOfTheCurrentLayout) {
  const AihubProfile p = ReadAihubProfile(testing_support::ProfileTestdata("aihub_profile.json"));
  EXPECT_EQ(p.layout, AihubLayout::kQaiHub);
  EXPECT_EQ(p.estimated_inference_time_us, 3652);
  EXPECT_EQ(p.estimated_inference_peak_memory_bytes, 166711296);
  EXPECT_EQ(p.first_load_time_us, 1374293);
  EXPECT_EQ(p.first_load_peak_memory_bytes, 166711296);
  EXPECT_EQ(p.warm_load_time_us, 277823);
  EXPECT_EQ(p.warm_load_peak_memory_bytes, 163520512);
  EXPECT_EQ(p.compile_time_us, 0);
  EXPECT_EQ(p.compile_peak_memory_bytes, 0);
  const int compile = static_cast<int>(AihubStage::kCompile);
  const int first = static_cast<int>(AihubStage::kFirstLoad);
  const int warm = static_cast<int>(AihubStage::kWarmLoad);
  const int inference = static_cast<int>(AihubStage::kInference);
  EXPECT_FALSE(p.memory_increase[compile]);  // null: not measured
  EXPECT_FALSE(p.memory_peak[compile]);
  ASSERT_TRUE(p.memory_increase[first]);
  EXPECT_EQ(p.memory_increase[first]->lower_bytes, 72258864);
  EXPECT_EQ(p.memory_increase[first]->upper_bytes, 82031840);
  ASSERT_TRUE(p.memory_peak[warm]);
  EXPECT_EQ(p.memory_peak[warm]->lower_bytes, 118784);
  EXPECT_EQ(p.memory_peak[warm]->upper_bytes, 43225712);
  ASSERT_TRUE(p.memory_peak[inference]);
  EXPECT_EQ(p.memory_peak[inference]->upper_bytes, 39406752);
  ASSERT_TRUE(p.all_times_us[compile]);
  EXPECT_TRUE(p.all_times_us[compile]->empty());  // written empty, not absent
  EXPECT_EQ(*p.all_times_us[inference], (std::vector<int64_t>{10003, 4205, 4180, 4230, 4198}));
  EXPECT_EQ(*p.all_times_us[warm], (std::vector<int64_t>{277823, 280100, 275400}));
  ASSERT_EQ(p.layers.size(), 8u);
  EXPECT_EQ(p.layers[1].name, "conv1");
  EXPECT_EQ(p.layers[1].type, "Conv2d");
  EXPECT_EQ(p.layers[1].unit, AihubComputeUnit::kNpu);
  EXPECT_EQ(p.layers[1].execution_time_us, 410);
  EXPECT_EQ(p.layers[1].execution_cycles, 590000);
  EXPECT_EQ(p.layers[4].unit, AihubComputeUnit::kCpu);
  EXPECT_FALSE(p.layers[4].execution_cycles);
  EXPECT_EQ(p.layers[5].unit, AihubComputeUnit::kGpu);
  EXPECT_FALSE(p.layers[7].execution_time_us);  // not measured: the key is absent
  EXPECT_TRUE(p.unknown_keys.empty());
}

TEST(AihubProfile, ReadsTheVersionZeroLayoutWithNullsAndPrefixedUnits) {
  const AihubProfile p =
      ReadAihubProfile(testing_support::ProfileTestdata("aihub_profile_v0.json"));
  EXPECT_EQ(p.layout, AihubLayout::kQaiHub);
  EXPECT_EQ(p.estimated_inference_time_us, 5120);
  EXPECT_FALSE(p.estimated_inference_peak_memory_bytes);
  EXPECT_EQ(p.first_load_time_us, 2210000);
  EXPECT_FALSE(p.warm_load_time_us);
  EXPECT_FALSE(p.compile_time_us);
  EXPECT_EQ(p.compile_peak_memory_bytes, 120586240);
  for (int s = 0; s < kAihubStages; ++s) {
    EXPECT_FALSE(p.all_times_us[s]);
    EXPECT_FALSE(p.memory_peak[s]);
  }
  ASSERT_EQ(p.layers.size(), 3u);
  EXPECT_EQ(p.layers[0].compute_unit, "COMPUTE_UNIT_NPU");
  EXPECT_EQ(p.layers[0].unit, AihubComputeUnit::kNpu);
  EXPECT_EQ(p.layers[2].unit, AihubComputeUnit::kCpu);
}

TEST(AihubProfile, ReadsTheTetraHubLayout) {
  const AihubProfile p =
      ReadAihubProfile(testing_support::ProfileTestdata("aihub_profile_tetra.json"));
  EXPECT_EQ(p.layout, AihubLayout::kTetraHub);
  EXPECT_EQ(p.estimated_inference_time_us, 612);
  EXPECT_EQ(p.first_load_time_us, 845000);
  EXPECT_EQ(p.compile_peak_memory_bytes, 31457280);
  EXPECT_FALSE(p.warm_load_time_us);
  ASSERT_EQ(p.layers.size(), 2u);
  EXPECT_EQ(p.layers[1].unit, AihubComputeUnit::kGpu);
}

TEST(AihubProfile, RecognisedByContentInEitherKeyOrder) {
  for (const char* name :
       {"aihub_profile.json", "aihub_profile_v0.json", "aihub_profile_tetra.json"})
    EXPECT_EQ(DetectArtifactKind(testing_support::ProfileTestdata(name)),
              ArtifactKind::kAihubProfile)
        << name;
  EXPECT_TRUE(LooksLikeAihubProfile("  {\n \"execution_detail\": []"));
  EXPECT_FALSE(LooksLikeAihubProfile("{\"header\": {}, \"execution_summary\": {}}"));
  EXPECT_FALSE(LooksLikeAihubProfile("[\"execution_summary\"]"));
}

TEST(AihubProfile, UnitNames) {
  EXPECT_EQ(ParseAihubComputeUnit("NPU"), AihubComputeUnit::kNpu);
  EXPECT_EQ(ParseAihubComputeUnit("COMPUTE_UNIT_GPU"), AihubComputeUnit::kGpu);
  EXPECT_EQ(ParseAihubComputeUnit("UNSPECIFIED"), AihubComputeUnit::kUnspecified);
  EXPECT_EQ(ParseAihubComputeUnit("DSP"), AihubComputeUnit::kOther);
}

TEST(AihubProfile, AlmostAnAihubProfileIsRefusedNamingWhatIsMissing) {
  EXPECT_NE(ErrorOf(R"({"execution_summary": {"estimated_inference_time": 5}})")
                .find("no \"execution_detail\""),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"execution_detail": []})").find("no \"execution_summary\""),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"execution_summary": {"first_load_time": 5}, "execution_detail": []})")
                .find("neither \"estimated_inference_time\""),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"execution_summary": {"estimated_inference_time": 5},
                        "execution_detail": [{"name": "a", "type": "Conv"}]})")
                .find("execution_detail[0]: a layer has name, type and compute_unit; this one "
                      "lacks compute_unit"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"execution_summary": {"estimated_inference_time": -5},
                        "execution_detail": []})")
                .find("is negative"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"execution_summary": {"estimated_inference_time": 5,
                        "inference_memory_peak_range": [1]}, "execution_detail": []})")
                .find("expected [lower, upper] bytes"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"execution_summary": {"estimated_inference_time": 5, "load_time": 1},
                        "execution_detail": []})")
                .find("mixes the tetra_hub keys"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"execution_summary": {"estimated_inference_time": "5"},
                        "execution_detail": []})")
                .find("execution_summary.estimated_inference_time: expected an integer"),
            std::string::npos);
  EXPECT_NE(
      ErrorOf(R"({"execution_summary": {"estimated_inference_time": 5}, "execution_detail": [)")
          .find("mem.json"),
      std::string::npos);
}

TEST(AihubProfile, KeysNotInTheDefinitionAreListed) {
  const AihubProfile p = Parse(R"({"execution_summary": {"estimated_inference_time": 7,
      "future_metric": 3}, "execution_detail": []})");
  EXPECT_EQ(p.unknown_keys, std::vector<std::string>{"future_metric"});
}

// Every prefix of a profile is read or refused with a located error, never
// a crash; the whole file reads.
TEST(AihubProfile, TruncatedAtEveryByteIsALocatedError) {
  std::ifstream in(testing_support::ProfileTestdata("aihub_profile.json"));
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  for (size_t n = 1; n < text.size(); ++n) {
    try {
      Parse(text.substr(0, n));
      ADD_FAILURE() << "a prefix of " << n << " bytes was read";
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "mem.json");
      ASSERT_TRUE(e.byte_offset()) << e.what();
      EXPECT_LE(*e.byte_offset(), n) << e.what();
    }
  }
  EXPECT_EQ(Parse(text).layers.size(), 8u);
}

}  // namespace
}  // namespace htpscope::aihub_profile_test
