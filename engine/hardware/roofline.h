// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The roofline model (Williams, Waterman & Patterson, "Roofline: an insightful visual performance model
// for multicore architectures", CACM 52(4), 2009): a kernel that does F FLOPs while moving B bytes to and
// from memory runs at most min(peak, (F/B) × bandwidth) FLOP/s. The ridge point peak / bandwidth is the
// arithmetic intensity where the two limits meet.
#include "engine/hardware/gpu_catalog.h"
#include "engine/numerics/storage_type.h"

#include <optional>
#include <string>

namespace napkin {

struct Roofline {
    std::string device;                 ///< catalog id ("H100-SXM") or the CPU's model name
    std::string dtype;                  ///< the arithmetic the peak is for ("bf16", "fp32", ...)
    double peakFlopsPerSecond = 0;      ///< the flat roof
    std::string peakSource;             ///< "datasheet: ..." or "measured on this CPU: ..."
    double bandwidthBytesPerSecond = 0; ///< the slanted roof's slope
    std::string bandwidthSource;        ///< "datasheet: ..." or "measured on this CPU: ..."

    /// peak / bandwidth, FLOPs per byte; 0 when there is no bandwidth.
    double ridgeFlopsPerByte() const;
    /// min(peak, intensity × bandwidth): the most FLOP/s a kernel of this intensity can reach.
    double attainableFlopsPerSecond(double flopsPerByte) const;
    /// "memory" when the intensity is below the ridge, else "compute".
    std::string boundAt(double flopsPerByte) const;
};

/// The datasheet roofline of a catalog GPU in `compute` arithmetic; nullopt (with `whyNot`) when the
/// datasheet gives no peak in that arithmetic or no memory bandwidth.
std::optional<Roofline> gpuRoofline(const GpuSpec& gpu, ComputeType compute, std::string* whyNot = nullptr);

/// FLOPs per byte of one GEMM C[m×n] = A[m×k]·B[k×n] that reads A and B and writes C once, each at
/// `bytesPerElement`: 2·m·n·k / ((m·k + k·n + m·n) · bytes). Square n: 2n³ / (3n²·bytes) = 2n / (3·bytes).
double gemmArithmeticIntensity(double m, double n, double k, double bytesPerElement);
/// The bytes that convention counts: (m·k + k·n + m·n) · bytesPerElement.
double gemmBytes(double m, double n, double k, double bytesPerElement);
/// The same where C's elements differ from A's and B's (fp8 inputs, bf16 output):
/// (m·k + k·n) · inputBytes + m·n · outputBytes.
double gemmBytes(double m, double n, double k, double inputBytes, double outputBytes);

/// How far above a roof (a fraction: 0.05 = 5 %) a point may lie before it is judged impossible: clocks and
/// datasheet peaks are not exact.
inline constexpr double kAboveRoofTolerance = 0.05;

/// A point that lies above its roof by more than `tolerance` cannot be a real measurement of that device: a
/// timing or unit error, or the wrong roof.
bool isAboveRoof(const Roofline& roof, double flopsPerByte, double flopsPerSecond,
                 double tolerance = kAboveRoofTolerance);

} // namespace napkin
