// What `htpscope --version` prints.
#pragma once

#include <string>

namespace htpscope::cli {

// "htpscope 0.1.0 (commit 03c9ed7)" or "(commit 03c9ed7-dirty)" for a tree
// with uncommitted changes, "(commit unknown)" built outside git.
std::string VersionText();

}  // namespace htpscope::cli
