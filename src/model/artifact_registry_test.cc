#include "model/artifact_registry.h"

#include <gtest/gtest.h>

#include <set>

namespace htpscope::artifact_registry_test {
namespace {

using model_import::ArtifactSpecs;
using model_import::FindArtifactSpec;
using model_import::FindRunDataSpec;
using model_import::RunDataSpecs;

// LoadRun moves bundles in registry order, and the optrace's must come
// first (its string pool becomes the run's): the rows are in RunData order.
TEST(ArtifactRegistry, SpecsAreInRunDataOrderTheOptraceFirst) {
  ASSERT_FALSE(ArtifactSpecs().empty());
  EXPECT_EQ(ArtifactSpecs().front().kind, ArtifactKind::kOptrace);
  for (size_t i = 1; i < ArtifactSpecs().size(); ++i)
    EXPECT_LE(static_cast<int>(ArtifactSpecs()[i - 1].gives),
              static_cast<int>(ArtifactSpecs()[i].gives))
        << ArtifactKindName(ArtifactSpecs()[i].kind);
}

TEST(ArtifactRegistry, EachKindOnceEveryDataWithItsSpecNonArtifactsWithout) {
  std::set<ArtifactKind> kinds;
  for (const auto& spec : ArtifactSpecs()) {
    EXPECT_TRUE(kinds.insert(spec.kind).second) << ArtifactKindName(spec.kind);
    EXPECT_NE(spec.read_and_import, nullptr);
    EXPECT_EQ(FindRunDataSpec(spec.gives).data, spec.gives);
    EXPECT_EQ(FindArtifactSpec(spec.kind), &spec);
  }
  // The four forms of a profile (the viewer's text and CSV, the binary log,
  // an ETDump's QNN delegate events) give one kind of data: a run holds one.
  for (ArtifactKind profile : {ArtifactKind::kProfileText, ArtifactKind::kProfileCsv,
                               ArtifactKind::kQnnProfileLog, ArtifactKind::kEtdump}) {
    EXPECT_EQ(FindArtifactSpec(profile)->gives, RunData::kProfileExecutions);
  }
  for (ArtifactKind other : {ArtifactKind::kOtherJson, ArtifactKind::kUnknown})
    EXPECT_EQ(FindArtifactSpec(other), nullptr) << ArtifactKindName(other);
  // Every kind of data is named once, and what a run misses is said for
  // the HTP artifacts only (device profiles measure other things).
  std::set<RunData> data;
  for (const auto& spec : RunDataSpecs()) {
    EXPECT_TRUE(data.insert(spec.data).second);
    EXPECT_EQ(spec.missing_name == nullptr, spec.device_profile) << spec.second_name;
    EXPECT_EQ(spec.missing_name == nullptr, spec.withholds == nullptr) << spec.second_name;
  }
}

}  // namespace
}  // namespace htpscope::artifact_registry_test
