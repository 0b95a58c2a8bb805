#include "report/json_values.h"

namespace htpscope {

nlohmann::json StatsJson(const std::optional<SampleStats>& stats) {
  if (!stats) return nullptr;
  return nlohmann::json{{"median", stats->median},
                        {"min", stats->min},
                        {"max", stats->max},
                        {"mad", stats->mad},
                        {"n", stats->n}};
}

}  // namespace htpscope
