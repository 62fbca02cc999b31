// SPDX-License-Identifier: GPL-3.0-or-later
// The Benchmarks page's training jobs: one Cruncher run, and the same Cruncher in every recipe the device
// runs (benchmarks_page.cpp holds the page and its sweep).
#include "app/benchmarks/backend_cache.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/hardware/hardware_profile_chooser.h"
#include "app/benchmarks/recipe_comparison.h"
#include "app/benchmarks/recipe_comparison_panel.h"
#include "app/benchmarks/task_progress.h"
#include "app/benchmarks/training_run_panel.h"
#include "app/jobs/task_runner.h"
#include "engine/benchmarks/cruncher_step_time.h"
#include "engine/benchmarks/training_recipes.h"

#include <QScrollArea>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <vector>

using namespace napkin;

namespace {

// How often a growing loss curve is redrawn: a tiny Cruncher trains thousands of steps a second.
constexpr auto kLossBatch = std::chrono::milliseconds(100);

} // namespace

void BenchmarksPage::startTraining(const TrainingRunRequest& request) {
    m_training->showRun(std::nullopt);
    setRunning(true, tr("Training…"));
    m_stop = std::make_shared<std::atomic<bool>>(false);
    m_runner->start([this, request, device = device(), options = backendOptions(), backends = m_backends,
                     stop = m_stop, profile = m_training->profileChooser()->profile(),
                     origin = m_training->profileChooser()->path().toStdString()](const TaskContext& task) {
        task.progress(0, QStringLiteral("prepare"));
        BenchmarkBackend& backend = backends->backendFor(device, options);
        if (std::string why = backend.unsupportedPrecisionReason(request.config.precision); !why.empty())
            throw std::invalid_argument(why); // the runner reports it as the run's failure
        // Each step's loss as it is known, handed over in batches: the curve grows while the run trains.
        std::vector<double> losses;
        auto lastPost = std::chrono::steady_clock::now() - kLossBatch;
        const auto showLoss = [this, &task, &losses, &lastPost,
                               steps = request.steps](const BenchmarkProgress& p) {
            if (!p.stepLoss)
                return;
            losses.push_back(*p.stepLoss);
            const auto now = std::chrono::steady_clock::now();
            if (now - lastPost < kLossBatch)
                return;
            lastPost = now;
            task.deliverPartial([this, losses, steps] { m_training->showRunningLosses(losses, steps); });
        };
        TrainingRun run = runCruncherTraining(backend, request, reportTo(task, stop, showLoss));
        predictRunStep(run, profile, origin); // a profile of another device: not predicted, and why
        return TaskRunner::Deliver([this, run] {
            m_training->showRun(run);
            setRunning(false, run.cancelled ? tr("Cancelled: a partial run, %n step(s) kept.", nullptr,
                                                 static_cast<int>(run.losses.size()))
                                            : tr("Training done."));
        });
    });
}

void BenchmarksPage::startRecipeComparison(const TrainingRunRequest& request) {
    m_recipes->showComparison(std::nullopt);
    // The button is in the panel above: the curves grow where the user can see them.
    m_panels->ensureWidgetVisible(m_recipes);
    setRunning(true, tr("Comparing recipes…"));
    m_stop = std::make_shared<std::atomic<bool>>(false);
    m_runner->start([this, request, device = device(), options = backendOptions(), backends = m_backends,
                     stop = m_stop, profile = m_training->profileChooser()->profile(),
                     origin = m_training->profileChooser()->path().toStdString()](const TaskContext& task) {
        task.progress(0, QStringLiteral("prepare"));
        BenchmarkBackend& backend = backends->backendFor(device, options);
        // Asked of the backend that trains, so the refusals shown are its own.
        RecipeComparison comparison = planRecipeComparison(backend, request.config);
        if (comparison.recipes.empty())
            throw std::invalid_argument(
                "this device's trainer runs none of fp32, tf32, mixed-bf16, mixed-fp16");
        // The refused rows at once, then every recipe's curve as it grows, handed over in batches.
        std::vector<RecipeLosses> curves;
        const auto post = [this, &task, &comparison, &curves, steps = request.steps] {
            task.deliverPartial([this, comparison, curves, steps] {
                m_recipes->showRunningComparison(comparison, curves, steps);
            });
        };
        post();
        auto lastPost = std::chrono::steady_clock::now();
        const auto showLoss = [&post, &curves, &lastPost](const BenchmarkProgress& p) {
            if (!addRecipeLoss(curves, p))
                return;
            const auto now = std::chrono::steady_clock::now();
            if (now - lastPost < kLossBatch)
                return;
            lastPost = now;
            post();
        };
        comparison.runs =
            runCruncherRecipes(backend, request, comparison.recipes, reportTo(task, stop, showLoss));
        // A run cancelled before its first step measured nothing: its recipe is listed as not run.
        std::erase_if(comparison.runs, [](const TrainingRun& r) { return r.losses.empty(); });
        for (TrainingRun& run : comparison.runs)
            predictRunStep(run, profile, origin);
        const bool whole =
            comparison.runs.size() == comparison.recipes.size() && !comparison.runs.back().cancelled;
        return TaskRunner::Deliver([this, comparison, whole] {
            m_recipes->showComparison(comparison);
            const int kept = static_cast<int>(comparison.runs.size());
            setRunning(false, whole ? tr("Recipes compared: %n run(s) side by side.", nullptr, kept)
                                    : tr("Cancelled: %n run(s) kept; the table marks one cut short.", nullptr,
                                         kept));
        });
    });
}
