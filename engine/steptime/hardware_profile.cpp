// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/steptime/hardware_profile.h"

#include "engine/io/bounded_file_read.h"
#include "engine/text/json_nesting.h"
#include "engine/text/printable_text.h"
#include "engine/numerics/quantity_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace napkin {
namespace {

using nlohmann::json;

// A refusal naming the field: thrown inside the reader, caught once at its top.
struct FieldError {
    std::string message;
};

[[noreturn]] void refuse(const std::string& field, const std::string& why) {
    throw FieldError{field + ": " + why};
}

const json& member(const json& object, const std::string& field, const std::string& path) {
    const auto it = object.find(field);
    if (it == object.end())
        refuse(path + field, "missing");
    return *it;
}

std::string text(const json& object, const std::string& field, const std::string& path, bool required) {
    const auto it = object.find(field);
    if (it == object.end()) {
        if (required)
            refuse(path + field, "missing");
        return {};
    }
    if (!it->is_string())
        refuse(path + field, "must be a string");
    return it->get<std::string>();
}

// A number in [lo, hi]: the figures a profile holds, kept where the step time's arithmetic stays finite
// (a rate of 1e-300 FLOP/s would time a step at infinity).
double number(const json& object, const std::string& field, const std::string& path, double lo, double hi) {
    const json& value = member(object, field, path);
    if (!value.is_number())
        refuse(path + field, "must be a number");
    const double v = value.get<double>();
    if (!std::isfinite(v) || v < lo || v > hi)
        refuse(path + field, "must lie in [" + formatNumber(lo) + ", " + formatNumber(hi) + "]");
    return v;
}

constexpr double kMaxRate = 1e21; ///< FLOP/s or bytes/s: 1,000 times a B200's bf16 peak
constexpr double kMaxSide = 1e7;  ///< a GEMM's m, n or k

GemmRate gemmRate(const json& item, const std::string& path) {
    if (!item.is_object())
        refuse(path.substr(0, path.size() - 1), "must be an object");
    GemmRate rate;
    const std::string dtype = text(item, "dtype", path, true);
    const std::optional<ComputeType> type = computeTypeFromName(dtype);
    if (!type)
        refuse(path + "dtype", "'" + printable(dtype) + "' is not fp32, tf32, fp16, bf16 or fp8");
    rate.dtype = *type;
    rate.m = number(item, "m", path, 1, kMaxSide);
    rate.n = number(item, "n", path, 1, kMaxSide);
    rate.k = number(item, "k", path, 1, kMaxSide);
    rate.flopsPerSecond = number(item, "flops_per_second", path, 1, kMaxRate);
    // Optional (profiles written before it keep opening, as `any`).
    const std::string orientation = text(item, "orientation", path, false);
    if (item.contains("orientation")) {
        const std::optional<GemmOrientation> o = gemmOrientationFromName(orientation);
        if (!o)
            refuse(path + "orientation",
                   "'" + printable(orientation) + "' is not any, forward, input_gradient or weight_gradient");
        rate.orientation = *o;
    }
    return rate;
}

UpdateRate updateRate(const json& item, const std::string& path) {
    if (!item.is_object())
        refuse(path.substr(0, path.size() - 1), "must be an object");
    UpdateRate rate;
    const std::string optimizer = text(item, "optimizer", path, true);
    const std::optional<OptimizerKind> kind = optimizerFromName(optimizer);
    if (!kind)
        refuse(path + "optimizer", "'" + printable(optimizer) + "' is not an optimizer napkin models");
    rate.optimizer = *kind;
    const std::string implementation = text(item, "implementation", path, true);
    const std::optional<OptimizerImplementation> how = optimizerImplementationFromName(implementation);
    if (!how)
        refuse(path + "implementation",
               "'" + printable(implementation) + "' is not single-tensor, foreach or fused");
    rate.implementation = *how;
    const std::string dtype = text(item, "dtype", path, true);
    const std::optional<StorageType> type = storageTypeFromName(dtype);
    if (!type || *type == StorageType::none)
        refuse(path + "dtype", "'" + printable(dtype) + "' is not fp32, fp16, bf16 or fp8");
    rate.dtype = *type;
    rate.elements = number(item, "elements", path, 1, 1e15);
    rate.bytesPerSecond = number(item, "bytes_per_second", path, 1, kMaxRate);
    return rate;
}

HardwareProfile parse(const json& doc) {
    if (!doc.is_object())
        refuse("profile", "must be a JSON object");
    if (text(doc, "format", "", true) != kHardwareProfileFormat)
        refuse("format", "must be \"" + std::string(kHardwareProfileFormat) + "\"");
    const json& version = member(doc, "version", "");
    if (!version.is_number_integer() || version.get<long long>() != kHardwareProfileVersion)
        refuse("version", "must be " + std::to_string(kHardwareProfileVersion));
    HardwareProfile p;
    p.device = text(doc, "device", "", true);
    if (p.device.empty())
        refuse("device", "must name the catalog id the profile was measured on");
    p.deviceName = text(doc, "device_name", "", false);
    p.source = text(doc, "source", "", true);
    if (p.source.empty())
        refuse("source", "must say what measured the profile");
    const json& gemms = member(doc, "gemm", "");
    if (!gemms.is_array())
        refuse("gemm", "must be an array");
    for (std::size_t i = 0; i < gemms.size(); ++i)
        p.gemms.push_back(gemmRate(gemms[i], "gemm[" + std::to_string(i) + "]."));
    p.memoryBandwidthBytesPerSecond = number(doc, "memory_bandwidth_bytes_per_second", "", 1, kMaxRate);
    p.bandwidthSource = text(doc, "bandwidth_source", "", false);
    if (const auto it = doc.find("elementwise"); it != doc.end()) {
        if (!it->is_array())
            refuse("elementwise", "must be an array");
        for (std::size_t i = 0; i < it->size(); ++i) {
            const std::string path = "elementwise[" + std::to_string(i) + "].";
            const json& item = (*it)[i];
            if (!item.is_object())
                refuse(path.substr(0, path.size() - 1), "must be an object");
            const std::string dtype = text(item, "dtype", path, true);
            const std::optional<StorageType> type = storageTypeFromName(dtype);
            if (!type || *type == StorageType::none)
                refuse(path + "dtype", "'" + printable(dtype) + "' is not fp32, fp16, bf16 or fp8");
            p.elementwise.push_back({*type, number(item, "bytes_per_second", path, 1, kMaxRate)});
        }
    }
    if (const auto it = doc.find("optimizer_update"); it != doc.end()) {
        if (!it->is_array())
            refuse("optimizer_update", "must be an array");
        for (std::size_t i = 0; i < it->size(); ++i)
            p.updates.push_back(updateRate((*it)[i], "optimizer_update[" + std::to_string(i) + "]."));
    }
    if (doc.contains("threads")) {
        const double threads = number(doc, "threads", "", 1, 4096);
        if (threads != std::floor(threads))
            refuse("threads", "must be a whole number");
        p.threads = static_cast<int>(threads);
    }
    if (doc.contains("normal_draws_per_second"))
        p.normalDrawsPerSecond = number(doc, "normal_draws_per_second", "", 1, kMaxRate);
    p.perOpOverheadSeconds = number(doc, "per_op_overhead_seconds", "", 0, 1);
    p.overheadSource = text(doc, "overhead_source", "", false);
    return p;
}

} // namespace

