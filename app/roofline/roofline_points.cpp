// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/roofline/roofline_points.h"

#include "engine/models/model_presets.h"
#include "engine/compute/bench_compute_type.h"
#include "engine/compute/bench_dtype.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/numerics/quantity_format.h"
#include "widgets/text/engine_text.h"

#include <QCoreApplication>

using namespace napkin;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("RooflinePoints", text);
}

QString flopsPerSecond(double value) {
    return toQString(formatFlops(value, true));
}

QString intensity(double value) {
    return tr("%1 FLOPs/byte").arg(toQString(formatNumber(value)));
}

QString shapeLabel(const MatmulCase& c) {
    if (c.m == c.n && c.n == c.k)
        return tr("n=%1").arg(c.n);
    return tr("%1×%2×%3").arg(c.m).arg(c.n).arg(c.k);
}

} // namespace

std::string rooflineDeviceOf(const DeviceInfo& device) {
    if (device.backend == "cpu")
        return "cpu";
    return catalogIdForDeviceName(device.name);
}

BenchDtype benchDtypeOf(ComputeType compute) {
    for (BenchDtype d : allBenchDtypes())
        if (benchDtypeComputeType(d) == compute)
            return d;
    return BenchDtype::fp32; // every ComputeType has its BenchDtype (tf32, fp8-e4m3 included)
}

std::vector<RooflineChartData::Point> sweepPoints(const MatmulSweep& sweep, const DrawnRoof& drawn,
                                                  const RoofFor& roofFor) {
    std::vector<RooflineChartData::Point> points;
    const std::string device = rooflineDeviceOf(sweep.device);
    for (const MatmulResult& r : sweep.results) {
        if (!r.ok || r.flopsPerSecond <= 0)
            continue;
        const MatmulCase& c = r.shape;
        // A and B at the dtype's size, C at what the GEMM writes (fp8-e4m3 writes bf16: 2 bytes), as
        // bench matmul's `bytes` and `arithmetic_intensity` count them.
        const double inputBytes = benchDtypeBytes(c.dtype), outputBytes = benchDtypeOutputBytes(c.dtype);
        const auto m = static_cast<double>(c.m), n = static_cast<double>(c.n), k = static_cast<double>(c.k);
        RooflineChartData::Point p;
        p.flopsPerByte = 2.0 * m * n * k / gemmBytes(m, n, k, inputBytes, outputBytes);
        p.flopsPerSecond = r.flopsPerSecond;
        p.label = tr("%1 %2").arg(shapeLabel(c), toQString(benchDtypeName(c.dtype)));
        QString tip =
            tr("%1 %2, measured on %3\nintensity %4: 2·m·n·k / ((m·k + k·n) · %5 B + m·n · %6 B)\n"
               "measured %7 (median)")
                .arg(shapeLabel(c), toQString(benchDtypeName(c.dtype)), toQString(sweep.device.name),
                     intensity(p.flopsPerByte), toQString(formatNumber(inputBytes)),
                     toQString(formatNumber(outputBytes)), flopsPerSecond(p.flopsPerSecond));
        const std::optional<ComputeType> compute = benchDtypeComputeType(c.dtype);
        std::string whyNot;
        std::optional<Roofline> own;
        if (device.empty())
            whyNot = "'" + sweep.device.name + "' is not in the GPU catalog";
        else if (!compute)
            whyNot = std::string(benchDtypeName(c.dtype)) + " has no peak in the catalog";
        else
            own = roofFor(device, *compute, &whyNot);
        if (!own) {
            p.style = RooflineChartData::Style::otherRoof;
            tip += tr("\nits roof: not known (%1), so not checked").arg(toQString(whyNot));
        } else {
            const double attainable = own->attainableFlopsPerSecond(p.flopsPerByte);
            const bool above = isAboveRoof(*own, p.flopsPerByte, p.flopsPerSecond);
            const bool onDrawn = device == drawn.device && *compute == drawn.dtype;
            p.style = above     ? RooflineChartData::Style::aboveRoof
                      : onDrawn ? RooflineChartData::Style::measured
                                : RooflineChartData::Style::otherRoof;
            tip += tr("\n%1 of its roof (%2 %3: %4 at this intensity, %5-bound)")
                       .arg(QString::number(100 * p.flopsPerSecond / attainable, 'f', 1) + QLatin1Char('%'),
                            toQString(own->device), toQString(own->dtype), flopsPerSecond(attainable),
                            toQString(own->boundAt(p.flopsPerByte)));
            if (above)
                tip += tr("\nABOVE THE ROOF: a measurement or unit error, or the wrong roof");
            else if (!onDrawn)
                tip += tr("\n(not the roof drawn: shown in grey)");
        }
        p.tooltip = tip;
        points.push_back(p);
    }
    return points;
}

std::vector<RooflineChartData::Point> inferencePoints(const InferenceInput& in, const InferenceResult& r,
                                                      const QString& modelName) {
    std::vector<RooflineChartData::Point> points;
    const QString setting = tr("%1 on %2, weights %3, B=%4, S=%5")
                                .arg(modelName, toQString(in.gpu), toQString(weightFormatName(in.weights)),
                                     toQString(formatNumber(in.batch)), toQString(formatNumber(in.context)));
    if (r.decodeFlopsPerSecondPerGpu.value > 0 && r.arithmeticIntensity.value > 0) {
        RooflineChartData::Point decode;
        decode.style = RooflineChartData::Style::analytic;
        decode.flopsPerByte = r.arithmeticIntensity.value;
        decode.flopsPerSecond = r.decodeFlopsPerSecondPerGpu.value;
        decode.label = tr("decode B=%1").arg(toQString(formatNumber(in.batch)));
        decode.tooltip = tr("decode step (model, a roofline lower bound on time)\n%1\nintensity %2 = %3\n%4 per "
                            "GPU = %5; %6-bound")
                             .arg(setting, intensity(decode.flopsPerByte), toQString(r.arithmeticIntensity.formula),
                                  flopsPerSecond(decode.flopsPerSecond),
                                  toQString(r.decodeFlopsPerSecondPerGpu.formula), toQString(r.bound));
        points.push_back(decode);
    }
    if (r.prefillFlopsPerSecondPerGpu.value > 0 && r.prefillArithmeticIntensity.value > 0) {
        RooflineChartData::Point prefill;
        prefill.style = RooflineChartData::Style::analytic;
        prefill.flopsPerByte = r.prefillArithmeticIntensity.value;
        prefill.flopsPerSecond = r.prefillFlopsPerSecondPerGpu.value;
        prefill.label = tr("prefill P=%1").arg(toQString(formatNumber(in.prompt.value_or(in.context))));
        prefill.tooltip = tr("prefill (model, a roofline lower bound on time)\n%1\nintensity %2 = %3 (the "
                             "weights read; KV writes not counted)\n%4 per GPU = %5")
                              .arg(setting, intensity(prefill.flopsPerByte),
                                   toQString(r.prefillArithmeticIntensity.formula),
                                   flopsPerSecond(prefill.flopsPerSecond),
                                   toQString(r.prefillFlopsPerSecondPerGpu.formula));
        points.push_back(prefill);
    }
    return points;
}

InferenceInput defaultRooflineInference() {
    InferenceInput in;
    if (const ModelPreset* preset = findModelPreset("llama3-8b"))
        in.model = preset->model;
    in.gpu = "H100-SXM";
    in.weights = WeightFormat::bf16;
    in.kvCache = StorageType::bf16;
    in.context = 8192;
    in.batch = 1;
    return in;
}
