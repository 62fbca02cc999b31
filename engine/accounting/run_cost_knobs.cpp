// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/run_cost_knobs.h"

#include <array>
#include <charconv>
#include <string>

namespace napkin {
namespace {

// Not formatNumber, which a layout search's probe silences: the table is made once, whoever asks first.
std::string threeDecimals(double v) {
    std::array<char, 32> text{};
    return {text.data(),
            std::to_chars(text.data(), text.data() + text.size(), v, std::chars_format::fixed, 3).ptr};
}

} // namespace

std::span<const NumberKnob<RunCostInput>> runCostKnobs() {
    static const std::array<NumberKnob<RunCostInput>, 4> fields{{
        {"price_per_gpu_hour",
         "--price-per-gpu-hour",
         "dollars per GPU-hour; enables the run's cost (no default)",
         {0, 1e6, true, " dollars"},
         nullptr,
         &RunCostInput::pricePerGpuHour,
         {"Pri&ce:", 0.1, 2,
          "What one GPU-hour costs you, in dollars. No default: cloud prices differ by provider, region and "
          "commitment.",
          "$ per GPU-hour", 2.0}},
        {"power_fraction",
         "--power-fraction",
         "average draw as a fraction of TDP, (0, 1] (default 1)",
         {0, 1, true, " of the TDP"},
         &RunCostInput::powerFraction,
         nullptr,
         {"Po&wer / TDP:", 0.05, 2,
          "The GPUs' average draw as a fraction of their TDP (1: TDP, as Llama 2's model card counts)."}},
        {"pue",
         "--pue",
         "data-centre power usage effectiveness, [1, 3] (default 1: the GPUs alone)",
         {1, 3, false, ""},
         &RunCostInput::pue,
         nullptr,
         {"P&UE:", 0.05, 2,
          "Power usage effectiveness: the data centre's total power over its IT power (1: the GPUs alone)."}},
        {"grid_kg_co2_per_kwh",
         "--grid-intensity",
         "kg CO2eq per kWh, [0, 5] (default 0.387: U.S. average 2020, U.S. EIA)",
         {0, 5, false, " kg CO2eq per kWh"},
         nullptr,
         &RunCostInput::gridKgCo2PerKwh,
         {"Gri&d kg/kWh:", 0.01, 3,
          "kg CO2eq per kWh of the grid the run draws from. Default " +
              threeDecimals(kDefaultGridKgCo2PerKwh) + " kg/kWh: " + std::string(kDefaultGridSource) + ".",
          "own", kDefaultGridKgCo2PerKwh}},
    }};
    return fields;
}

} // namespace napkin
