// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The setup options of `napkin-cli account` (model, batch, precision, optimizer, GPU, layout, ZeRO,
// recompute, fine-tuning): one parser, so `account` and `compare` read a setup the same way and refuse it
// with the same words.
#include "cli/fine_tune_options.h"
#include "cli/model_options.h"
#include "cli/number_knob_options.h"
#include "cli/overhead_options.h"
#include "engine/accounting/accounting.h"
#include "engine/hardware/gpu_catalog.h"

#include <string>

namespace CLI {
class App;
}

namespace napkin::cli {

/// Raw option text; empty: not given, so the preset's value (or the default) stands.
struct AccountOptions {
    ModelOptions model;
    FineTuneOptions fineTune;
    OverheadOptions overheads;
    NumberKnobTexts layout; // tp, pp, cp, ep, micro-batches, v: engine/accounting/parallel_layout_knobs.h
    bool sp = false;
    std::string batch, tokens, precision, optimizer, optimizerImplementation, gpu, gpus, mfu, zero, recompute,
        attention, gpuCatalog;
    bool fp32Gradients = false;
    bool twoGradientCopies = false, fp32Reduce = false; // sharding_options.h
    std::string gatheredLayers, prefetchLayers, shardGroup;
    NumberKnobTexts cost;               // run cost: the knobs of engine/accounting/run_cost_knobs.h
    std::string hardwareProfile;        // step time (cli/step_time_option.h): a profile file
    bool noDataParallelOverlap = false; // step time: data-parallel collectives on the critical path
};

/// Registers the model options, then --batch, --tokens, --precision, --fp32-grads, --optimizer, --gpu,
/// --gpu-catalog, --gpus, --mfu, --zero, the layout's (--tp, --pp, --sp, --cp, --ep, --microbatches,
/// --virtual-stages), --recompute, --attention, the sharding options (--two-gradient-copies,
/// --gathered-layers, --prefetch-layers, --fp32-reduce, --shard-group), the fine-tuning options, the
/// overhead ledger's (overhead_options.h) and the run cost's --price-per-gpu-hour, --power-fraction, --pue
/// and --grid-intensity on `sub`, in that order.
void addAccountOptions(CLI::App& sub, AccountOptions& o);

/// The setup preset's input (or the defaults), then every option given on top. Throws UsageError.
AccountingInput toAccountingInput(const AccountOptions& o);

/// The built-in catalog, plus --gpu-catalog's GPUs. Throws UsageError naming the option.
GpuCatalog catalogFor(const AccountOptions& o);

/// Throws UsageError naming the option when `input` does not pass validate() against `catalog`.
void checkAccountingInput(const AccountingInput& input, const GpuCatalog& catalog);

} // namespace napkin::cli