HardwareProfileRead hardwareProfileFromJson(std::string_view jsonText) {
    HardwareProfileRead read;
    constexpr int kMaxDepth = 8; // the format nests three deep
    if (jsonNestingDepth(jsonText, kMaxDepth) > kMaxDepth) {
        read.error = "profile: nested deeper than a hardware profile is";
        return read;
    }
    const json doc = json::parse(jsonText, nullptr, false);
    if (doc.is_discarded()) {
        read.error = "profile: not valid JSON";
        return read;
    }
    try {
        read.profile = parse(doc);
    } catch (const FieldError& e) {
        read.error = e.message;
    }
    return read;
}

HardwareProfileRead readHardwareProfile(const std::string& path) {
    const BoundedFileRead file = readBoundedFile(path, kMaxHardwareProfileBytes);
    if (!file.ok())
        return {std::nullopt, file.error};
    HardwareProfileRead read = hardwareProfileFromJson(file.bytes);
    if (!read.error.empty())
        read.error = printable(path) + ": " + read.error;
    return read;
}

std::string hardwareProfileToJson(const HardwareProfile& p) {
    json gemms = json::array();
    for (const GemmRate& g : p.gemms) {
        json item = {{"dtype", std::string(computeTypeName(g.dtype))},
                     {"m", g.m},
                     {"n", g.n},
                     {"k", g.k},
                     {"flops_per_second", g.flopsPerSecond}};
        if (g.orientation !=
            GemmOrientation::any) // absent reads as `any`: old readers' files stay as they were
            item["orientation"] = std::string(gemmOrientationName(g.orientation));
        gemms.push_back(std::move(item));
    }
    json elementwise = json::array();
    for (const ElementwiseRate& e : p.elementwise)
        elementwise.push_back(
            {{"dtype", std::string(storageTypeName(e.dtype))}, {"bytes_per_second", e.bytesPerSecond}});
    json updates = json::array();
    for (const UpdateRate& u : p.updates)
        updates.push_back({{"optimizer", std::string(optimizerName(u.optimizer))},
                           {"implementation", std::string(optimizerImplementationName(u.implementation))},
                           {"dtype", std::string(storageTypeName(u.dtype))},
                           {"elements", u.elements},
                           {"bytes_per_second", u.bytesPerSecond}});
    const json doc = {{"format", std::string(kHardwareProfileFormat)},
                      {"version", kHardwareProfileVersion},
                      {"device", p.device},
                      {"device_name", p.deviceName},
                      {"source", p.source},
                      {"gemm", gemms},
                      {"memory_bandwidth_bytes_per_second", p.memoryBandwidthBytesPerSecond},
                      {"bandwidth_source", p.bandwidthSource},
                      {"elementwise", elementwise},
                      {"per_op_overhead_seconds", p.perOpOverheadSeconds},
                      {"overhead_source", p.overheadSource}};
    json out = doc;
    if (!p.updates.empty()) // absent when none was timed: a profile without updates reads as before
        out["optimizer_update"] = updates;
    if (p.normalDrawsPerSecond > 0)
        out["normal_draws_per_second"] = p.normalDrawsPerSecond;
    if (p.threads > 0)
        out["threads"] = p.threads;
    return out.dump(2) + "\n";
}

