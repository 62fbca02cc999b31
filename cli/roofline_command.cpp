// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/roofline_command.h"

#include "cli/number_option.h"
#include "engine/benchmarks/cpu_roofline.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/hardware/roofline.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"
#include "engine/report/roofline_report.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>

namespace napkin::cli {
namespace {

struct RooflineOptions {
    std::string gpu, device, dtype, bytes;
    int threads = 0;
    bool json = false;
};

Roofline gpuRoof(const RooflineOptions& o) {
    if (o.threads > 0)
        throw UsageError("--threads: only with --device cpu (a datasheet roofline measures nothing)");
    if (!o.bytes.empty())
        throw UsageError("--bytes: only with --device cpu (a datasheet roofline measures nothing)");
    const GpuCatalog& catalog = GpuCatalog::builtIn();
    const GpuSpec* gpu = catalog.find(o.gpu);
    if (!gpu)
        throw UsageError("--gpu: unknown '" + o.gpu + "' (" + catalog.idList() + ")");
    const std::string dtype = o.dtype.empty() ? "bf16" : o.dtype;
    const std::optional<ComputeType> compute = computeTypeFromName(dtype);
    if (!compute)
        throw UsageError("--dtype: unknown '" + dtype + "' for a GPU (fp32, tf32, fp16, bf16, fp8)");
    std::string why;
    const std::optional<Roofline> roof = gpuRoofline(*gpu, *compute, &why);
    if (!roof)
        throw UsageError("--dtype " + dtype + ": " + why);
    return *roof;
}

int execute(const RooflineOptions& o, std::ostream& out) {
    if (o.gpu.empty() == o.device.empty())
        throw UsageError("--gpu/--device: give exactly one (--gpu ID for a datasheet roofline, --device cpu "
                         "for one measured on this CPU)");
    std::optional<MemoryBandwidthResult> bandwidth;
    Roofline roof;
    if (!o.gpu.empty()) {
        roof = gpuRoof(o);
    } else {
        if (o.device != "cpu")
            throw UsageError("--device: '" + o.device +
                             "' cannot be measured here; the measured roofline is the cpu's (for a GPU "
                             "give --gpu ID: its datasheet roofline)");
        const std::uint64_t bytes = parseBytesPerArrayOption("--bytes", o.bytes);
        const std::string dtype = o.dtype.empty() ? "fp32" : o.dtype;
        std::string why;
        MemoryBandwidthResult measured;
        const std::optional<Roofline> cpu = measureCpuRoofline(dtype, o.threads, &why, bytes, &measured);
        if (!cpu)
            throw UsageError("--dtype " + dtype + ": " + why);
        roof = *cpu;
        bandwidth = measured;
    }
    if (o.json) {
        out << jsonText(rooflineJson(roof, bandwidth ? &*bandwidth : nullptr));
        return 0;
    }
    out << roof.device << ", " << roof.dtype << '\n'
        << "  peak:      " << formatFlops(roof.peakFlopsPerSecond, true) << "  (" << roof.peakSource << ")\n"
        << "  bandwidth: " << formatBytes(roof.bandwidthBytesPerSecond) << "/s  (" << roof.bandwidthSource
        << ")\n"
        << "  ridge:     " << formatNumber(roof.ridgeFlopsPerByte()) << " FLOP/B  (" << ridgeFormula(roof)
        << ")\n"
        << "  below the ridge a kernel is memory bound: attainable = min(peak, intensity × bandwidth)\n";
    return 0;
}

} // namespace

Command addRooflineCommand(CLI::App& parent) {
    auto o = std::make_shared<RooflineOptions>();
    CLI::App* cmd = parent.add_subcommand(
        "roofline", "A device's roofline: peak FLOP/s, memory bandwidth and the ridge point between them");
    cmd->add_option("--gpu", o->gpu, "GPU id from the catalog: its datasheet roofline");
    cmd->add_option("--device", o->device, "cpu: the roofline measured on this CPU (FMA loop and triad)");
    cmd->add_option(
        "--dtype", o->dtype,
        "arithmetic of the peak: fp32, tf32, fp16, bf16, fp8 on a GPU (default bf16); fp32, fp64, "
        "bf16, fp16 on the cpu (default fp32)");
    cmd->add_option("--threads", o->threads, "cpu threads (default: one per physical core)")
        ->check(CLI::Range(1, 1024));
    cmd->add_option("--bytes", o->bytes,
                    "cpu: bytes per triad array, K/M/G binary (default as bench memory)");
    cmd->add_flag("--json", o->json, "print one JSON document");
    return {cmd, [o](std::ostream& out, std::ostream&) { return execute(*o, out); }};
}

} // namespace napkin::cli
