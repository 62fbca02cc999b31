// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a training run costs in GPU-hours, money, energy and carbon, from its time on its GPUs:
//   GPU-hours = GPUs × seconds / 3600
//   money     = GPU-hours × price per GPU-hour (the user's; no default without a dated source)
//   energy    = GPU-hours × TDP × power fraction × PUE (joules; shown as MWh)
//   emissions = energy × grid intensity (kg CO2eq; shown as tonnes)
// The method of Llama 2's model card (meta-llama/llama MODEL_CARD.md, "CO2 emissions during pretraining":
// GPU hours × power per GPU "adjusted for power usage efficiency" → tCO2eq). A few multiplications: cheap
// enough for every account() call; formula text only when formulasWanted().
#include "engine/accounting/model_state_memory.h"
#include "engine/hardware/gpu_catalog.h"

#include <optional>
#include <string>
#include <utility>

namespace napkin {

/// The default grid intensity: the U.S. average of 2020, 854 lb CO2 per MWh (U.S. EIA, as reported by
/// Daily Energy Insider, 15 Sep 2022: "In 2020, that figure averaged 854 pounds of CO2 per MW hour")
/// = 854 × 0.45359237 / 1000 kg/kWh.
inline constexpr double kDefaultGridKgCo2PerKwh = 854 * 0.45359237 / 1000;
inline constexpr const char* kDefaultGridSource =
    "default: U.S. average 2020, 854 lb CO2/MWh (U.S. EIA, via Daily Energy Insider 2022-09-15)";

/// What the user says about the run's price and power; saved in scenarios, flags on the command line.
struct RunCostInput {
    std::optional<double> pricePerGpuHour; ///< dollars per GPU-hour; unset: no money answer
    double powerFraction = 1;              ///< the GPUs' average draw as a fraction of TDP, (0, 1]
    double pue = 1; ///< data-centre power usage effectiveness, [1, 3]; 1: the GPUs alone, as Llama 2's card
    std::optional<double> gridKgCo2PerKwh; ///< unset: kDefaultGridKgCo2PerKwh, marked as the default
    bool operator==(const RunCostInput&) const = default;
};

struct RunCost {
    Quantity gpuHours;
    std::optional<Quantity> dollars;      ///< unset without a price
    std::optional<Quantity> energyJoules; ///< unset where the catalog gives no TDP for the part
    std::optional<Quantity> emissionsKg;  ///< kg CO2eq; unset with the energy
    std::optional<Quantity> powerWatts;   ///< per GPU: TDP × fraction × PUE
    double gridKgCo2PerKwh = 0;           ///< the intensity used
    bool gridIsDefault = true;            ///< the intensity is kDefaultGridKgCo2PerKwh
    std::string missing;                  ///< why an answer is absent ("no TDP in the catalog"), or empty
};

/// Checks the inputs: a price in (0, 1e6] $/GPU-hour, a fraction in (0, 1], a PUE in [1, 3], an intensity
/// in [0, 5] kg/kWh. Returns the field at fault and why, or an empty pair.
std::pair<std::string, std::string> validateRunCost(const RunCostInput& input);

/// The run's cost: `gpus` GPUs for `seconds`, each drawing `gpu`'s TDP × the fraction × PUE.
RunCost runCost(double gpus, double seconds, const GpuSpec& gpu, const RunCostInput& input);

/// As runCost from GPU-hours and a power per GPU directly (the model cards' own figures).
RunCost runCostFromGpuHours(double gpuHours, std::optional<double> wattsPerGpu, const RunCostInput& input);

/// Dollars per million tokens at `tokensPerSecond` on `gpus` GPUs: price × GPUs / (tokens/s × 3600) × 1e6.
std::optional<Quantity> dollarsPerMillionTokens(double tokensPerSecond, double gpus,
                                                const RunCostInput& input);

} // namespace napkin
