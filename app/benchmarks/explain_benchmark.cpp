// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/benchmarks/explain_benchmark.h"

#include "engine/numerics/quantity_format.h"
#include "widgets/text/engine_text.h"

#include <QCoreApplication>

using namespace napkin;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainBenchmark", text);
}

} // namespace

const MatmulResult* exampleMatmulResult(const MatmulSweep& sweep) {
    const MatmulResult* best = nullptr;
    for (const MatmulResult& r : sweep.results)
        if (r.ok && r.mfu && r.timing.medianSeconds > 0 && (!best || r.flops > best->flops))
            best = &r;
    return best;
}

QString explainBenchmarks(const std::optional<MatmulSweep>& sweep) {
    QString text = tr("<h3>FLOPs, FLOP/s and MFU</h3><p>C[m×n] = A[m×k]·B[k×n] costs <b>2·m·n·k</b> FLOPs (k "
                      "multiplies and k adds per output). Achieved FLOP/s = FLOPs ÷ median seconds per GEMM. "
                      "<b>MFU = achieved FLOP/s ÷ promised peak FLOP/s</b> of the device for that type.</p>");
    const MatmulResult* r = sweep ? exampleMatmulResult(*sweep) : nullptr;
    if (!r)
        return text + tr("<p>Run a sweep to see these formulas with measured numbers.</p>");
    const MatmulCase& c = r->shape;
    text +=
        tr("<p>%1, n = %2: FLOPs = 2 × %3 × %4 × %5 = %6<br>achieved = %6 / %7 s = %8<br>MFU = %8 / %9 = "
           "<b>%10</b></p>")
            .arg(QString::fromStdString(std::string(benchDtypeName(c.dtype))))
            .arg(c.n)
            .arg(c.m)
            .arg(c.n)
            .arg(c.k)
            .arg(QString::fromStdString(formatExact(r->flops)), numberText(r->timing.medianSeconds),
                 QString::fromStdString(formatFlops(r->flopsPerSecond, true)),
                 QString::fromStdString(formatFlops(*r->promisedFlopsPerSecond, true)), numberText(*r->mfu));
    text += tr(
        "<p>Training MFU is the same ratio for a whole step: (6·N·tokens per second) ÷ (GPUs · peak).</p>");
    return text;
}
