#include "report/csv_writer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "base/errors.h"

namespace htpscope::csv_writer_test {
namespace {

std::string Row(std::initializer_list<std::string_view> cells) {
  std::ostringstream out;
  CsvWriter(out).WriteRow(cells);
  return out.str();
}

TEST(CsvWriter, QuotesPerRfc4180) {
  EXPECT_EQ(Row({"a", "b c", ""}), "a,b c,\r\n");
  EXPECT_EQ(Row({"1,000"}), "\"1,000\"\r\n");
  EXPECT_EQ(Row({"say \"hi\""}), "\"say \"\"hi\"\"\"\r\n");
  EXPECT_EQ(Row({"two\nlines", "cr\rhere", "crlf\r\nend"}),
            "\"two\nlines\",\"cr\rhere\",\"crlf\r\nend\"\r\n");
  EXPECT_EQ(Row({}), "\r\n");
}

TEST(CsvWriter, NeutralisesFormulaLeadingCells) {
  EXPECT_EQ(FormatCsvCell("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  EXPECT_EQ(FormatCsvCell("@SUM(1)"), "'@SUM(1)");
  EXPECT_EQ(FormatCsvCell("+cmd|' /C calc'!A0"), "'+cmd|' /C calc'!A0");
  EXPECT_EQ(FormatCsvCell("-2+3"), "'-2+3");
  EXPECT_EQ(FormatCsvCell("\tTAB"), "'\tTAB");
  EXPECT_EQ(FormatCsvCell("\r=1"), "\"'\r=1\"");
  EXPECT_EQ(FormatCsvCell("-"), "'-");
  EXPECT_EQ(FormatCsvCell("a=1"), "a=1");  // only the first character matters
}

TEST(CsvWriter, PlainNumbersStayNumbers) {
  for (std::string_view number :
       {"-1.5", "+3", "-0", "1e-07", "-2.5E+10", "-inf", "+Inf", "nan", "-.5", "7.", "-Infinity"}) {
    EXPECT_TRUE(IsPlainCsvNumber(number)) << number;
    EXPECT_EQ(FormatCsvCell(number), number);
  }
  for (std::string_view text : {"-", "+", "-e5", "-1e", "-1.5x", "--1", "-1-1", "-in", "", "."})
    EXPECT_FALSE(IsPlainCsvNumber(text)) << text;
}

TEST(CsvWriter, StreamsHeaderAndRowsToAFile) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  CsvWriter csv(file, "tmp.csv");
  csv.WriteRow({"name", "value"});
  std::vector<std::string> cells = {"=HYPERLINK(\"x\")", "-1.5"};
  csv.WriteRow(cells);
  EXPECT_EQ(csv.rows_written(), 2u);
  std::rewind(file);
  char buffer[256] = {};
  size_t n = std::fread(buffer, 1, sizeof(buffer), file);
  std::fclose(file);
  EXPECT_EQ(std::string(buffer, n), "name,value\r\n\"'=HYPERLINK(\"\"x\"\")\",-1.5\r\n");
}

TEST(CsvWriter, AFailingDestinationIsAnOutputError) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  CsvWriter csv(out, "out.csv");
  try {
    csv.WriteRow({"a"});
    ADD_FAILURE() << "no error";
  } catch (const OutputError& e) {
    EXPECT_EQ(e.file(), "out.csv");
  }
  std::FILE* full = std::fopen("/dev/full", "w");
  if (full) {
    std::setvbuf(full, nullptr, _IONBF, 0);
    CsvWriter to_full(full, "/dev/full");
    EXPECT_THROW(to_full.WriteRow({"a"}), OutputError);
    std::fclose(full);
  }
}

}  // namespace
}  // namespace htpscope::csv_writer_test
