// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/run_cost_json.h"

#include "engine/report/json_values.h"

namespace napkin {

using nlohmann::json;

namespace {

json optionalQuantity(const std::optional<Quantity>& q, double scale = 1) {
    return q ? jsonNumber(q->value * scale) : json(nullptr);
}

json peak(const GpuSpec& gpu, ComputeType c) {
    if (!densePeakGiven(gpu, c))
        return nullptr;
    const double value = densePeakFlopsPerSecond(gpu, c);
    return value > 0 ? jsonNumber(value) : json("none");
}

json optionalPeak(const std::optional<double>& value) {
    if (!value)
        return nullptr;
    return *value > 0 ? jsonNumber(*value) : json("none");
}

json textOrNull(const std::string& s) {
    return s.empty() ? json(nullptr) : json(s);
}

} // namespace

void addRunCostJson(json& doc, json& formulas, const AccountingInput& in, const AccountingResult& r) {
    const RunCostInput& ci = in.cost;
    if (!r.runCost) {
        doc["run_cost"] = nullptr;
        return;
    }
    const RunCost& c = *r.runCost;
    doc["run_cost"] = {
        {"gpu_hours", jsonNumber(c.gpuHours.value)},
        {"price_per_gpu_hour", ci.pricePerGpuHour ? jsonNumber(*ci.pricePerGpuHour) : json(nullptr)},
        {"dollars", optionalQuantity(c.dollars)},
        {"power_fraction", jsonNumber(ci.powerFraction)},
        {"pue", jsonNumber(ci.pue)},
        {"power_watts_per_gpu", optionalQuantity(c.powerWatts)},
        {"energy_joules", optionalQuantity(c.energyJoules)},
        {"energy_mwh", optionalQuantity(c.energyJoules, 1 / 3.6e9)},
        {"grid_kg_co2_per_kwh", jsonNumber(c.gridKgCo2PerKwh)},
        {"grid_intensity_source", c.gridIsDefault ? json(kDefaultGridSource) : json("user supplied")},
        {"emissions_kg", optionalQuantity(c.emissionsKg)},
        {"emissions_tonnes", optionalQuantity(c.emissionsKg, 1e-3)},
        {"missing", textOrNull(c.missing)}};
    formulas["run_cost.gpu_hours"] = c.gpuHours.formula;
    if (c.dollars)
        formulas["run_cost.dollars"] = c.dollars->formula;
    if (c.energyJoules) {
        formulas["run_cost.power_watts_per_gpu"] = c.powerWatts->formula;
        formulas["run_cost.energy_joules"] = c.energyJoules->formula;
        formulas["run_cost.emissions_kg"] = c.emissionsKg->formula;
    }
}

json gpuCapabilityJson(const GpuSpec& gpu) {
    return {
        {"vendor", textOrNull(gpu.vendor)},
        {"kind", gpu.kind},
        {"architecture", textOrNull(gpu.architecture)},
        {"compute_capability", textOrNull(gpu.computeCapability)},
        {"vendor_arch", textOrNull(gpu.vendorArch)},
        {"tdp_watts", gpu.tdpWatts ? jsonNumber(*gpu.tdpWatts) : json(nullptr)},
        {"host_link", textOrNull(gpu.hostLinkName)},
        {"interconnect", textOrNull(gpu.interconnect)},
        {"driver_memory_bytes", gpu.driverMemoryBytes ? jsonNumber(*gpu.driverMemoryBytes) : json(nullptr)},
        {"unified_memory_bytes",
         gpu.unifiedMemoryBytes ? jsonNumber(*gpu.unifiedMemoryBytes) : json(nullptr)},
        {"dense_peaks",
         {{"fp64", optionalPeak(gpu.densePeakFp64)},
          {"fp32", peak(gpu, ComputeType::fp32)},
          {"tf32", peak(gpu, ComputeType::tf32)},
          {"fp16", peak(gpu, ComputeType::fp16)},
          {"bf16", peak(gpu, ComputeType::bf16)},
          {"fp8", peak(gpu, ComputeType::fp8)},
          {"int8", optionalPeak(gpu.densePeakInt8)},
          {"fp4", optionalPeak(gpu.densePeakFp4)}}}};
}

} // namespace napkin
