// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/inference/inference_overheads.h"

#include "engine/accounting/accounting.h"
#include "engine/inference/inference_accounting.h"
#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

} // namespace

MemoryOverheads inferenceOverheads(const InferenceInput& in, const GpuSpec& gpu, double peakBytes) {
    // Training's ledger of a stand-in with the same GPU, one tensor-parallel group of N and the tensors'
    // peak (a dense model: no saved-tensor ledger, no fp8 recipe), then serving's differences.
    AccountingInput proxy;
    proxy.model.kind = ModelKind::dense;
    proxy.model.parameters = 1;
    proxy.gpu = in.gpu;
    proxy.gpus = in.gpus;
    proxy.parallel.tp = in.gpus;
    proxy.overheads = in.overheads;
    proxy.overheads.allocatorRounding = false;
    AccountingResult stand;
    stand.peakMemory.value = peakBytes;
    stand.activationsModelled = false;
    MemoryOverheads o = memoryOverheads(proxy, gpu, stand);
    if (o.lines.empty()) // a ValuesOnly scope: numbers only, training's two handles kept
        return o;
    const bool usable = o.basis == MemoryBasis::usable;
    o.totalBytes = o.fixedBytes = 0;
    for (OverheadLine& l : o.lines) {
        if (l.kind == OverheadKind::cublasWorkspace || l.kind == OverheadKind::cublasLtWorkspace) {
            if (l.measured) {
                l.bytes /= 2;
                l.formula = "1 handle (serving runs no autograd backward thread) × " + n(l.bytes) + " = " +
                            n(l.bytes) + " B";
            }
        } else if (l.kind == OverheadKind::allocatorRounding) {
            l.enabled = in.overheads.allocatorRounding;
            l.measured = false;
            l.bytes = 0;
            l.formula = "serving's tensors (weights, KV-cache blocks) are not enumerated: not counted";
        } else if (l.kind == OverheadKind::fragmentation) {
            l.formula = n(in.overheads.fragmentation) + " × peak = " + n(in.overheads.fragmentation) + " × " +
                        n(peakBytes) + " = " + n(l.bytes) + " B";
        }
        l.counted = usable && l.enabled && l.measured;
        if (!l.counted)
            continue;
        o.totalBytes += l.bytes;
        if (l.kind != OverheadKind::fragmentation)
            o.fixedBytes += l.bytes;
    }
    o.roundingBytes = 0;
    return o;
}

} // namespace napkin
