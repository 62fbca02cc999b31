// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/training_recipes.h"

#include <algorithm>
#include <stdexcept>

namespace napkin {

std::vector<std::string> trainingRecipesFromList(const std::string& list) {
    std::vector<std::string> names;
    std::size_t from = 0;
    while (true) {
        const std::size_t comma = list.find(',', from);
        const std::string name = list.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
        CruncherConfig probe;
        if (name.empty())
            throw std::invalid_argument("--precision: '" + list + "' has an empty item");
        if (!setTrainingRecipe(probe, name))
            throw std::invalid_argument("--precision: unknown '" + name + "' (fp32, tf32, mixed-bf16, mixed-fp16)");
        if (std::find(names.begin(), names.end(), name) != names.end())
            throw std::invalid_argument("--precision: '" + name + "' is named twice");
        names.push_back(name);
        if (comma == std::string::npos)
            return names;
        from = comma + 1;
    }
}

std::vector<TrainingRun> runCruncherRecipes(BenchmarkBackend& backend, const TrainingRunRequest& request,
                                            const std::vector<std::string>& recipes,
                                            const ProgressCallback& progress) {
    if (recipes.size() > 1 && (!request.resumeFrom.empty() || !request.saveTo.empty()))
        throw std::invalid_argument("--precision: a checkpoint belongs to one run: give one recipe with "
                                    "--save or --resume");
    std::vector<TrainingRunRequest> requests;
    for (const std::string& name : recipes) {
        TrainingRunRequest r = request;
        if (!setTrainingRecipe(r.config, name))
            throw std::invalid_argument("--precision: unknown '" + name + "'");
        if (std::string why = backend.unsupportedRecipeReason(r.config); !why.empty()) {
            if (why.rfind("--precision", 0) != 0)
                why.insert(0, "--precision " + name + ": ");
            throw std::invalid_argument(why);
        }
        requests.push_back(std::move(r));
    }
    std::vector<TrainingRun> runs;
    const auto count = static_cast<double>(requests.size());
    for (const TrainingRunRequest& r : requests) {
        const std::string name = trainingRecipeName(r.config);
        const auto done = static_cast<double>(runs.size());
        ProgressCallback each;
        if (progress)
            each = [&](const BenchmarkProgress& p) {
                BenchmarkProgress named = p;
                named.detail = name + " · " + p.detail;
                // Of the whole list, as BenchmarkProgress::fraction promises: a bar that ran to the end
                // once per recipe told a room nothing about how much of the comparison was left.
                named.fraction = (done + p.fraction) / count;
                return progress(named);
            };
        runs.push_back(runCruncherTraining(backend, r, each));
        if (runs.back().cancelled)
            break;
    }
    return runs;
}

} // namespace napkin
