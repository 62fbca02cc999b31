#include "app/accounting/memory_timeline_section.h"

#include "engine/accounting/memory_timeline.h"

#include <QCoreApplication>

using namespace napkin;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("MemoryTimelineSection", text);
}
QString q(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

MemoryTimelineChartData memoryTimelineChartData(const AccountingInput& in, const AccountingResult& r) {
    const MemoryTimeline timeline = memoryTimeline(in, r);
    MemoryTimelineChartData d;
    d.events.reserve(static_cast<qsizetype>(timeline.events.size()));
    d.phases.reserve(d.events.capacity());
    d.bytes.reserve(d.events.capacity());
    for (const TimelineEvent& e : timeline.events) {
        const StepBytes& b = e.bytes;
        d.events << q(stepEventName(e.event));
        d.phases << q(std::string(stepPhaseName(e.event.phase)));
        d.bytes.push_back(
            {b.parameters, b.gradients, b.masterWeights, b.optimizerState, b.activations, b.temporary});
    }
    d.capacityBytes = r.capacityBytes.value;
    d.sum = {r.memory.parameters.value, r.memory.gradients.value, r.memory.masterWeights.value,
             r.memory.optimizerState.value, r.memory.activations.value};
    return d;
}

QString explainMemoryTimeline(const AccountingInput& in, const AccountingResult& r, ByteUnits units) {
    const MemoryTimeline t = memoryTimeline(in, r);
    const auto bytes = [&](double b) { return q(formatBytes(b, units)).toHtmlEscaped(); };
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
                .arg(q(t.peakFormula).toHtmlEscaped(), bytes(t.peakBytes), relation, bytes(sum),
                     bytes(peak.activations), bytes(r.memory.activations.value), bytes(peak.gradients),
                     bytes(r.memory.gradients.value), bytes(peak.temporary));
    text += tr("<p>Not in the model: the allocator's rounding and cache, fragmentation, the CUDA context, "
               "temporaries inside a layer's backward and an unfused optimizer's temporaries "
               "(docs/memory-timeline.md).</p>");
    return text;
}
