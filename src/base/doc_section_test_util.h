// Test support: the sections of docs/*.md that a registry renders (figures,
// warning codes, the table schema, side inputs), each between the markers
// "<!-- NAME: begin -->" and "<!-- NAME: end -->".
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "base/test_paths.h"

namespace htpscope::testing_support {

// Expects the section `marker` of docs/`doc` to be `rendered`, and returns
// the section as the doc holds it ("" after a failure when a marker is
// missing).  With HTPSCOPE_UPDATE_DOCS set, rewrites the section with
// `rendered` instead and returns that.
inline std::string ExpectDocSection(const std::string& doc, const std::string& marker,
                                    const std::string& rendered) {
  const std::string path = std::string(HTPSCOPE_SOURCE_DIR) + "/docs/" + doc;
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  const std::string begin = "<!-- " + marker + ": begin -->\n",
                    end = "<!-- " + marker + ": end -->";
  const size_t b = text.find(begin), e = text.find(end);
  if (b == std::string::npos || e == std::string::npos || e < b) {
    ADD_FAILURE() << "docs/" << doc << " has no section between \"" << begin << "\" and \"" << end
                  << "\"";
    return "";
  }
  if (std::getenv("HTPSCOPE_UPDATE_DOCS")) {  // regenerate the section instead of checking it
    std::ofstream(path) << text.substr(0, b + begin.size()) << rendered << text.substr(e);
    return rendered;
  }
  const std::string section = text.substr(b + begin.size(), e - b - begin.size());
  EXPECT_EQ(section, rendered) << "update docs/" << doc << " between the " << marker
                               << " markers with the text above";
  return section;
}

}  // namespace htpscope::testing_support
