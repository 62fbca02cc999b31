// SPDX-License-Identifier: GPL-3.0-or-later
// FLOPs of one matmul: each of the m·n outputs is k multiply-adds, 2 FLOPs each.
#include "engine/drills/drill_generators.h"

#include "engine/benchmarks/matmul_sweep.h"
#include "engine/numerics/quantity_format.h"

namespace napkin {

using namespace drill_detail;

DrillQuestion matmulFlopsDrill(DrillRandom& dice) {
    static constexpr long kSizes[] = {64, 128, 512, 768, 1024, 2048, 3072, 4096, 8192, 12288, 16384, 50257};
    const MatmulCase shape{dice.pick(kSizes), dice.pick(kSizes), dice.pick(kSizes), BenchDtype::fp32};
    const std::string m = std::to_string(shape.m), n = std::to_string(shape.n), k = std::to_string(shape.k);

    DrillQuestion q;
    q.topic = DrillTopic::matmulFlops;
    q.kind = "flops";
    q.text =
        "How many FLOPs does multiplying a " + m + "×" + k + " matrix by a " + k + "×" + n + " matrix take?";
    q.unit = DrillUnit::flops;
    q.answer = matmulFlops(shape);
    q.answerText = formatExact(q.answer) + " FLOPs (" + formatFlops(q.answer) + ")";
    q.relativeTolerance = 0.005;
    q.formula = "each of the m·n outputs is k multiply-adds = 2·k FLOPs\n2·m·n·k = 2 × " + m + " × " + n +
                " × " + k + " = " + formatExact(q.answer);
    q.page = ScenarioPage::benchmarks;
    q.parameters = {numberParameter("m", static_cast<double>(shape.m)),
                    numberParameter("k", static_cast<double>(shape.k)),
                    numberParameter("n", static_cast<double>(shape.n))};
    return q;
}

} // namespace napkin
