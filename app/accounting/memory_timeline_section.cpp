// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/memory_timeline_section.h"

#include "engine/accounting/memory_timeline.h"
#include "engine/accounting/pytorch_eager_step_ops.h"
#include "engine/allocator/step_reserved.h"
#include "widgets/text/engine_text.h"

#include <QCoreApplication>

#include <algorithm>

using namespace napkin;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("MemoryTimelineSection", text);
}

// The update is modelled fused and in place (as Napkin's trainers run it), so it adds nothing; an
// unfused per-tensor update does. For the Cruncher, the largest tensor is a D×D weight, and the lecture's
// AdaGrad line `p.data -= lr * grad / torch.sqrt(g2 + 1e-5)` holds three temporaries of its size at once
// (lr·grad, g2 + 1e-5 and its sqrt; then lr·grad, the sqrt and the quotient): torch 1.13's profiler on
// the CPU shows 3 × 64 B for D = 4.
QString optimizerTemporaries(const AccountingInput& in, const AccountingResult& r, const MemoryTimeline& t,
                             ByteUnits units) {
    const auto bytes = [&](double b) { return toQString(formatBytes(b, units)).toHtmlEscaped(); };
    const auto update = std::find_if(t.events.begin(), t.events.end(), [](const TimelineEvent& e) {
        return e.event.phase == StepPhase::optimizer;
    });
    if (update == t.events.end())
        return {};
    const double atUpdate = update->bytes.total();
    if (!t.optimizerTemporariesFormula.empty()) { // pytorch-eager: torch.optim's update, as it is run
        const QString how =
            in.optimizerImplementation == OptimizerImplementation::singleTensor
                ? tr("one parameter at a time (foreach=False, torch's default on the CPU; measured with "
                     "torch 1.13's profiler)")
            : in.optimizerImplementation == OptimizerImplementation::forEach
                ? tr("whole lists of parameters at once (foreach, torch 2's default on a GPU; measured on an "
                     "H100 with torch 2.11)")
                : tr("by one fused kernel, in place (fused=True)");
        return tr("<p>The optimizer step is torch.optim's update as PyTorch eager runs it, %1, holding "
                  "temporaries beside parameters, gradients and state: %2 (docs/memory-timeline.md). All "
                  "coexist at <b>%3</b>.</p>")
            .arg(how, toQString(t.optimizerTemporariesFormula).toHtmlEscaped(), bytes(atUpdate));
    }
    QString text =
        tr("<p>The optimizer step is modelled as Napkin's trainers run it: fused, in place, element "
           "by element, so it adds no temporaries: parameters, gradients and state coexist at "
           "<b>%1</b>.")
            .arg(bytes(atUpdate));
    if (in.model.kind == ModelKind::cruncher && r.parameters.total > 0) {
        const double d = static_cast<double>(in.model.dim);
        const double largest = d * d * r.memory.parameters.value / r.parameters.total;
        const double unfused = atUpdate + 3 * largest;
        const double sum = r.memory.total.value;
        text += tr(" Written as the lecture writes AdaGrad, <code>p.data -= lr * grad / torch.sqrt(g2 + "
                   "1e-5)</code> one tensor at a time, PyTorch holds three temporaries the size of the "
                   "largest tensor (a D×D weight, %1) at once: %2 + 3 × %1 = <b>%3</b>, %4 the sum %5.")
                    .arg(bytes(largest), bytes(atUpdate), bytes(unfused),
                         unfused > sum   ? tr("above")
                         : unfused < sum ? tr("below")
                                         : tr("equal to"),
                         bytes(sum));
    }
    return text + QStringLiteral("</p>");
}

} // namespace

MemoryTimelineChartData memoryTimelineChartData(const MemoryTimeline& timeline, const AccountingResult& r) {
    MemoryTimelineChartData d;
    d.events.reserve(static_cast<qsizetype>(timeline.events.size()));
    d.phases.reserve(d.events.capacity());
    d.bytes.reserve(d.events.capacity());
    for (const TimelineEvent& e : timeline.events) {
        const StepBytes& b = e.bytes;
        d.events << toQString(stepEventName(e.event));
        d.phases << toQString(std::string(stepPhaseName(e.event.phase)));
        d.bytes.push_back(
            {b.parameters, b.gradients, b.masterWeights, b.optimizerState, b.activations, b.temporary});
    }
    // The line the memory bar draws: what fits is judged against, in the page's basis (the usable memory
    // the driver reports, or the datasheet's in the lecture's convention), so that the two never disagree.
    d.capacityBytes = r.usableBytes.value;
    d.usableCapacity = r.overheads.basis == MemoryBasis::usable;
    d.eventByEvent = r.peakFromTimeline;
    d.sum = {r.memory.parameters.value, r.memory.gradients.value, r.memory.masterWeights.value,
             r.memory.optimizerState.value, r.memory.activations.value};
    return d;
}

