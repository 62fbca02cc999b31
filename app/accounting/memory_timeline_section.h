// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Memory over one training step on the Accounting page: the timeline chart's data, and the "How is this
// computed?" section that says how the step's peak relates to the napkin sum.
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/allocator/fit_verdict.h"
#include "engine/numerics/quantity_format.h"
#include "widgets/charts/memory_timeline_chart.h"

#include <QString>
#include <QVector>

/// The predicted timeline of one steady step (`timeline`: engine/accounting/memory_timeline.h's
/// memoryTimeline of the same input as `result`), the memory fits is judged against (result.usableBytes,
/// as the memory bar draws it) and the napkin sum's parts.
MemoryTimelineChartData memoryTimelineChartData(const napkin::MemoryTimeline& timeline,
                                                const napkin::AccountingResult& result);

/// HTML: the peak's formula, what is held at the peak against the sum (activations still held,
/// gradients already made, temporaries the sum leaves out), and what the model leaves out.
QString explainMemoryTimeline(const napkin::AccountingInput& input, const napkin::AccountingResult& result,
                              const napkin::MemoryTimeline& timeline, napkin::ByteUnits units);

/// What PyTorch's caching allocator would hold reserved after each event of the steady step
/// (engine/allocator/step_reserved.h, the default PYTORCH_CUDA_ALLOC_CONF), for the chart's line; empty
/// where the step's order is not modelled (phases only) or the simulation gives no figure.
QVector<double> predictedReservedBytes(const napkin::AccountingInput& input,
                                       const napkin::AccountingResult& result,
                                       const napkin::MemoryTimeline& timeline);

/// HTML: what `fits` was judged on (engine/allocator/fit_verdict.h), with its numbers, or why not on reserved.
QString explainFitVerdict(const napkin::FitVerdict& verdict);
