// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hardware/roofline.h"

#include <algorithm>

namespace napkin {

double Roofline::ridgeFlopsPerByte() const {
    return bandwidthBytesPerSecond > 0 ? peakFlopsPerSecond / bandwidthBytesPerSecond : 0.0;
}

double Roofline::attainableFlopsPerSecond(double flopsPerByte) const {
    return std::min(peakFlopsPerSecond, flopsPerByte * bandwidthBytesPerSecond);
}

std::string Roofline::boundAt(double flopsPerByte) const {
    return flopsPerByte < ridgeFlopsPerByte() ? "memory" : "compute";
}

std::optional<Roofline> gpuRoofline(const GpuSpec& gpu, ComputeType compute, std::string* whyNot) {
    const double peak = densePeakFlopsPerSecond(gpu, compute);
    const std::string dtype(computeTypeName(compute));
    if (peak <= 0 || gpu.memoryBandwidthBytesPerSecond <= 0) {
        if (whyNot)
            *whyNot = gpu.id + (peak <= 0 ? " has no dense " + dtype + " peak in the catalog"
                                          : std::string(" has no memory bandwidth in the catalog"));
        return std::nullopt;
    }
    Roofline r;
    r.device = gpu.id;
    r.dtype = dtype;
    r.peakFlopsPerSecond = peak;
    r.peakSource = "datasheet: " + gpu.source;
    r.bandwidthBytesPerSecond = gpu.memoryBandwidthBytesPerSecond;
    r.bandwidthSource = "datasheet: " + gpu.source;
    return r;
}

double gemmBytes(double m, double n, double k, double bytesPerElement) {
    return (m * k + k * n + m * n) * bytesPerElement;
}

double gemmBytes(double m, double n, double k, double inputBytes, double outputBytes) {
    return (m * k + k * n) * inputBytes + m * n * outputBytes;
}

double gemmArithmeticIntensity(double m, double n, double k, double bytesPerElement) {
    const double bytes = gemmBytes(m, n, k, bytesPerElement);
    return bytes > 0 ? 2.0 * m * n * k / bytes : 0.0;
}

bool isAboveRoof(const Roofline& roof, double flopsPerByte, double flopsPerSecond, double tolerance) {
    return flopsPerSecond > roof.attainableFlopsPerSecond(flopsPerByte) * (1.0 + tolerance);
}

} // namespace napkin
