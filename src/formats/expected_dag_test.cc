#include "formats/expected_dag.h"

#include <gtest/gtest.h>

#include <string>

#include "base/errors.h"

namespace htpscope::expected_dag_test {
namespace {

TEST(ExpectedDag, EdgesTrimmedWithTheirLinesCommentsAndBlankLinesSkipped) {
  auto edges = ParseExpectedDag("expect.txt",
                                "# the intended DAG\n"
                                "Input -> branch_a\n"
                                "\n"
                                "  branch_a->Output   # trailing comment\n"
                                "branch a -> branch b\r\n"
                                "   # only a comment\n"
                                "ghost -> Output");  // no newline at the end
  ASSERT_EQ(edges.size(), 4u);
  EXPECT_EQ(edges[0].from, "Input");
  EXPECT_EQ(edges[0].to, "branch_a");
  EXPECT_EQ(edges[0].line, 2);
  EXPECT_EQ(edges[1].from, "branch_a");
  EXPECT_EQ(edges[1].to, "Output");
  EXPECT_EQ(edges[1].line, 4);
  EXPECT_EQ(edges[2].from, "branch a");  // names may hold spaces
  EXPECT_EQ(edges[2].to, "branch b");
  EXPECT_EQ(edges[2].line, 5);
  EXPECT_EQ(edges[3].from, "ghost");
  EXPECT_EQ(edges[3].line, 7);
  EXPECT_TRUE(ParseExpectedDag("empty.txt", "").empty());
  EXPECT_TRUE(ParseExpectedDag("comments.txt", "# nothing\n\n").empty());
}

TEST(ExpectedDag, SyntaxErrorsNameTheFileAndLine) {
  try {
    ParseExpectedDag("dag.txt", "a -> b\nc d\n");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "dag.txt");
    EXPECT_EQ(e.line(), 2u);
    EXPECT_EQ(std::string(e.what()), "dag.txt:2: expected one edge \"A -> B\", got \"c d\"");
  }
  auto problem = [](const std::string& text) {
    try {
      ParseExpectedDag("d", text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(problem("a -> "), "d:1: an edge needs a name on both sides of \"->\"");
  EXPECT_EQ(problem("\n-> b"), "d:2: an edge needs a name on both sides of \"->\"");
  EXPECT_EQ(problem("a -> a"), "d:1: edge from \"a\" to itself");
  EXPECT_EQ(problem("a -> b -> c"), "d:1: expected one edge \"A -> B\", got \"a -> b -> c\"");
}

}  // namespace
}  // namespace htpscope::expected_dag_test
