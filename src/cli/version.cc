#include "cli/version.h"

#include "htpscope_git_version.h"

namespace htpscope::cli {

std::string VersionText() {
  return std::string("htpscope ") + HTPSCOPE_VERSION + " (commit " + HTPSCOPE_GIT_DESCRIBE + ")";
}

}  // namespace htpscope::cli
