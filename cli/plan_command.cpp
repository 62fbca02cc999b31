// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/plan_command.h"

#include "cli/account_options.h"
#include "cli/config_option.h"
#include "cli/number_option.h"
#include "cli/plan_text.h"
#include "cli/step_time_option.h"
#include "engine/accounting/capability_rules.h"
#include "engine/numerics/quantity_format.h"
#include "engine/planning/layout_search.h"
#include "engine/report/json_values.h"
#include "engine/report/plan_report.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace napkin::cli {
namespace {

struct PlanCommandOptions {
    AccountOptions setup;
    bool json = false;
    int top = 5;
    std::string gpusPerNode, globalBatch;
    bool exhaustive = false;
};

// The base's model, GPU and recipe must be valid; its own layout need not be (the plan says why it is
// not, and ranks the others). A base refused even on one GPU's plain data parallelism is malformed.
void checkBase(const AccountingInput& base, const GpuCatalog& catalog) {
    if (validate(base, catalog).ok())
        return;
    LayoutChoice plain;
    plain.attention = base.model.attentionImpl;
    checkAccountingInput(withLayoutChoice(base, plain), catalog);
}

PlanOptions planOptions(const PlanCommandOptions& o, const AccountingInput& base) {
    PlanOptions options;
    options.top = static_cast<std::size_t>(o.top);
    options.prune = !o.exhaustive;
    options.stepTime.overlapDataParallel = !o.setup.noDataParallelOverlap;
    if (!o.gpusPerNode.empty()) {
        const double node = parseNumberOption("--gpus-per-node", o.gpusPerNode);
        if (!(node >= 1 && node <= 1e7 && node == std::floor(node)))
            throw UsageError("--gpus-per-node: must be a whole number from 1 to 1e7, got '" + o.gpusPerNode + "'");
        options.constraints.gpusPerNode = node;
    }
    if (!o.globalBatch.empty()) {
        const double global = parseNumberOption("--global-batch", o.globalBatch);
        if (!(global >= 1 && global <= 1e9 && global == std::floor(global)))
            throw UsageError("--global-batch: must be a whole number of sequences from 1 to 1e9, got '" +
                             o.globalBatch + "'");
        options.constraints.globalBatch = global;
    } else {
        const double global = base.batch * base.parallel.microbatches * dataParallelSize(base.parallel, base.gpus);
        if (global != std::floor(global))
            throw UsageError("--global-batch: the layout given makes batch · micro-batches · gpus / (tp·pp·cp) = " +
                             formatNumber(global) + " sequences, not a whole number; give --global-batch");
    }
    return options;
}

int execute(const PlanCommandOptions& o, std::ostream& out, std::ostream& err) {
    AccountingInput base = toAccountingInput(o.setup);
    const GpuCatalog catalog = catalogFor(o.setup);
    std::vector<std::string> warnings;
    if (const GpuSpec* part = catalog.find(base.gpu))
        warnings = applyCapabilityRules(base, *part);
    checkBase(base, catalog);
    const GpuSpec& gpu = *catalog.find(base.gpu);
    const PlanOptions options = planOptions(o, base);
    std::string whyNoProfile;
    const std::optional<HardwareProfile> profile = hardwareProfileFor(o.setup, gpu, whyNoProfile);
    HardwareProfile none;
    none.device = gpu.id;
    none.source = "no profile: " + whyNoProfile;
    const LayoutPlan plan = planLayouts(base, catalog, profile.value_or(none), options);

    std::optional<CommandModelBase> model;
    if (!o.setup.model.config.empty())
        model = CommandModelBase{{"--config", o.setup.model.config}, readConfigOption(o.setup.model.config).model};
    PlanCommandContext context;
    context.model = model ? &*model : nullptr;
    context.gpuCatalog = o.setup.gpuCatalog;
    context.hardwareProfile = o.setup.hardwareProfile;
    context.noDataParallelOverlap = o.setup.noDataParallelOverlap;
    if (o.json) {
        nlohmann::json doc = layoutPlanJson(base, plan, options, context);
        doc["warnings"] = warnings;
        out << jsonText(doc);
    } else {
        for (const std::string& warning : warnings)
            err << "warning: " << warning << "\n";
        out << layoutPlanText(base, plan, context);
    }
    return 0;
}

} // namespace

Command addPlanCommand(CLI::App& parent) {
    auto options = std::make_shared<PlanCommandOptions>();
    CLI::App* sub = parent.add_subcommand(
        "plan", "The fastest layout that fits: every way to run the setup on its GPUs, ranked by predicted time");
    addAccountOptions(*sub, options->setup);
    sub->add_option("--top", options->top, "layouts ranked and shown (default 5)")->check(CLI::Range(1, 100));
    sub->add_option("--gpus-per-node", options->gpusPerNode,
                    "GPUs per node; tensor parallelism stays inside one (default: the GPU's NVLink domain, 8 "
                    "for HGX parts)");
    sub->add_option("--global-batch", options->globalBatch,
                    "sequences per optimizer step over all GPUs (default: --batch x --microbatches x data "
                    "parallel of the layout given)");
    sub->add_flag("--exhaustive", options->exhaustive,
                  "account every candidate (no bound pruning): the same answer, more work");
    sub->add_flag("--json", options->json, "print one JSON document");
    return {sub, [options](std::ostream& out, std::ostream& err) { return execute(*options, out, err); }};
}

} // namespace napkin::cli
