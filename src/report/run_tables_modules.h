// The `modules` table of the run's schema: one row per module of the run's
// module tree (docs/modules.md, docs/tables.md).
#pragma once

#include "report/run_tables.h"

namespace htpscope {

RunTable ModulesTable();

}  // namespace htpscope
