// One dependency a model's author meant between two op groups, as an
// expected-DAG file states it (formats/expected_dag.h reads the file;
// analysis/graph_compare.h compares the edges with the compiled graph).
#pragma once

#include <string>

namespace htpscope {

struct ExpectedEdge {
  std::string from, to;  // op group names, trimmed, never empty
  int line = 0;          // 1-based line of the file
};

}  // namespace htpscope
