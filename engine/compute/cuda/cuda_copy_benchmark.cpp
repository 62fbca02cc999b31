// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_check.h"
#include "engine/compute/cuda/cuda_copy_factory.h"
#include "engine/compute/cuda/cuda_device_query.h"
#include "engine/compute/cuda/cuda_handles.h"
#include "engine/compute/memory_ledger.h"

#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <vector>

namespace napkin {
namespace {

using cuda::DeviceBuffer;
using cuda::Event;
using cuda::PinnedHostBuffer;
using cuda::Stream;

// The buffers of one size: allocated once and shared by that size's four cases, so a failure to get
// them (a pinned GiB can be refused) fails those cases only.
struct SizeBuffers {
    std::uint64_t bytes = 0;
    DeviceBuffer device;
    std::vector<unsigned char> pageable;
    PinnedHostBuffer pinned;

    explicit SizeBuffers(std::uint64_t n)
        : bytes(n)
        , device(n)
        , pageable(n, 1) // written, so every page is resident before timing (no first-touch faults)
        , pinned(n) {
        std::memset(pinned.get(), 1, n);
    }
};

// One copy between the events on `stream`; pageable copies are staged by the driver and return late,
// but the events still bracket the whole transfer as the stream sees it.
double timeOneCopy(const CopyCase& c, SizeBuffers& b, const Stream& stream, const Event& start,
                   const Event& stop) {
    void* host = c.hostMemory == HostMemory::pinned ? b.pinned.get() : static_cast<void*>(b.pageable.data());
    start.record(stream.get());
    if (c.direction == CopyDirection::hostToDevice)
        NAPKIN_CUDA_CHECK(
            cudaMemcpyAsync(b.device.get(), host, c.bytes, cudaMemcpyHostToDevice, stream.get()));
    else
        NAPKIN_CUDA_CHECK(
            cudaMemcpyAsync(host, b.device.get(), c.bytes, cudaMemcpyDeviceToHost, stream.get()));
    stop.record(stream.get());
    stream.synchronize();
    return stop.secondsSince(start);
}

CopyResult runCase(const CopyCase& c, SizeBuffers& b, const CopyRunOptions& o, const Stream& stream) {
    CopyResult r;
    r.copy = c;
    const Event start, stop;
    for (int i = 0; i < o.warmupRuns; ++i)
        timeOneCopy(c, b, stream, start, stop);
    r.warmupRuns = o.warmupRuns;
    std::vector<double> seconds;
    seconds.reserve(static_cast<std::size_t>(o.repeats));
    for (int i = 0; i < o.repeats; ++i)
        seconds.push_back(timeOneCopy(c, b, stream, start, stop));
    summarizeCopy(r, std::move(seconds));
    r.ok = true;
    return r;
}

std::string deviceNameOrThrow() {
    if (std::string why = cuda::noDeviceReason(); !why.empty())
        throw std::runtime_error(why);
    NAPKIN_CUDA_CHECK(cudaSetDevice(0));
    return cuda::queryDevice(0).name;
}

} // namespace

CopySweep runCudaCopySweep(const std::vector<CopyCase>& cases, const CopyRunOptions& options) {
    CopySweep sweep;
    sweep.deviceName = deviceNameOrThrow();
    sweep.catalogId = cuda::catalogIdForDevice(sweep.deviceName);
    sweep.promisedBytesPerSecond =
        hostLinkPromise(GpuCatalog::builtIn(), sweep.catalogId, &sweep.promiseSource);
    const Stream stream;
    std::unique_ptr<SizeBuffers> buffers;
    std::string buffersError;
    for (const CopyCase& c : cases) {
        if (!buffers || buffers->bytes != c.bytes) {
            buffers.reset(); // give the previous size back before asking for the next
            buffersError.clear();
            try {
                buffers = std::make_unique<SizeBuffers>(c.bytes);
            } catch (const std::exception& e) {
                buffersError = e.what();
            }
        }
        CopyResult r;
        r.copy = c;
        if (buffers) {
            try {
                r = runCase(c, *buffers, options, stream);
            } catch (const std::exception& e) {
                r.error = e.what();
            }
        } else {
            r.error = "could not allocate the buffers: " + buffersError;
        }
        r.promisedBytesPerSecond = sweep.promisedBytesPerSecond;
        sweep.results.push_back(std::move(r));
    }
    return sweep;
}

AllocCheck runCudaAllocCheck() {
    AllocCheck check;
    check.deviceName = deviceNameOrThrow();
    NAPKIN_CUDA_CHECK(cudaFree(nullptr)); // create the context first, so its own memory is not counted
    NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
    std::size_t freeBefore = 0, freeAfter = 0, total = 0;
    NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeBefore, &total));
    MemoryLedger ledger;
    check.allocatorBytesBefore = ledger.totalBytes();
    const auto elements = static_cast<std::size_t>(kAllocCheckSide) * kAllocCheckSide;
    std::vector<DeviceBuffer> tensors;
    for (int i = 0; i < kAllocCheckTensors; ++i) {
        tensors.emplace_back(elements * sizeof(float));
        ledger.recordExternal(MemoryTag::workspace, static_cast<double>(elements * sizeof(float)));
    }
    NAPKIN_CUDA_CHECK(cudaDeviceSynchronize());
    NAPKIN_CUDA_CHECK(cudaMemGetInfo(&freeAfter, &total));
    check.expectedBytes = tensorsBytes(kAllocCheckTensors, kAllocCheckSide, kAllocCheckSide, sizeof(float));
    check.allocatorBytes = ledger.totalBytes();
    check.freeBytesBefore = static_cast<double>(freeBefore);
    check.freeBytesAfter = static_cast<double>(freeAfter);
    check.memGetInfoDeltaBytes = static_cast<double>(freeBefore) - static_cast<double>(freeAfter);
    return check;
}

} // namespace napkin
