// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/cpu_roofline.h"

#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/memory_bandwidth_run.h"
#include "engine/numerics/quantity_format.h"

#include <sstream>

namespace napkin {
namespace {

std::optional<Roofline> fail(const std::string& why, std::string* whyNot) {
    if (whyNot)
        *whyNot = why;
    return std::nullopt;
}

} // namespace

std::string measuredBandwidthSource(const MemoryBandwidthResult& r) {
    std::ostringstream s;
    s << "measured on this CPU: " << r.method << ", 3 arrays × "
      << formatBytes(static_cast<double>(r.bytesPerArray), ByteUnits::binary) << ", " << r.threads
      << " threads, median of " << r.timing.samples
      << " runs, bytes counted as STREAM does (3 × 8 per element)";
    return s.str();
}

std::optional<Roofline> measureCpuRoofline(BenchDtype dtype, int threads, std::string* whyNot,
                                           std::uint64_t bytesPerArray, MemoryBandwidthResult* bandwidth) {
    BackendOptions backendOptions;
    backendOptions.cpuThreads = threads;
    backendOptions.cpuMeasurePeak = true;
    std::string why;
    const auto backend = makeBackend("cpu", backendOptions, &why);
    if (!backend)
        return fail(why, whyNot);
    const std::string name(benchDtypeName(dtype));
    if (std::string reason = backend->unsupportedReason(dtype); !reason.empty())
        return fail(reason, whyNot);
    const DeviceInfo info = backend->deviceInfo();
    const auto promised = info.promisedFlopsPerSecond.find(name);
    const auto promisedFp32 = info.promisedFlopsPerSecond.find("fp32");
    if (!info.measuredFp32FlopsPerSecond || promised == info.promisedFlopsPerSecond.end() ||
        promisedFp32 == info.promisedFlopsPerSecond.end() || promisedFp32->second <= 0)
        return fail("the cpu backend gives no " + name + " peak (" + info.promisedBasis + ")", whyNot);
    // The backend's promise may be the spec peak (cores × lanes × 2 FMA × 2 × clock); the roof is the
    // measured FMA loop, scaled to the dtype by the backend's own ratio between its promises.
    const double ratio = promised->second / promisedFp32->second;
    const double peak = *info.measuredFp32FlopsPerSecond * ratio;

    MemoryBandwidthOptions bwOptions;
    bwOptions.bytesPerArray = bytesPerArray;
    bwOptions.threads = info.threads;
    const std::optional<MemoryBandwidthResult> bw = runMemoryBandwidth("cpu", bwOptions, &why);
    if (!bw)
        return fail(why, whyNot);
    if (bandwidth)
        *bandwidth = *bw;

    Roofline r;
    r.device = info.name;
    r.dtype = name;
    r.peakFlopsPerSecond = peak;
    std::ostringstream source;
    source << "measured on this CPU: FMA loop " << formatFlops(*info.measuredFp32FlopsPerSecond, true)
           << " fp32 (" << info.threads << " threads of independent " << info.simd
           << " FMAs, the fastest 2 ms sample)";
    if (name != "fp32")
        source << " × " << ratio << " for " << name << " (the " << info.cpuBackend
               << " backend's ratio: " << info.promisedBasis << ")";
    r.peakSource = source.str();
    r.bandwidthBytesPerSecond = bw->bytesPerSecond;
    r.bandwidthSource = measuredBandwidthSource(*bw);
    return r;
}

std::optional<Roofline> measureCpuRoofline(const std::string& dtypeName, int threads, std::string* whyNot,
                                           std::uint64_t bytesPerArray, MemoryBandwidthResult* bandwidth) {
    const std::optional<BenchDtype> dtype = benchDtypeFromName(dtypeName);
    if (!dtype)
        return fail("unknown dtype '" + dtypeName + "' (" + benchDtypeNames() + ")", whyNot);
    return measureCpuRoofline(*dtype, threads, whyNot, bytesPerArray, bandwidth);
}

} // namespace napkin
