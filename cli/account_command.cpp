// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/account_command.h"

#include "cli/account_options.h"
#include "cli/accounting_text.h"
#include "cli/config_option.h"
#include "cli/number_option.h"
#include "cli/peer_estimates_text.h"
#include "cli/step_time_option.h"
#include "engine/accounting/accounting.h"
#include "engine/accounting/capability_rules.h"
#include "engine/allocator/allocator_config.h"
#include "engine/io/atomic_file.h"
#include "engine/peers/peer_estimates.h"
#include "engine/report/accounting_report.h"
#include "engine/report/cli_command_line.h"
#include "engine/report/json_values.h"
#include "engine/scenario/accounting_fields.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace napkin::cli {
namespace {

struct AccountCommandOptions {
    AccountOptions setup;
    bool json = false;
    std::string allocConf;    // PYTORCH_CUDA_ALLOC_CONF's text for the simulated reserved memory
    std::string saveScenario; // --save-scenario FILE: the setup as the app's scenario file
};

// The setup as given (before any capability fallback, which the app applies itself) as a scenario file;
// a file that cannot be written is the user's to fix: one line, exit 2, before anything is printed.
void saveScenarioFile(const std::string& path, const AccountingInput& asGiven, const GpuCatalog& catalog) {
    try {
        writeFileAtomically(path, writeScenario(runSetupScenario(asGiven, catalog)));
    } catch (const std::runtime_error& e) {
        throw UsageError(std::string("--save-scenario: ") + e.what());
    }
}

AllocatorConfig allocatorConfigOption(const std::string& text) {
    const AllocatorConfigParse parsed = parseAllocatorConfig(text);
    if (!parsed.config)
        throw UsageError("--alloc-conf: " + parsed.error);
    return *parsed.config;
}

int execute(const AccountCommandOptions& options, std::ostream& out, std::ostream& err) {
    const AccountOptions& o = options.setup;
    const AllocatorConfig allocator = allocatorConfigOption(options.allocConf);
    const AccountingInput asGiven = toAccountingInput(o);
    AccountingInput input = asGiven;
    const GpuCatalog catalog = catalogFor(o);
    // What the part cannot do (capability_rules.h): flash attention falls back, bf16 may run emulated.
    std::vector<std::string> warnings;
    if (const GpuSpec* part = catalog.find(input.gpu))
        warnings = applyCapabilityRules(input, *part);
    checkAccountingInput(input, catalog);
    if (!options.saveScenario.empty())
        saveScenarioFile(options.saveScenario, asGiven, catalog);
    const GpuSpec& gpu = *catalog.find(input.gpu);
    AccountingResult result = account(input, gpu);
    const StepTime stepTime = stepTimeFor(o, input, result, gpu);
    const double assumedMfu = input.mfu;
    if (mfuPredicted(o)) { // training_seconds and training_days at the step time's MFU
        input = withPredictedMfu(input, stepTime);
        result = account(input, gpu);
    }
    if (options.json) {
        nlohmann::json doc = accountingToJson(input, gpu, result, allocator, &stepTime);
        doc["warnings"] = warnings;
        doc["command"] = accountCommandLine(asGiven); // what was asked, before any fallback
        if (!o.model.config.empty()) { // the line reads the same file; the JSON says which keys it used
            const HfConfig config = readConfigOption(o.model.config);
            const CommandModelBase base{{"--config", o.model.config}, config.model};
            doc["command"] = accountCommandLine(asGiven, &base);
            doc["config"] = configJson(o.model.config, config);
            if (config.checkpointFormat) // what the ledger assumes about a quantized checkpoint
                doc["config"]["training_assumes"] = trainingAssumption(
                    *config.checkpointFormat, input.fineTuning.method == FineTuneMethod::qlora);
        }
        if (!o.gpuCatalog.empty()) // the line names the catalog the GPU came from
            doc["command"] = withGpuCatalogOption(doc["command"].get<std::string>(), o.gpuCatalog);
        if (const std::string conf = allocatorConfigText(allocator); !conf.empty()) // shell-safe: [a-z_:,0-9]
            doc["command"] = doc["command"].get<std::string>() + " --alloc-conf " + conf;
        if (mfuPredicted(o))        // the line names the step time's options
            doc["command"] = doc["command"].get<std::string>() + " --mfu predicted";
        if (!o.hardwareProfile.empty())
            doc["command"] =
                doc["command"].get<std::string>() + " --hardware-profile " + shellQuoted(o.hardwareProfile);
        out << jsonText(doc);
    } else {
        for (const std::string& warning : warnings)
            err << "warning: " << warning << "\n";
        const FitVerdict verdict = judgeFit(input, result, allocator); // as --json's fits_verdict
        out << accountingToText(input, gpu, result, &verdict) << stepTimeText(stepTime, assumedMfu)
            << peerEstimatesText(peerEstimates(input, result));
    }
    return 0;
}

} // namespace

Command addAccountCommand(CLI::App& parent) {
    auto options = std::make_shared<AccountCommandOptions>();
    CLI::App* sub = parent.add_subcommand("account", "Memory, FLOPs and time of training a model");
    addAccountOptions(*sub, options->setup);
    sub->add_flag("--json", options->json, "print one JSON document");
    sub->add_option(
        "--alloc-conf", options->allocConf,
        "PYTORCH_CUDA_ALLOC_CONF for the simulated reserved memory (--json's reserved_memory) and the fit "
        "judged on it, e.g. "
        "\"expandable_segments:True,max_split_size_mb:128,roundup_power2_divisions:4\"");
    sub->add_option("--save-scenario", options->saveScenario,
                    "also write the setup as a scenario file the app opens (File > Open scenario), as "
                    "scripts/measure-run.py does into its trace");
    return {sub, [options](std::ostream& out, std::ostream& err) { return execute(*options, out, err); }};
}

} // namespace napkin::cli
