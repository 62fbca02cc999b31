// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/run_cost.h"

#include "engine/accounting/run_cost_knobs.h"

#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/text_concat.h"

#include <cmath>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

} // namespace

std::pair<std::string, std::string> validateRunCost(const RunCostInput& in) {
    return checkNumberKnobs(runCostKnobs(), in); // the ranges and words of the table (run_cost_knobs.h)
}

RunCost runCostFromGpuHours(double gpuHours, std::optional<double> wattsPerGpu, const RunCostInput& in) {
    const bool text = formulasWanted();
    RunCost c;
    c.gpuHours = {gpuHours, {}};
    if (in.pricePerGpuHour) {
        const double dollars = gpuHours * *in.pricePerGpuHour;
        c.dollars = Quantity{dollars, text ? concat({n(gpuHours), " GPU-h × $", n(*in.pricePerGpuHour),
                                                     "/GPU-h = $", n(dollars)})
                                           : std::string()};
    }
    c.gridIsDefault = !in.gridKgCo2PerKwh;
    c.gridKgCo2PerKwh = in.gridKgCo2PerKwh.value_or(kDefaultGridKgCo2PerKwh);
    if (!wattsPerGpu) {
        c.missing = "no TDP in the catalog for this part: energy and emissions are not answered";
        return c;
    }
    const double watts = *wattsPerGpu * in.powerFraction * in.pue;
    const double joules = gpuHours * 3600 * watts;
    const double kwh = joules / 3.6e6;
    const double kg = kwh * c.gridKgCo2PerKwh;
    if (text) {
        c.powerWatts = Quantity{watts, concat({n(*wattsPerGpu), " W × ", n(in.powerFraction), " × PUE ",
                                               n(in.pue), " = ", n(watts), " W per GPU"})};
        c.energyJoules = Quantity{joules, concat({n(gpuHours), " GPU-h × ", n(watts), " W = ", n(kwh / 1000),
                                                  " MWh (", n(joules), " J)"})};
        c.emissionsKg =
            Quantity{kg, concat({n(kwh / 1000), " MWh × ", n(c.gridKgCo2PerKwh), " kg/kWh",
                                 c.gridIsDefault ? " (" : "", c.gridIsDefault ? kDefaultGridSource : "",
                                 c.gridIsDefault ? ")" : "", " = ", n(kg / 1000), " t CO2eq"})};
    } else {
        c.powerWatts = Quantity{watts, {}};
        c.energyJoules = Quantity{joules, {}};
        c.emissionsKg = Quantity{kg, {}};
    }
    return c;
}

RunCost runCost(double gpus, double seconds, const GpuSpec& gpu, const RunCostInput& in) {
    const double gpuHours = gpus * seconds / 3600;
    RunCost c = runCostFromGpuHours(gpuHours, gpu.tdpWatts, in);
    if (formulasWanted())
        c.gpuHours.formula = concat({n(gpus), " GPUs × ", n(seconds), " s / 3600 = ", n(gpuHours), " GPU-h"});
    if (!gpu.tdpWatts)
        c.missing = "the catalog gives no TDP for the " + gpu.id + ": energy and emissions are not answered";
    return c;
}

std::optional<Quantity> dollarsPerMillionTokens(double tokensPerSecond, double gpus, const RunCostInput& in) {
    if (!in.pricePerGpuHour || !(tokensPerSecond > 0))
        return std::nullopt;
    const double dollars = *in.pricePerGpuHour * gpus / (tokensPerSecond * 3600) * 1e6;
    return Quantity{dollars, formulasWanted()
                                 ? "$" + n(*in.pricePerGpuHour) + "/GPU-h × " + n(gpus) + " GPUs / (" +
                                       n(tokensPerSecond) + " tokens/s × 3600 s/h) × 1e6 = $" + n(dollars) +
                                       " per million tokens"
                                 : std::string()};
}

} // namespace napkin
