// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/op_run.h"

#include <initializer_list>

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

void OpRun::repeat(const OpRun& run, double times) {
    if (times <= 0)
        return;
    steps_ += run.steps_;
    const auto at = [&](double plays) { // now, `plays` whole plays and the next one's high-water mark later
        return HeldChange{now_.activations + plays * run.now_.activations + run.peak_.activations,
                          now_.temporary + plays * run.now_.temporary + run.peak_.temporary,
                          now_.gradientParameters + plays * run.now_.gradientParameters +
                              run.peak_.gradientParameters};
    };
    for (const double plays : {0.0, times - 1})
        if (const HeldChange c = at(plays); bytes(c) > peakBytes_) {
            peakBytes_ = bytes(c);
            peak_ = c;
        }
    now_.activations += times * run.now_.activations;
    now_.temporary += times * run.now_.temporary;
    now_.gradientParameters += times * run.now_.gradientParameters;
}

} // namespace napkin
