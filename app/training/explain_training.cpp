// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/training/explain_training.h"

#include <QCoreApplication>

using napkin::TrainingLesson;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainTraining", text);
}

} // namespace

QString explainTraining(TrainingLesson lesson) {
    switch (lesson) {
    case TrainingLesson::init:
        return tr("<h3>Activation std after each layer</h3>"
                  "<p>A batch x of B rows, each ~ N(0, 1)<sup>D</sup>, goes through L bias-free D×D layers "
                  "h<sub>l</sub> = h<sub>l−1</sub>·W<sub>l</sub>. Each output is a sum of D products, so its "
                  "variance is D·Var(W)·Var(h<sub>l−1</sub>).</p><table>"
                  "<tr><td>W ~ N(0, 1)</td><td><code>std(h_l) = √D · std(h_l−1)</code></td>"
                  "<td>grows as D<sup>l/2</sup>: fp32 overflows (3.4e38) after a few dozen layers</td></tr>"
                  "<tr><td>W ~ N(0, 1)/√fan_in</td><td><code>std(h_l) = std(h_l−1)</code></td>"
                  "<td>the lecture's fix: stays near 1</td></tr>"
                  "<tr><td>trunc ±3σ, then /√fan_in</td><td><code>std(h_l) = 0.98658 · std(h_l−1)</code></td>"
                  "<td>√(Var of N(0, 1) cut at ±3) = √0.973337: shrinks slowly</td></tr></table>"
                  "<p>The measured std is the population std of all B·D values, computed in double.</p>");
    case TrainingLesson::determinism:
        return tr(
            "<h3>Where the randomness comes from</h3>"
            "<p>Each source has its own seed: the initial weights (N(0, 1)/√fan_in), the order the "
            "examples are visited in (a shuffle per epoch) and the dataset itself. Two runs with equal "
            "seeds give bit-identical losses; the checksums (FNV-1a of the weights' and the dataset's "
            "bytes) show which inputs differ.</p>"
            "<p>Changing only the data-order seed changes the path, not where it ends: the final losses "
            "are close but not equal.</p>");
    case TrainingLesson::data:
        return tr(
            "<h3>get_batch from a memory-mapped token file</h3>"
            "<p>The file is N tokens of uint16 (2 bytes) or int32 (4 bytes), no header, mapped rather "
            "than read. A batch draws B start offsets uniformly in [0, N − L) "
            "(<code>torch.randint(len(data) − L, (B,))</code>) and copies B windows of L tokens: "
            "x = data[i : i + L], y = data[i + 1 : i + L + 1].</p>"
            "<p>Bytes read per batch ≈ B · ⌈L · bytes/token / page⌉ pages; the resident size before and "
            "after (mincore) shows that only those pages came from disk.</p>");
    case TrainingLesson::mixedPrecision:
        return tr(
            "<h3>Rounding and loss scaling</h3>"
            "<p>Every value is rounded through the format's exact codec (round to nearest even). "
            "An update w − η·g is lost when |η·g| is below half a step of w's format (bf16 keeps 8 "
            "significant bits: 2<sup>−8</sup>·|w|); fp32 master weights keep it.</p>"
            "<p>fp16's smallest subnormal is 2<sup>−24</sup> ≈ 6e−8: smaller gradients flush to 0 "
            "(counted as underflows). Loss scaling multiplies the loss by s (65536 to start), so every "
            "gradient by s, and divides the update by s; a step whose gradients hold inf or NaN is "
            "skipped and s halves, and s doubles after a run of good steps (PyTorch's GradScaler).</p>");
    }
    return {};
}
