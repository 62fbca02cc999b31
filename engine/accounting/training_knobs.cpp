// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/training_knobs.h"

#include <array>
#include <stdexcept>
#include <string>

namespace napkin {

std::span<const NumberKnob<AccountingInput>> trainingKnobs() {
    using A = AccountingInput;
    static const std::array<NumberKnob<A>, 4> knobs{{
        {"batch",
         "--batch",
         "micro-batch: sequences (examples) per model replica (default 1)",
         {1, 1e9, false, "", false, true, "must be a whole number from 1 to 1.00e9"},
         &A::batch,
         nullptr,
         {"&Batch:", 1, 0, "Sequences (examples) each GPU processes per step."}},
        // The scenario keeps the tokens shown while totals are off under this key (count_tokens says
        // whether they count); the command line gives them only when they count.
        {"training_tokens",
         "--tokens",
         "training tokens (15T); enables training FLOPs and time",
         {0, 1e18, true, "", false, false, "must be in (0, 1e18]"},
         nullptr,
         &A::trainingTokens,
         {"Toke&ns:", 1, 0, "Total tokens trained on; 15T is written 15T.", "Count training &totals", 1e12}},
        {"gpus",
         "--gpus",
         "number of GPUs (default 1)",
         {1, 1e7, false, "", false, true, "must be a whole number from 1 to 1.00e7"},
         &A::gpus,
         nullptr,
         {"GPU &count:", 1, 0, "Number of GPUs training data-parallel."}},
        {"mfu",
         "--mfu",
         "model FLOPs utilisation in (0, 1], or 'predicted': the step time's (default 0.5)",
         {0, 1, true, ""},
         &A::mfu,
         nullptr,
         {"MF&U:", 0.05, 2,
          "Model FLOPs utilisation: the fraction of the dense peak the training actually achieves."}},
    }};
    return knobs;
}

const NumberKnob<AccountingInput>& trainingKnob(std::string_view key) {
    if (const NumberKnob<AccountingInput>* k = findNumberKnob(trainingKnobs(), key))
        return *k;
    throw std::logic_error("no training knob " + std::string(key));
}

} // namespace napkin
