#include "engine/accounting/op_run.h"

namespace napkin {

void OpRun::change(HeldComponent component, double amount) {
    ++steps_;
    switch (component) {
    case HeldComponent::activations:
        now_.activations += amount;
        break;
    case HeldComponent::temporary:
        now_.temporary += amount;
        break;
    case HeldComponent::gradients:
        now_.gradientParameters += amount;
        break;
    }
}

void OpRun::allocate(HeldComponent component, double amount) {
    change(component, amount);
    // Only an allocation can raise the total; the first largest is kept, as peakEventIndex() keeps it.
    if (const double total = bytes(now_); total > peakBytes_) {
        peakBytes_ = total;
        peak_ = now_;
    }
}

} // namespace napkin