QVector<double> predictedReservedBytes(const AccountingInput& in, const AccountingResult& r,
                                       const MemoryTimeline& timeline) {
    if (!r.peakFromTimeline || timeline.events.empty())
        return {};
    const StepReserved reserved =
        stepReserved(in, r, AllocatorConfig{}, 2, &timeline); // the chart's own steady step
    if (!reserved.error.empty() || reserved.reservedBytes.size() != timeline.events.size())
        return {};
    return QVector<double>(reserved.reservedBytes.begin(), reserved.reservedBytes.end());
}

QString explainFitVerdict(const FitVerdict& v) {
    const QString formula = toQString(v.formula).toHtmlEscaped();
    if (v.basis == FitBasis::reserved)
        return tr("<p><b>Fits is judged on reserved memory</b>, what an out-of-memory error follows: the "
                  "simulated allocator's largest reserved total over the step, plus the overheads the "
                  "allocator does not hold, against the usable memory: <code>%1</code>. The same verdict as "
                  "<code>napkin-cli account --json</code>'s <code>fits_verdict</code> "
                  "(docs/memory-timeline.md, \"Reserved memory\").</p>")
            .arg(formula);
    return tr("<p><b>Fits is judged on the allocated peak</b> here: <code>%1</code>.</p>").arg(formula);
}

QString explainMemoryTimeline(const AccountingInput& in, const AccountingResult& r, const MemoryTimeline& t,
                              ByteUnits units) {
    const auto bytes = [&](double b) { return toQString(formatBytes(b, units)).toHtmlEscaped(); };
    QString text = QStringLiteral("<h3>%1</h3>").arg(tr("Memory over one step"));
    text +=
        tr("<p>The memory above is a sum: every component at its largest. One training step (PyTorch's "
           "eager order, <code>zero_grad(set_to_none=True)</code>) never holds all of it at once: "
           "activations pile up through forward and are freed layer by layer in backward while the "
           "gradients appear, and zero_grad frees the gradients. Backward also holds temporaries the "
           "sum leaves out: the model's output, dL/d(output) and the gradients passed between layers.</p>");
    if (t.events.empty())
        return text;
    const StepBytes& peak = t.events[t.peakIndex].bytes;
    const double sum = r.memory.total.value;
    const QString relation = t.peakBytes < sum   ? tr("below")
                             : t.peakBytes > sum ? tr("above")
                                                 : tr("equal to");
    text += tr("<p>Peak: <code>%1</code> (parameters + gradients + master weights + optimizer state + "
               "activations + temporaries): <b>%2</b>, %3 the sum %4. At that moment %5 of the %6 of "
               "activations are held, %7 of the %8 of gradients exist, and %9 of temporaries.</p>")
                .arg(toQString(t.peakFormula).toHtmlEscaped(), bytes(t.peakBytes), relation, bytes(sum),
                     bytes(peak.activations), bytes(r.memory.activations.value), bytes(peak.gradients),
                     bytes(r.memory.gradients.value), bytes(peak.temporary));
    // The definition every page and command share: the peak, not the sum, decides.
    text += tr("<p><b>Fits on allocated</b> judges this peak, because it is what the allocator must hand out "
               "at the step's worst moment: <code>%1</code> — %2. The largest batch is the largest whose peak "
               "fits. Where the simulated allocator applies, the verdict shown is judged on what it would hold "
               "reserved (below).</p>")
                .arg(toQString(r.fitsFormula).toHtmlEscaped(), r.fits ? tr("fits") : tr("does not fit"));
    text += optimizerTemporaries(in, r, t, units);
    if (r.peakFromTimeline) // the chart's dash-dot line (predictedReservedBytes)
        text += tr("<p>The dash-dot line is what PyTorch's caching allocator would hold <b>reserved</b> "
                   "(<code>torch.cuda.memory_reserved()</code>; nvidia-smi shows it plus the CUDA context): "
                   "these events' allocations and frees replayed, over the model's creation, a first and a "
                   "steady step, through a simulation of <code>c10/cuda/CUDACachingAllocator.cpp</code> with "
                   "its default settings. Freed blocks stay cached, so after the first step it holds about "
                   "its highest. Other settings: <code>napkin-cli account … --alloc-conf "
                   "expandable_segments:True --json</code> (<code>reserved_memory</code>; "
                   "docs/memory-timeline.md, \"Reserved memory\").</p>");
    if (isTimelineModelled(in) && eagerStepOpsUnsupported(in, r).empty()) {
        text += tr("<p>This step is followed op by op, in the order PyTorch's eager autograd allocates and "
                   "frees: each layer's intermediates and saved tensors, each backward node's outputs, its "
                   "saved tensors released as it finishes, each gradient kept as it is made. Each event "
                   "shows the largest total inside it, so the peak is exact wherever it falls (each event "
                   "checked against torch's largest running sum inside it on the CPU).</p>");
        text += tr("<p>Not in the areas: the allocator's rounding and cache (the reserved line, where "
                   "drawn), fragmentation, the CUDA context "
                   "(docs/memory-timeline.md).</p>");
        return text;
    }
    text += tr("<p>Not in the areas: the allocator's rounding and cache (the reserved line, where drawn), "
               "fragmentation, the CUDA context, "
               "temporaries inside a layer's backward and an unfused optimizer's temporaries "
               "(docs/memory-timeline.md).</p>");
    return text;
}
