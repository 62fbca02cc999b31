// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/fine_tuning_answers.h"

#include "engine/accounting/frozen_layers.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

} // namespace

// Offloading: one step's traffic over the host link against its compute at the MFU.
void addHostLinkTime(AccountingResult& r, const AccountingInput& in, const GpuSpec& gpu, const StepFlops& f) {
    if (!r.fineTune || in.fineTuning.offload == Offload::none || !r.timeUnavailable.empty())
        return; // no offload, or no peak to time the compute against (accounting.h: timeUnavailable)
    const double compute = (f.forward + f.backward) / (r.densePeakFlopsPerSecond.value * in.mfu);
    r.computeSecondsPerStep = Quantity{
        compute, "model FLOPs per step / (peak × MFU) = " + n(f.forward + f.backward) + " / (" +
                     n(r.densePeakFlopsPerSecond.value) + " × " + n(in.mfu) + ") = " + n(compute) + " s"};
    if (!gpu.hostLinkBytesPerSecondPerDirection) {
        r.notes.push_back("the catalog gives no host-link figure for the " + gpu.id +
                          ": the offload's transfer time is not known and the time assumes compute alone");
        return;
    }
    const double link = *gpu.hostLinkBytesPerSecondPerDirection;
    const double toHost = r.fineTune->linkBytesToHost.value, toGpu = r.fineTune->linkBytesToGpu.value;
    const double seconds = std::max(toHost, toGpu) / link;
    r.hostLinkSecondsPerStep =
        Quantity{seconds, "max(to host, to GPU) / host link = max(" + n(toHost) + ", " + n(toGpu) + ") B / " +
                              n(link) + " B/s per direction = " + n(seconds) + " s"};
}

void addFineTuneNotes(AccountingResult& r, const AccountingInput& in) {
    if (!r.fineTune)
        return;
    const FineTuning& ft = in.fineTuning;
    if (hasAdapters(ft))
        r.notes.push_back(std::string(fineTuneMethodName(ft.method)) + ": " +
                          formatExact(r.trainableParameters) + " trainable of " +
                          formatExact(r.fineTune->allParameters.value) +
                          "; the frozen layers keep their activations, since backward passes through every "
                          "layer to reach the adapters below; FLOPs are not 6·N·T (no weight gradient for "
                          "a frozen matrix)");
    if (!ft.frozenLayers.empty())
        r.notes.push_back(
            "layers " + frozenLayersText(ft.frozenLayers) + " frozen: " + formatExact(r.trainableParameters) +
            " trainable of " + formatExact(r.parameters.total) +
            "; backward ends at the lowest layer that trains, and a frozen layer keeps no input "
            "(passing back through y = x·W with W frozen needs W alone)");
    if (ft.method == FineTuneMethod::qlora)
        r.notes.emplace_back("qlora: each NF4 matrix is dequantised to the compute dtype as it is used; that "
                             "one-matrix temporary is not in the ledger");
    if (ft.offload != Offload::none)
        r.notes.emplace_back(
            "offload: the GPU keeps its gradients until the step and sends them to the host, "
            "which updates and sends the weights back (ZeRO-Offload); host memory is "
            "host_memory_bytes");
}

} // namespace napkin
