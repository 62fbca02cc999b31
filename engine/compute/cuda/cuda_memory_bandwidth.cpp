// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_bandwidth_factory.h"
#include "engine/compute/cuda/cuda_check.h"
#include "engine/compute/cuda/cuda_device_query.h"
#include "engine/compute/cuda/cuda_handles.h"

#include <stdexcept>
#include <vector>

namespace napkin {
namespace {

using cuda::DeviceBuffer;
using cuda::Event;
using cuda::Stream;

double timeOneCopy(const DeviceBuffer& to, const DeviceBuffer& from, std::size_t bytes, const Stream& stream,
                   const Event& start, const Event& stop) {
    start.record(stream.get());
    NAPKIN_CUDA_CHECK(cudaMemcpyAsync(to.get(), from.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
    stop.record(stream.get());
    stream.synchronize();
    return stop.secondsSince(start);
}

} // namespace

MemoryBandwidthResult runCudaDeviceCopyBandwidth(const MemoryBandwidthOptions& options) {
    if (std::string why = cuda::noDeviceReason(); !why.empty())
        throw std::runtime_error(why);
    if (options.repeats < 1)
        throw std::invalid_argument("the copy needs at least one timed run");
    NAPKIN_CUDA_CHECK(cudaSetDevice(0));
    const cuda::CudaDeviceFacts facts = cuda::queryDevice(0);
    MemoryBandwidthResult r;
    r.device = "cuda";
    r.deviceName = facts.name;
    r.catalogId = cuda::catalogIdForDevice(facts.name);
    r.method = bandwidthMethodName(BandwidthMethod::deviceCopy);
    r.byteConvention = byteConvention(BandwidthMethod::deviceCopy);
    if (facts.l2CacheBytes > 0)
        r.lastLevelCacheBytes = static_cast<std::uint64_t>(facts.l2CacheBytes);
    if (options.bytesPerArray > 0) {
        r.bytesPerArray = wholeFp64Bytes(options.bytesPerArray);
        r.sizeRule = "--bytes (rounded down to whole fp64 elements)";
    } else {
        r.bytesPerArray = defaultBytesPerArray(r.lastLevelCacheBytes);
        r.sizeRule = defaultBytesPerArrayRule(r.lastLevelCacheBytes) + " (the last-level cache is the L2)";
    }
    r.bytesMovedPerRun = bytesMovedPerRun(BandwidthMethod::deviceCopy, r.bytesPerArray);
    r.warmupRuns = options.warmupRuns;
    r.timer = "CUDA events around one cudaMemcpyAsync device-to-device on a non-blocking stream, "
              "synchronised after each";
    if (const auto promise = deviceMemoryPromise(GpuCatalog::builtIn(), r.catalogId, &r.promiseSource))
        r.promisedBytesPerSecond = promise;
    else
        r.promiseSource = r.catalogId.empty()
                              ? "none: '" + facts.name + "' is not in the GPU catalog"
                              : "none: the catalog gives no memory bandwidth for " + r.catalogId;

    const auto bytes = static_cast<std::size_t>(r.bytesPerArray);
    const DeviceBuffer from(bytes), to(bytes);
    NAPKIN_CUDA_CHECK(cudaMemset(from.get(), 1, bytes)); // every page touched before timing
    NAPKIN_CUDA_CHECK(cudaMemset(to.get(), 0, bytes));
    NAPKIN_CUDA_CHECK(cudaDeviceSynchronize()); // the stream below does not wait for the default stream
    const Stream stream;
    const Event start, stop;
    for (int i = 0; i < options.warmupRuns; ++i)
        timeOneCopy(to, from, bytes, stream, start, stop);
    std::vector<double> seconds;
    seconds.reserve(static_cast<std::size_t>(options.repeats));
    for (int i = 0; i < options.repeats; ++i)
        seconds.push_back(timeOneCopy(to, from, bytes, stream, start, stop));
    // The last byte copied back: the copy did move the data it is counted for.
    unsigned char last = 0;
    NAPKIN_CUDA_CHECK(cudaMemcpy(&last, to.as<unsigned char>() + bytes - 1, 1, cudaMemcpyDeviceToHost));
    r.verified = last == 1;
    summarizeBandwidth(r, std::move(seconds));
    return r;
}

} // namespace napkin
