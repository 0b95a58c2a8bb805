// JSON values shared by the reports' schemas.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "analysis/statistics.h"

namespace htpscope {

// The value, or null when it is absent.
template <typename T>
nlohmann::json OptionalJson(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// {"median", "min", "max", "mad", "n"}, or null when there are no samples.
nlohmann::json StatsJson(const std::optional<SampleStats>& stats);

}  // namespace htpscope
