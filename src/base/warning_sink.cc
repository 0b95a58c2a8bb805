#include "base/warning_sink.h"

#include <fmt/format.h>

namespace htpscope {

void WarningSink::Add(std::string message) {
  if (shown_ < kMaxWarningsShown) {
    out_->push_back(std::move(message));
    ++shown_;
  } else {
    ++dropped_;
  }
}

void WarningSink::Finish() {
  if (dropped_ > 0) out_->push_back(MoreWarningsNotShown(dropped_));
  dropped_ = 0;
}

std::string MoreWarningsNotShown(size_t dropped) {
  return fmt::format("{} more warnings not shown", dropped);
}

}  // namespace htpscope
