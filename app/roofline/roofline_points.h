// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Results as roofline points: each measured GEMM of a sweep at its arithmetic intensity (A, B and C once
// each, engine/hardware/roofline.h) and measured FLOP/s, judged against its own device's roof; the
// analytic decode and prefill points of an inference setting. Plain functions of plain values, so the
// page's tests check the numbers without drawing.
#include "engine/inference/inference_accounting.h"
#include "engine/compute/benchmark_result.h"
#include "engine/hardware/roofline.h"
#include "widgets/charts/roofline_chart.h"

#include <QString>

#include <functional>
#include <optional>
#include <string>
#include <vector>

/// The roof a point is checked against: the device's ("cpu", or a catalog id) in the point's own
/// arithmetic, or nullopt with the reason ("this CPU's roof is not measured").
using RoofFor = std::function<std::optional<napkin::Roofline>(
    const std::string& device, napkin::ComputeType dtype, std::string* whyNot)>;

/// Where the drawn roof is: only points of that device and arithmetic are drawn in the measured style.
struct DrawnRoof {
    std::string device;
    napkin::ComputeType dtype = napkin::ComputeType::bf16;
};

/// The device a sweep ran on, as the roofline page names devices: "cpu", a catalog id, or empty (a GPU the
/// catalog does not know).
std::string rooflineDeviceOf(const napkin::DeviceInfo& device);

/// The benchmark type whose measured peak is the roof in `compute`'s arithmetic (fp8: fp8-e4m3); the other
/// way is the engine's benchDtypeComputeType (bench_dtype.h).
napkin::BenchDtype benchDtypeOf(napkin::ComputeType compute);

/// Every successful case of `sweep` as a point: x = gemmArithmeticIntensity(m, n, k, bytes of the type),
/// y = measured FLOP/s, labelled "n=1024 bf16". Above its own roof: Style::aboveRoof; on the drawn roof's
/// device and type: measured; anything else (another device or type, or no roof known): otherRoof.
std::vector<RooflineChartData::Point> sweepPoints(const napkin::MatmulSweep& sweep, const DrawnRoof& drawn,
                                                  const RoofFor& roofFor);

/// The decode and prefill points of `input`'s accounting `result`, as the engine places them (its
/// decodeFlopsPerSecondPerGpu at arithmeticIntensity, prefillFlopsPerSecondPerGpu at
/// prefillArithmeticIntensity), labelled and with their formulas in the tooltips.
std::vector<RooflineChartData::Point> inferencePoints(const napkin::InferenceInput& input,
                                                      const napkin::InferenceResult& result,
                                                      const QString& modelName);

/// The default inference setting until the Inference tab sends one: Llama 3 8B on H100-SXM, bf16
/// weights and KV cache, context 8192, batch 1.
napkin::InferenceInput defaultRooflineInference();
