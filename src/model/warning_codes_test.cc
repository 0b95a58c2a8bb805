#include "model/warning_codes.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "base/doc_section_test_util.h"
#include "model/tables.h"

namespace htpscope::warning_codes_test {
namespace {

// A warning is made from a registry entry only: a code given as a string
// does not compile.
// (Brace initialisation: clang before 16 has no parenthesised aggregate
// initialisation, so std::is_constructible says false for an aggregate.)
template <typename Code>
concept WarningRowFrom = requires(Code code, std::string message) {
  WarningRow{code, message};
};
static_assert(WarningRowFrom<WarningCode>);
static_assert(!WarningRowFrom<const char*>);
static_assert(!WarningRowFrom<std::string>);
static_assert(WarningName(WarningCode::partial_qhas) == "partial_qhas");
static_assert(WarningCodeNamed("partial_qhas") == WarningCode::partial_qhas);

TEST(WarningCodes, EachEntryIsAtItsCodesIndexAndItsNameLeadsBackToIt) {
  ASSERT_EQ(kWarningCodeCount, 21u);  // the codes of today; a new one adds its entry here
  for (size_t i = 0; i < kWarningCodeCount; ++i) {
    const WarningCodeInfo& info = kWarningCodes[i];
    EXPECT_EQ(static_cast<size_t>(info.code), i) << info.name;
    EXPECT_EQ(&WarningInfo(info.code), &info) << info.name;
    EXPECT_EQ(WarningName(info.code), info.name);
    EXPECT_EQ(WarningCodeNamed(info.name), info.code) << info.name;
  }
  EXPECT_EQ(WarningCodeNamed("partial"), std::nullopt);
  EXPECT_EQ(WarningCodeNamed(""), std::nullopt);
  EXPECT_EQ(WarningCodeNamed("Partial_QHAS"), std::nullopt);
}

TEST(WarningCodes, NamesAreUniqueSnakeCaseAndDescriptionsOneTableCell) {
  std::set<std::string_view> names;
  for (const WarningCodeInfo& info : kWarningCodes) {
    EXPECT_TRUE(names.insert(info.name).second) << "twice: " << info.name;
    ASSERT_FALSE(info.name.empty());
    EXPECT_TRUE(info.name.front() >= 'a' && info.name.front() <= 'z') << info.name;
    for (char c : info.name) EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '_') << info.name;
    EXPECT_GE(info.description.size(), 20u) << info.name;
    EXPECT_EQ(info.description.find_first_of("|\n"), std::string_view::npos) << info.name;
    EXPECT_NE(SeverityName(info.severity), "?") << info.name;
    EXPECT_NE(SourceName(info.source), "?") << info.name;
  }
  EXPECT_EQ(names.size(), kWarningCodeCount);
}

TEST(WarningCodes, SomeCodesKeepTheirSeverityAndSource) {
  EXPECT_EQ(WarningInfo(WarningCode::partial_qhas).severity, WarningSeverity::kDataLoss);
  EXPECT_EQ(WarningInfo(WarningCode::partial_qhas).source, WarningSource::kJoin);
  EXPECT_EQ(WarningInfo(WarningCode::reader).source, WarningSource::kReader);
  EXPECT_EQ(WarningInfo(WarningCode::cold_only).severity, WarningSeverity::kInfo);
  EXPECT_EQ(WarningInfo(WarningCode::cold_only).source, WarningSource::kAnalysis);
  EXPECT_EQ(WarningInfo(WarningCode::cross_check_mismatch).severity, WarningSeverity::kWarning);
  EXPECT_EQ(SeverityName(WarningSeverity::kDataLoss), "data-loss");
  EXPECT_EQ(SourceName(WarningSource::kImport), "import");
}

// docs/errors.md's list of warning codes, as the registry declares them.
std::string WarningCodesMarkdown() {
  std::string out = "| severity | meaning |\n|---|---|\n";
  for (auto s : {WarningSeverity::kInfo, WarningSeverity::kWarning, WarningSeverity::kDataLoss})
    out += fmt::format("| {} | {} |\n", SeverityName(s), SeverityMeaning(s));
  out += "\n| source | where it is noticed |\n|---|---|\n";
  for (auto s : {WarningSource::kInput, WarningSource::kReader, WarningSource::kImport,
                 WarningSource::kJoin, WarningSource::kAnalysis})
    out += fmt::format("| {} | {} |\n", SourceName(s), SourceMeaning(s));
  out += "\n| code | severity | source | when |\n|---|---|---|---|\n";
  for (const WarningCodeInfo& info : kWarningCodes)
    out += fmt::format("| `{}` | {} | {} | {} |\n", info.name, SeverityName(info.severity),
                       SourceName(info.source), info.description);
  return out;
}

TEST(WarningCodes, DocsListTheRegistry) {
  testing_support::ExpectDocSection("errors.md", "warning codes", WarningCodesMarkdown());
}

}  // namespace
}  // namespace htpscope::warning_codes_test
