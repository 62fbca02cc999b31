#include "cli/bench_train_command.h"

#include "engine/accounting/accounting.h"
#include "cli/accounting_json.h"
#include "cli/bench_device_json.h"
#include "cli/number_option.h"
#include "engine/numerics/quantity_format.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <ostream>

namespace napkin::cli {
namespace {

struct TrainOptions {
    bool json = false;
    std::string device = "cpu", dim, layers, batch, steps = "10", optimizer = "adagrad", precision = "fp32", lr;
    std::uint64_t seedInit = 0, seedData = 1;
    int threads = 0;
    std::string save, resume;
};

long wholeOption(const std::string& option, const std::string& text, double max) {
    if (text.empty())
        throw UsageError(option + " is required");
    const double v = parseNumberOption(option, text);
    if (!(v >= 1) || v != std::floor(v) || v > max)
        throw UsageError(option + ": '" + text + "' is not a whole number between 1 and " + formatNumber(max));
    return static_cast<long>(v);
}

CruncherConfig configFrom(const TrainOptions& o) {
    CruncherConfig c;
    c.dim = wholeOption("--dim", o.dim, 65536);
    c.layers = wholeOption("--layers", o.layers, 4096);
    c.batch = wholeOption("--batch", o.batch, 1e7);
    const auto optimizer = optimizerFromName(o.optimizer);
    if (!optimizer)
        throw UsageError("--optimizer: unknown '" + o.optimizer + "' (sgd, momentum, adagrad, rmsprop, adam, adamw)");
    c.optimizer = *optimizer;
    if (o.precision != "fp32")
        throw UsageError("--precision " + o.precision + ": the cpu Cruncher trainer runs fp32 only");
    c.hyper.learningRate = o.lr.empty() ? defaultLearningRate(c.optimizer, c.dim) : parseNumberOption("--lr", o.lr);
    if (!(c.hyper.learningRate > 0))
        throw UsageError("--lr must be > 0");
    c.seedInit = o.seedInit;
    c.seedData = o.seedData;
    return c;
}

AccountingResult predicted(const CruncherConfig& c) {
    AccountingInput in;
    in.model.kind = ModelKind::cruncher;
    in.model.dim = static_cast<double>(c.dim);
    in.model.layers = static_cast<double>(c.layers);
    in.batch = static_cast<double>(c.batch);
    in.optimizer = c.optimizer;
    in.precision = PrecisionRecipe::fp32;
    return account(in, *GpuCatalog::builtIn().find(in.gpu)); // memory does not depend on the GPU
}

nlohmann::json memoryJson(const MemoryLedger& ledger, const AccountingResult& p) {
    auto part = [&](double predictedBytes, double measuredBytes) {
        return nlohmann::json{{"predicted_bytes", jsonNumber(predictedBytes)}, {"measured_bytes", jsonNumber(measuredBytes)}};
    };
    return {{"predicted_bytes", jsonNumber(p.memory.total.value)},
            {"measured_bytes", jsonNumber(ledger.countedBytes())},
            {"agree", p.memory.total.value == ledger.countedBytes()},
            {"parameters", part(p.memory.parameters.value, ledger.currentBytes(MemoryTag::parameters))},
            {"gradients", part(p.memory.gradients.value, ledger.currentBytes(MemoryTag::gradients))},
            {"master_weights", part(p.memory.masterWeights.value, 0)},
            {"optimizer_state", part(p.memory.optimizerState.value, ledger.currentBytes(MemoryTag::optimizerState))},
            {"activations", part(p.memory.activations.value, ledger.currentBytes(MemoryTag::activations))},
            {"not_counted",
             {{"inputs_bytes", jsonNumber(ledger.currentBytes(MemoryTag::inputs))},
              {"workspace_bytes", jsonNumber(ledger.currentBytes(MemoryTag::workspace))},
              {"total_allocated_bytes", jsonNumber(ledger.totalBytes())},
              {"why",
               "the lecture counts activations as B·D·L (the L layer outputs kept for backward); the trainer also "
               "holds the input batch X (B·D) and targets (B) and the target function (D) as 'inputs', and the "
               "head output y (B), dL/dy (B) and two B·D backward temporaries as 'workspace'; neither is in the "
               "formula, so measured_bytes sums parameters, gradients, optimizer state and activations only"}}}};
}

int runTrain(const TrainOptions& o, std::ostream& out) {
    const CruncherConfig config = configFrom(o);
    const long steps = wholeOption("--steps", o.steps, 1e7);
    auto backend = backendForDevice(o.device, o.threads);
    std::unique_ptr<CruncherTrainer> trainer;
    try {
        trainer = backend->makeCruncherTrainer(config);
    } catch (const std::runtime_error& e) { // a GPU without room for it (out of memory) is an answer, not a crash
        throw UsageError("--device " + o.device + ": cannot hold this Cruncher: " + e.what());
    }
    if (!o.resume.empty()) {
        try {
            trainer->loadCheckpoint(o.resume);
        } catch (const std::runtime_error& e) {
            throw UsageError(std::string("--resume: ") + e.what());
        }
    }
    std::vector<double> losses, seconds;
    using Clock = std::chrono::steady_clock;
    for (long s = 0; s < steps; ++s) {
        const auto start = Clock::now();
        losses.push_back(trainer->step());
        seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    if (!o.save.empty())
        trainer->saveCheckpoint(o.save);
    // The first step pays for page faults and thread start-up: it is the warm-up when there are others.
    const TimingSummary t = summarizeTimings(seconds.size() > 1 ? std::vector<double>(seconds.begin() + 1, seconds.end())
                                                                : seconds);
    const DeviceInfo device = backend->deviceInfo();
    const double flops = cruncherCountedFlopsPerStep(config);
    const double sixBP = 6.0 * static_cast<double>(config.batch) * cruncherParameters(config);
    const double flopsPerSecond = t.medianSeconds > 0 ? flops / t.medianSeconds : 0;
    const auto promised = device.promisedFlopsPerSecond.find("fp32");
    const AccountingResult p = predicted(config);
    if (o.json) {
        nlohmann::json doc = {
            {"benchmark", "train"},
            {"model", {{"kind", "cruncher"}, {"dim", config.dim}, {"layers", config.layers}, {"batch", config.batch},
                       {"parameters", jsonNumber(cruncherParameters(config))}, {"optimizer", optimizerName(config.optimizer)},
                       {"learning_rate", config.hyper.learningRate}, {"precision", "fp32"},
                       {"seed_init", config.seedInit}, {"seed_data", config.seedData}}},
            {"device", deviceJson(device)},
            {"steps", steps},
            {"first_step", trainer->stepsDone() - steps + 1},
            {"flops_per_step", jsonNumber(flops)},
            {"flops_per_step_formula", "6·B·P − 2·B·D² (every GEMM issued, 2·m·n·k each)"},
            {"flops_per_step_6bp", jsonNumber(sixBP)},
            {"flops_note", "6·B·P also counts dX = dh_1·W_1ᵀ for the first layer (2·B·D²), which no one needs: the "
                           "input batch has no gradient. Optimizer and loss arithmetic (O(P + B)) is not counted."},
            {"step_seconds_median", t.medianSeconds},
            {"step_seconds_p20", t.p20Seconds},
            {"step_seconds_p80", t.p80Seconds},
            {"timed_steps", t.samples},
            {"flops_per_second", flopsPerSecond},
            {"promised_flops_per_second", promised != device.promisedFlopsPerSecond.end() ? nlohmann::json(promised->second)
                                                                                         : nlohmann::json(nullptr)},
            {"mfu", promised != device.promisedFlopsPerSecond.end() && promised->second > 0
                        ? nlohmann::json(flopsPerSecond / promised->second)
                        : nlohmann::json(nullptr)},
            {"loss", losses},
            {"memory", memoryJson(trainer->ledger(), p)},
            {"load_average_1min", loadAverageJson()}};
        // Next to the ledger, what the device allocator says (cudaMemGetInfo); null on the CPU.
        const std::optional<double> allocator = trainer->allocatorReportedBytes();
        doc["memory"]["allocator_reported_bytes"] = allocator ? nlohmann::json(*allocator) : nlohmann::json(nullptr);
        out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        return 0;
    }
    out << "Cruncher D=" << config.dim << " L=" << config.layers << " B=" << config.batch << " "
        << optimizerName(config.optimizer) << ": loss " << losses.front() << " -> " << losses.back() << ", step "
        << formatDuration(t.medianSeconds) << " (median), " << flopsPerSecond / 1e9 << " GFLOP/s; memory measured "
        << trainer->ledger().countedBytes() << " B, predicted " << p.memory.total.value << " B\n";
    return 0;
}

} // namespace

Command addBenchTrainCommand(CLI::App& bench) {
    auto o = std::make_shared<TrainOptions>();
    CLI::App* cmd = bench.add_subcommand("train", "Train the lecture's Cruncher and compare its memory with the formula");
    cmd->add_option("--device", o->device, "cpu or cuda (default cpu)");
    cmd->add_option("--dim", o->dim, "width D (required)");
    cmd->add_option("--layers", o->layers, "D×D layers L (required)");
    cmd->add_option("--batch", o->batch, "batch B (required)");
    cmd->add_option("--steps", o->steps, "training steps (default 10)");
    cmd->add_option("--optimizer", o->optimizer, "sgd, momentum, adagrad, rmsprop, adam, adamw (default adagrad)");
    cmd->add_option("--precision", o->precision, "fp32 (the only one the cpu trainer runs)");
    cmd->add_option("--lr", o->lr, "learning rate (default: one per optimizer that makes the loss fall)");
    cmd->add_option("--seed-init", o->seedInit, "seed of the weights (default 0)");
    cmd->add_option("--seed-data", o->seedData, "seed of the target function and batches (default 1)");
    cmd->add_option("--threads", o->threads, "cpu threads (default: one per physical core)")->check(CLI::Range(1, 1024));
    cmd->add_option("--save", o->save, "write a checkpoint here after the last step");
    cmd->add_option("--resume", o->resume, "start from this checkpoint");
    cmd->add_flag("--json", o->json, "print one JSON document");
    return {cmd, [o](std::ostream& out, std::ostream&) { return runTrain(*o, out); }};
}

} // namespace napkin::cli
