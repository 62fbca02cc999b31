// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/planning/layout_plan.h"

namespace napkin {

std::string_view yourLayoutStatusName(YourLayoutStatus status) {
    switch (status) {
    case YourLayoutStatus::ranked:
        return "ranked";
    case YourLayoutStatus::invalid:
        return "invalid";
    case YourLayoutStatus::doesNotFit:
        return "does_not_fit";
    case YourLayoutStatus::notTimed:
        return "not_timed";
    case YourLayoutStatus::otherBatch:
        return "other_global_batch";
    }
    return "invalid";
}

} // namespace napkin
