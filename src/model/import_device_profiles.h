// Importing the profiles of model/device_profiles.h from their readers.
#pragma once

#include "formats/aihub_profile.h"
#include "formats/genie_profile.h"
#include "model/device_profiles.h"

namespace htpscope::model_import {

// The AI Hub profile's tables: one stage row per stage (compile, first_load,
// warm_load, inference), the all_*_times samples, the layers in order.
AihubProfileTables ImportAihubProfile(AihubProfile&& profile);

// The Genie profile's events in component order, each component's events
// in file order, with their metrics.
GenieProfileTables ImportGenieProfile(GenieProfile&& profile);

}  // namespace htpscope::model_import
