#include "formats/expected_dag.h"

#include <fmt/format.h>

#include <optional>
#include <utility>

#include "base/errors.h"
#include "base/text_util.h"

namespace htpscope {

std::vector<ExpectedEdge> ParseExpectedDag(const std::string& path, std::string_view text) {
  std::vector<ExpectedEdge> out;
  int line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    if (size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::string trimmed(Trim(line));
    if (trimmed.empty()) continue;
    size_t arrow = trimmed.find("->");
    if (arrow == std::string::npos || trimmed.find("->", arrow + 2) != std::string::npos)
      throw InputError(path, fmt::format("expected one edge \"A -> B\", got \"{}\"", trimmed),
                       std::nullopt, line_no);
    ExpectedEdge e{std::string(Trim(std::string_view(trimmed).substr(0, arrow))),
                   std::string(Trim(std::string_view(trimmed).substr(arrow + 2))), line_no};
    if (e.from.empty() || e.to.empty())
      throw InputError(path, "an edge needs a name on both sides of \"->\"", std::nullopt, line_no);
    if (e.from == e.to)
      throw InputError(path, fmt::format("edge from \"{}\" to itself", e.from), std::nullopt,
                       line_no);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace htpscope
