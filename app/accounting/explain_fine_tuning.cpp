// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/explain_fine_tuning.h"

#include "app/accounting/explain_html.h"

#include <QCoreApplication>

using namespace napkin;

namespace {

using explain_html::code;
using explain_html::heading;
using explain_html::q;

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainFineTuning", text);
}

} // namespace

QString explainFineTuning(const AccountingInput& in, const AccountingResult& r, ByteUnits units) {
    if (!r.fineTune)
        return {};
    const FineTuneMemory& f = *r.fineTune;
    const FineTuning& ft = in.fineTuning;
    QString text = heading(tr("Fine-tuning: %1").arg(q(std::string(fineTuneMethodName(ft.method)))));
    text += tr("<p>Trainable parameters: <b>%1</b> of %2 (%3)<br>%4</p>")
                .arg(q(formatExact(r.trainableParameters)), q(formatExact(f.allParameters.value)),
                     q(formatShortest(100 * r.trainableParameters / f.allParameters.value) + " %"),
                     code(f.trainableParameters.formula));
    if (hasAdapters(ft)) {
        text += tr("<p>Only the adapters get gradients, master weights and optimizer state. The frozen base "
                   "is stored as %1: <b>%2</b> = %3</p>")
                    .arg(q(f.frozenWeightFormat), q(formatBytes(f.frozenWeightBytes.value, units)),
                         code(f.frozenWeightBytes.formula));
        text += tr("<p>FLOPs are not 6·N·T: a frozen matrix needs no weight gradient, so backward is one "
                   "pass per frozen matmul (dL/dx) plus the adapters' own.<br>%1</p>")
                    .arg(code(r.flopsPerStep.backwardFormula));
        text += tr("<p>Every frozen layer keeps its activations: backward passes through it to reach the "
                   "adapters below. Each adapter adds its r-wide x·A per token (the <i>LoRA x·A</i> row of "
                   "the activation ledger).</p>");
    }
    if (ft.offload != Offload::none) {
        text += tr("<p>Offloaded to the host: <b>%1</b> = %2<br>Host link per step: to the host %3, to the "
                   "GPU %4.</p>")
                    .arg(q(formatBytes(f.hostBytes.value, units)), code(f.hostBytes.formula),
                         code(f.linkBytesToHost.formula), code(f.linkBytesToGpu.formula));
        if (r.hostLinkSecondsPerStep && r.computeSecondsPerStep)
            text += tr("<p>Step: compute %1 against the link %2; the longer one sets the pace.</p>")
                        .arg(code(r.computeSecondsPerStep->formula), code(r.hostLinkSecondsPerStep->formula));
    }
    return text;
}
