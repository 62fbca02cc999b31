// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hardware/custom_gpu_form.h"

#include "engine/numerics/number_parse.h"

#include <algorithm>
#include <cctype>

namespace napkin {
namespace {

// The catalog's range for a figure in base units (gpu_catalog.cpp refuses anything outside it).
constexpr double kSmallest = 1, kLargest = 1e21;

std::string trimmed(const std::string& text) {
    const auto first =
        std::find_if_not(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); });
    const auto last =
        std::find_if_not(text.rbegin(), text.rend(), [](unsigned char c) { return std::isspace(c); }).base();
    return first < last ? std::string(first, last) : std::string();
}

// A figure typed in `unit` and scaled to base units by `scale`; nullopt with `error` set when it is bad.
std::optional<double> figure(const std::string& typed, double scale, const char* unit, std::string& error) {
    const ParsedNumber parsed = parseNumber(trimmed(typed));
    if (!parsed.ok()) {
        error = parsed.error; // "not a number; expected something like 70e9, 15T or 1.5B"
        return std::nullopt;
    }
    const double value = parsed.value * scale;
    if (!(value >= kSmallest && value <= kLargest)) {
        error = std::string("must be a positive number of ") + unit + " (at most 1e21 in base units)";
        return std::nullopt;
    }
    return value;
}

} // namespace

const std::array<const char*, 5>& customGpuPeakNames() {
    static const std::array<const char*, 5> names = {"fp32", "tf32", "fp16", "bf16", "fp8"};
    return names;
}

std::string CustomGpuCheck::errorFor(const std::string& field) const {
    for (const CustomGpuFieldError& e : errors)
        if (e.field == field)
            return e.message;
    return {};
}

CustomGpuCheck checkCustomGpu(const CustomGpuForm& form) {
    CustomGpuCheck check;
    auto fail = [&](const char* field, std::string message) {
        check.errors.push_back({field, std::move(message)});
    };
    GpuSpec gpu;
    gpu.name = trimmed(form.name);
    gpu.id = gpu.name;
    std::replace(gpu.id.begin(), gpu.id.end(), ' ', '-');
    if (gpu.name.empty())
        fail("name", "give the GPU a name");
    else if (GpuCatalog::builtIn().find(gpu.id))
        fail("name", "'" + gpu.id + "' is a built-in GPU; choose another name");
    gpu.source = "user defined";
    gpu.kind = "gpu";
    std::string error;
    if (const auto memory = figure(form.memoryGb, 1e9, "GB", error))
        gpu.memoryBytes = *memory;
    else
        fail("memory", error);
    if (const auto bandwidth = figure(form.bandwidthGbPerSecond, 1e9, "GB/s", error))
        gpu.memoryBandwidthBytesPerSecond = *bandwidth;
    else
        fail("bandwidth", error);
    double* const peaks[] = {&gpu.densePeakFp32, &gpu.densePeakTf32, &gpu.densePeakFp16, &gpu.densePeakBf16,
                             &gpu.densePeakFp8};
    bool anyPeak = false, peakError = false;
    for (unsigned i = 0; i < 5; ++i) {
        const std::string typed = trimmed(form.peaksTflops[i]);
        const char* name = customGpuPeakNames()[i];
        if (typed.empty()) {
            gpu.peaksNotGiven |= 1u << i; // unknown, as a catalog entry that leaves the dtype out
            continue;
        }
        if (typed == "none") {
            if (i == 0) {
                fail(name, "every GPU has an fp32 path: give its peak or leave it empty");
                peakError = true;
                continue;
            }
            *peaks[i] = 0; // the part has no such path
            continue;
        }
        if (const auto peak = figure(typed, 1e12, "TFLOP/s", error)) {
            *peaks[i] = *peak;
            anyPeak = true;
        } else {
            fail(name, error);
            peakError = true;
        }
    }
    if (!anyPeak && !peakError)
        fail("fp32", "give at least one dense peak, so that a run's time can be computed");
    if (!trimmed(form.tdpWatts).empty()) {
        if (const auto tdp = figure(form.tdpWatts, 1, "W", error)) {
            gpu.tdpWatts = *tdp;
            gpu.tdpSource = "user defined";
        } else {
            fail("tdp", error);
        }
    }
    if (check.errors.empty())
        check.gpu = std::move(gpu);
    return check;
}

} // namespace napkin
