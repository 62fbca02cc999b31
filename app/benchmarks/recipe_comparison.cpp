// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/benchmarks/recipe_comparison.h"

#include "engine/compute/cruncher_config.h"

#include <string_view>
#include <utility>

using namespace napkin;

const std::vector<std::string>& comparedRecipes() {
    // What the lecture sets side by side: full precision, its tensor-core matmul mode, and the two
    // mixed-precision recipes (16-bit GEMMs, fp32 master weights and optimizer state).
    static const std::vector<std::string> recipes{"fp32", "tf32", "mixed-bf16", "mixed-fp16"};
    return recipes;
}

std::vector<RecipeRefusal> refusedRecipes(const BenchmarkBackend& backend, const CruncherConfig& config) {
    std::vector<RecipeRefusal> refused;
    for (const std::string& name : comparedRecipes()) {
        CruncherConfig c = config;
        setTrainingRecipe(c, name);
        if (std::string why = backend.unsupportedRecipeReason(c); !why.empty())
            refused.push_back({name, std::move(why)});
    }
    return refused;
}

RecipeComparison planRecipeComparison(const BenchmarkBackend& backend, const CruncherConfig& config) {
    RecipeComparison plan;
    plan.refused = refusedRecipes(backend, config);
    for (const std::string& name : comparedRecipes()) {
        bool refused = false;
        for (const RecipeRefusal& r : plan.refused)
            refused = refused || r.recipe == name;
        if (!refused)
            plan.recipes.push_back(name);
    }
    return plan;
}

bool addRecipeLoss(std::vector<RecipeLosses>& curves, const BenchmarkProgress& p) {
    constexpr std::string_view kLead = " · ";
    const std::size_t lead = p.detail.find(kLead);
    if (!p.stepLoss || lead == std::string::npos || lead == 0)
        return false;
    const std::string recipe = p.detail.substr(0, lead);
    if (curves.empty() || curves.back().recipe != recipe)
        curves.push_back({recipe, {}});
    curves.back().losses.push_back(*p.stepLoss);
    return true;
}
