// A view's part of the run's missing list: the rows of Run::missing (the
// join's list of artifacts not given and what each withholds, named by the
// artifact registry) for the kinds of data the view reads, so every command
// names a missing artifact, and what it withholds, in the same words.
#pragma once

#include <initializer_list>
#include <vector>

#include "model/run.h"

namespace htpscope {

// The rows of `run.missing` that name the artifact of one of `data`, in
// run.missing's order; none for data the run gives, or when the run has no
// missing list (a run of device profiles only).  Never throws.
std::vector<MissingRow> MissingRowsOf(const Run& run, std::initializer_list<RunData> data);

}  // namespace htpscope
