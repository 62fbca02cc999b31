// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/calibrate_command.h"

#include "cli/device_option.h"
#include "cli/number_option.h"
#include "engine/benchmarks/calibration_run.h"
#include "engine/hardware/gpu_catalog_writer.h"
#include "engine/io/atomic_file.h"
#include "engine/io/writable_target.h"
#include "engine/numerics/quantity_format.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <stdexcept>

namespace napkin::cli {
namespace {

struct CalibrateOptions {
    std::string device = "cpu", backend, out, catalog;
    int threads = 0, repeats = 7;
};

// A file that cannot be written (no such folder, no permission) is the user's to fix: one line, exit 2.
void writeOrRefuse(const std::string& option, const std::string& path, const std::string& text) {
    try {
        writeFileAtomically(path, text);
    } catch (const std::runtime_error& e) {
        throw UsageError(option + ": " + e.what());
    }
}

int runCalibrate(const CalibrateOptions& o, std::ostream& out, std::ostream& err) {
    // Refused before the seconds of measuring, not after.
    if (const std::string why = unwritableTargetReason(o.out); !why.empty())
        throw UsageError("--out: " + why);
    if (!o.catalog.empty())
        if (const std::string why = unwritableTargetReason(o.catalog); !why.empty())
            throw UsageError("--catalog: " + why);
    auto backend = backendForDevice(o.device, o.threads, o.backend);
    CalibrationOptions options;
    options.device = o.device;
    options.repeats = o.repeats;
    std::string whyNot;
    const std::optional<CalibrationRun> run = runCalibration(*backend, options, &whyNot);
    if (!run)
        throw UsageError("--device: " + whyNot);
    for (const std::string& skipped : run->skipped)
        err << "skipped: " << skipped << "\n";
    writeOrRefuse("--out", o.out, hardwareProfileToJson(run->profile));
    out << "wrote " << o.out << ": " << run->profile.gemms.size() << " GEMM rates, bandwidth "
        << formatNumber(run->profile.memoryBandwidthBytesPerSecond) << " B/s, per-op overhead "
        << formatDuration(run->profile.perOpOverheadSeconds) << " (device " << run->profile.device << ")\n";
    if (!o.catalog.empty()) {
        if (o.device != "cpu")
            throw UsageError("--catalog: only a CPU needs a catalog entry of its own (a GPU is in the catalog)");
        writeOrRefuse("--catalog", o.catalog, gpuCatalogJson({cpuCatalogEntry(run->profile)}));
        out << "wrote " << o.catalog << ": use --gpu-catalog " << o.catalog << " --gpu " << run->profile.device
            << "\n";
    }
    return 0;
}

} // namespace

Command addCalibrateCommand(CLI::App& parent) {
    auto o = std::make_shared<CalibrateOptions>();
    CLI::App* cmd = parent.add_subcommand(
        "calibrate", "Measure this machine's GEMM rates, bandwidth and per-op overhead into a hardware profile");
    cmd->add_option("--device", o->device, "cpu or cuda (default cpu)");
    cmd->add_option("--backend", o->backend, cpuBackendHelp());
    cmd->add_option("--threads", o->threads, "cpu threads (default: one per physical core)")
        ->check(CLI::Range(1, 1024));
    cmd->add_option("--repeats", o->repeats, "timed samples per GEMM and bandwidth run (default 7)")
        ->check(CLI::Range(1, 1000));
    cmd->add_option("--out", o->out, "the profile file to write (account --hardware-profile reads it)")->required();
    cmd->add_option("--catalog", o->catalog, "on the CPU: also write a catalog entry 'this-cpu' (--gpu-catalog)");
    return {cmd, [o](std::ostream& out, std::ostream& err) { return runCalibrate(*o, out, err); }};
}

} // namespace napkin::cli
