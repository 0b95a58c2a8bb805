// The expected-DAG text file: the dependencies a model's author meant between
// op groups, which the `graph` command compares with the compiled graph; one
// edge "A -> B" per line over group names, '#' starts a comment, blank lines
// are skipped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/expected_edge.h"

namespace htpscope {

// The edges of `text` (the file `path`'s content) in file order.  Throws
// InputError naming `path` and the line of a malformed entry: no "->" or
// more than one, a name missing on either side, an edge from a name to
// itself.
std::vector<ExpectedEdge> ParseExpectedDag(const std::string& path, std::string_view text);

}  // namespace htpscope
