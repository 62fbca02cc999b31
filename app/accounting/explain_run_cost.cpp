// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/explain_run_cost.h"

#include "app/accounting/explain_html.h"
#include "app/hardware/session_gpu_catalog.h"
#include "engine/hardware/gpu_capabilities.h"

#include <QCoreApplication>

using namespace napkin;
using namespace explain_html;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainRunCost", text);
}

} // namespace

QString explainRunCost(const AccountingInput& in, const AccountingResult& r) {
    if (!r.runCost)
        return {};
    const RunCost& c = *r.runCost;
    QString text = heading(tr("Cost, energy and carbon"));
    text += tr("<p><b>GPU-hours</b> = GPUs × training seconds / 3600 = %1</p>").arg(code(c.gpuHours.formula));
    if (c.dollars)
        text +=
            tr("<p><b>Cost</b> = GPU-hours × your price per GPU-hour = %1</p>").arg(code(c.dollars->formula));
    else
        text +=
            tr("<p><b>Cost</b>: give a price per GPU-hour (Cost and energy). Napkin has no default price: "
               "cloud prices differ by provider, region and commitment, and change.</p>");
    if (c.energyJoules) {
        text += tr("<p><b>Power</b> per GPU = TDP × power fraction × PUE = %1</p>")
                    .arg(code(c.powerWatts->formula));
        text += tr("<p><b>Energy</b> = GPU-hours × power = %1</p>").arg(code(c.energyJoules->formula));
        text +=
            tr("<p><b>Emissions</b> = energy × grid intensity = %1</p>").arg(code(c.emissionsKg->formula));
        text +=
            tr("<p>The method of Llama 2's model card: GPU hours × power per GPU (\"peak power capacity per "
               "GPU device ... adjusted for power usage efficiency\") → tCO2eq; with its 184,320 GPU-hours "
               "at 400 W and the intensity its 7B row implies, Napkin gives its 31.22 t.</p>");
    } else {
        text += tr("<p>%1</p>").arg(q(c.missing));
    }
    (void)in;
    return text;
}

QString explainGpuCapabilities(const AccountingInput& in) {
    const GpuSpec* gpu = sessionGpuCatalog().find(in.gpu);
    if (!gpu)
        return {};
    QString text = heading(tr("What the %1 can and cannot do").arg(q(gpu->id)));
    if (!gpu->architecture.empty())
        text += tr("<p>Architecture: %1%2 (%3)</p>")
                    .arg(q(gpu->architecture),
                         gpu->computeCapability.empty()
                             ? QString()
                             : tr(", compute capability %1").arg(q(gpu->computeCapability)),
                         q(gpu->architectureSource));
    if (gpu->tdpWatts)
        text += tr("<p>TDP %1 W (%2)</p>").arg(n(*gpu->tdpWatts), q(gpu->tdpSource));
    else
        text += tr("<p>No source in the catalog gives this part's TDP, so energy is not answered.</p>");
    if (!gpu->memoryNote.empty())
        text += tr("<p>Memory: %1</p>").arg(q(gpu->memoryNote));
    text +=
        tr("<p>The rules: bf16 tensor cores and tf32 came with Ampere (compute capability 8.0) — before it "
           "bf16 matmuls are emulated at the fp32 rate and fp16 with loss scaling is the fast path; fp8 "
           "needs Ada Lovelace or Hopper (8.9+); FlashAttention 2 needs Ampere, so on older parts "
           "attention falls back to the eager kernel, which keeps the a·s² scores.</p>");
    return text;
}
