// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/gpus_command.h"

#include "cli/gpu_catalog_option.h"
#include "engine/benchmarks/local_gpus.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/gpus_report.h"
#include "engine/report/json_values.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>

namespace napkin::cli {
namespace {

struct GpusOptions {
    std::string gpuCatalog;
    bool thisMachine = false;
    bool json = false;
};

void printParts(const GpuCatalog& catalog, std::ostream& out) {
    for (const GpuSpec& gpu : catalog.gpus()) {
        out << "  " << gpu.id << ": " << gpu.name << " — " << formatBytes(gpu.memoryBytes) << ", "
            << formatBytes(gpu.memoryBandwidthBytesPerSecond) << "/s";
        if (!densePeakGiven(gpu, ComputeType::bf16))
            out << ", bf16 peak not given";
        else if (gpu.densePeakBf16 == 0)
            out << ", no bf16 path";
        else
            out << ", bf16 " << formatFlops(gpu.densePeakBf16, true) << " dense";
        out << "\n";
    }
}

void printMachine(const ThisMachineGpus& machine, std::ostream& out) {
    if (!machine.noDeviceReason.empty()) {
        out << machine.noDeviceReason << "\n";
        return;
    }
    for (const LocalGpuAnswer& a : machine.gpus) {
        const LocalGpu& d = a.device;
        out << "device " << d.index << ": " << d.name << " — "
            << formatBytes(d.memoryBytes, ByteUnits::binary) << ", " << d.smCount << " SMs, "
            << formatNumber(d.clockHz / 1e9) << " GHz, compute capability " << d.computeCapability
            << "\n  catalog: " << (a.match.catalogId.empty() ? "none" : a.match.catalogId) << " ("
            << a.match.reason << ")\n";
    }
}

int execute(const GpusOptions& o, std::ostream& out) {
    const GpuCatalog catalog = catalogWithGpuCatalogOption(o.gpuCatalog);
    if (o.json) {
        nlohmann::json document = {{"gpus", catalogPartsJson(catalog)}};
        if (o.thisMachine)
            document["this_machine"] = thisMachineGpusJson(thisMachineGpus(catalog));
        out << jsonText(document);
        return 0;
    }
    if (o.thisMachine) {
        printMachine(thisMachineGpus(catalog), out);
        return 0;
    }
    out << "GPUs (account|infer --gpu ID; datasheet figures, sources in --json):\n";
    printParts(catalog, out);
    return 0;
}

} // namespace

Command addGpusCommand(CLI::App& parent) {
    auto o = std::make_shared<GpusOptions>();
    CLI::App* sub = parent.add_subcommand(
        "gpus", "The GPU catalog's parts; --this-machine: the CUDA devices here, matched to the catalog");
    sub->add_flag("--this-machine", o->thisMachine,
                  "the CUDA devices this process sees (name, memory, SMs, clock, compute capability) and the "
                  "catalog part each is; 'no CUDA device found' where there is none");
    sub->add_option("--gpu-catalog", o->gpuCatalog, "JSON file of extra GPUs in the catalog's format");
    sub->add_flag("--json", o->json, "print one JSON document");
    return {sub, [o](std::ostream& out, std::ostream&) { return execute(*o, out); }};
}

} // namespace napkin::cli
