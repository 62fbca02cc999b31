// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The step's predicted time on the Accounting page: the answer row "Step time (predicted)" beside the
// assumed MFU, and its "How is this computed?" section, both from the engine's step-time model
// (engine/steptime), the one `napkin-cli account` prints.
#include "engine/steptime/step_time.h"

#include <QString>

struct StepTimeAnswer {
    QString value;   ///< "20.94 s per step of 2.10e6 tokens · MFU 0.105 (assumed 0.5)", or "— not predicted: …"
    QString formula; ///< the MFU's formula, the seconds by what bounds them, the profile's source
};

StepTimeAnswer stepTimeAnswer(const napkin::StepTime& stepTime, double assumedMfu);

/// The step's time ledger, its largest rows first, with what the model leaves out.
QString explainStepTime(const napkin::StepTime& stepTime, double assumedMfu);
