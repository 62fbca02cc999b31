// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/tensor/explain_tensor.h"

#include "engine/numerics/quantity_format.h"
#include "widgets/text/engine_text.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

using namespace napkin;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ExplainTensor", text);
}

} // namespace

std::vector<int64_t> exampleIndex(const TensorLayout& layout) {
    if (layout.numel() == 0)
        return {};
    std::vector<int64_t> index;
    index.reserve(layout.shape.size());
    for (int d = 0; d < layout.dim(); ++d)
        index.push_back(std::min<int64_t>(d + 1, layout.shape[static_cast<std::size_t>(d)] - 1));
    return index;
}

QString explainTensorStep(const TensorEvaluation& evaluation, int row) {
    QString text = tr("<h3>Where an element lives</h3><p>A tensor is a view on a flat storage: shape, "
                      "strides (elements to skip per unit of each index) and a storage offset. Element "
                      "<i>i</i> is at <b>storage offset = offset + Σ index[d]·stride[d]</b>.</p>");
    if (row >= 0 && row < static_cast<int>(evaluation.steps.size())) {
        const TensorStep& step = evaluation.steps[static_cast<std::size_t>(row)];
        const TensorLayout& t = step.layout;
        text += tr("<p><code>%1</code>: shape %2, stride %3, offset %4.</p>")
                    .arg(QString::fromStdString(step.expr).toHtmlEscaped(), tupleText(t.shape),
                         tupleText(t.stride))
                    .arg(t.offset);
        const std::vector<int64_t> index = exampleIndex(t);
        if (!index.empty() || t.dim() == 0)
            text += tr("<p>Element %1 is at storage offset <b>%2</b>.</p>")
                        .arg(tupleText(index),
                             QString::fromStdString(storageOffsetFormula(t, index)).toHtmlEscaped());
        const std::vector<int64_t> contiguous = contiguousStrides(t.shape);
        text +=
            isContiguous(t)
                ? tr("<p>Contiguous: the strides %1 are the row-major ones, stride[d] = Π size[d+1…], so "
                     "<code>view</code> can reinterpret the shape without copying.</p>")
                      .arg(tupleText(t.stride))
                : tr("<p>Not contiguous: the strides %1 differ from the row-major %2, so the elements are "
                     "not in reading order in storage.</p>")
                      .arg(tupleText(t.stride), tupleText(contiguous));
        // A copy that is not row-major can only be clone()'s: contiguous() and reshape() copy row-major.
        if (row > 0 && !step.isView && !isContiguous(t)) {
            const TensorLayout& input = evaluation.steps[static_cast<std::size_t>(row - 1)].layout;
            text +=
                isNonOverlappingAndDense(input)
                    ? tr("<p><code>clone()</code> (<code>torch.preserve_format</code>) keeps the strides %1 "
                         "of its input, which fills a block of storage without gaps or overlaps.</p>")
                          .arg(tupleText(input.stride))
                    : tr("<p><code>clone()</code> (<code>torch.preserve_format</code>) packs the elements "
                         "densely in the order of its input's strides %1: the smallest stride innermost, "
                         "a broadcast (stride 0) dimension in its row-major place. Hence %2, not the "
                         "row-major %3.</p>")
                          .arg(tupleText(input.stride), tupleText(t.stride), tupleText(contiguous));
        }
        const double bytes = static_cast<double>(t.numel() * t.elementBytes);
        text += tr("<p>Storage #%1 holds %2 elements × %3 B = %4. <code>.contiguous()</code> on this tensor "
                   "would copy %5 elements × %3 B = %6.</p>")
                    .arg(t.storageId)
                    .arg(t.storageElements)
                    .arg(t.elementBytes)
                    .arg(QString::fromStdString(formatBytes(static_cast<double>(t.storageBytes()))),
                         QString::number(t.numel()), QString::fromStdString(formatBytes(bytes)));
    }
    if (evaluation.error)
        text += tr("<p><b>Step %1 fails:</b> %2<br>A view only changes shape, strides and offset; when no "
                   "strides "
                   "give the new shape over the same storage, <code>view</code> fails and "
                   "<code>.contiguous()</code> (or <code>reshape</code>) copies first.</p>")
                    .arg(evaluation.error->step)
                    .arg(QString::fromStdString(evaluation.error->message).toHtmlEscaped());
    return text;
}