double memoryBytesPerSecond(const HardwareProfile& profile, StorageType dtype) {
    for (const ElementwiseRate& e : profile.elementwise)
        if (e.dtype == dtype)
            return e.bytesPerSecond;
    return profile.memoryBandwidthBytesPerSecond;
}

double updateBytesPerSecond(const HardwareProfile& profile, OptimizerKind optimizer,
                            OptimizerImplementation implementation, StorageType dtype, double elements) {
    // The nearest in log size: a parameter that fits in cache updates faster than one streamed from DRAM.
    double rate = 0, nearest = 0;
    for (const UpdateRate& u : profile.updates) {
        if (u.optimizer != optimizer || u.implementation != implementation || u.dtype != dtype)
            continue;
        const double distance = std::abs(std::log(u.elements / std::max(elements, 1.0)));
        if (rate == 0 || distance < nearest) {
            rate = u.bytesPerSecond;
            nearest = distance;
        }
    }
    return rate;
}

double fastestGemmFlopsPerSecond(const HardwareProfile& profile, ComputeType dtype) {
    double best = 0;
    for (const GemmRate& g : profile.gemms)
        if (g.dtype == dtype)
            best = std::max(best, g.flopsPerSecond);
    return best;
}

std::string_view gemmOrientationName(GemmOrientation orientation) {
    switch (orientation) {
    case GemmOrientation::any:
        return "any";
    case GemmOrientation::forward:
        return "forward";
    case GemmOrientation::inputGradient:
        return "input_gradient";
    case GemmOrientation::weightGradient:
        return "weight_gradient";
    }
    return "any";
}

std::optional<GemmOrientation> gemmOrientationFromName(std::string_view name) {
    for (const GemmOrientation o : {GemmOrientation::any, GemmOrientation::forward,
                                    GemmOrientation::inputGradient, GemmOrientation::weightGradient})
        if (gemmOrientationName(o) == name)
            return o;
    return std::nullopt;
}

std::optional<double> gemmFlopsPerSecond(const HardwareProfile& profile, ComputeType dtype, double m,
                                         double n, double k, GemmOrientation orientation) {
    // The shape itself, measured in this orientation: a generic BLAS's rate follows its loop nest's cache
    // behaviour at that shape, which no interpolation in volume recovers.
    for (const GemmRate& g : profile.gemms)
        if (g.dtype == dtype && g.orientation == orientation && g.m == m && g.n == n && g.k == k)
            return g.flopsPerSecond;
    // Otherwise the rates of this orientation (and those measured as `any`); all of the dtype's if none.
    auto usable = [&](const GemmRate& g, bool anyOrientation) {
        return g.dtype == dtype && (anyOrientation || orientation == GemmOrientation::any ||
                                    g.orientation == orientation || g.orientation == GemmOrientation::any);
    };
    // (log volume, rate) of the dtype's measured shapes, smallest first.
    std::vector<std::pair<double, double>> points;
    for (const bool anyOrientation : {false, true}) {
        for (const GemmRate& g : profile.gemms)
            if (usable(g, anyOrientation))
                points.emplace_back(std::log(g.m * g.n * g.k), g.flopsPerSecond);
        if (!points.empty())
            break;
    }
    if (points.empty())
        return std::nullopt;
    std::sort(points.begin(), points.end());
    const double x = std::log(std::max(m * n * k, 1.0));
    if (x <= points.front().first)
        return points.front().second;
    if (x >= points.back().first)
        return points.back().second;
    const auto above = std::upper_bound(points.begin(), points.end(), std::make_pair(x, 0.0));
    const auto below = above - 1;
    if (above->first == below->first)
        return std::max(above->second, below->second);
    const double t = (x - below->first) / (above->first - below->first);
    return below->second + t * (above->second - below->second);
}

} // namespace napkin
