// The Benchmarks page's training job (benchmarks_page.cpp holds the page and its sweep).
#include "app/benchmarks/backend_cache.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/benchmarks/task_progress.h"
#include "app/benchmarks/training_run_panel.h"
#include "app/jobs/task_runner.h"

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
                     stop = m_stop](const TaskContext& task) {
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
        const TrainingRun run = runCruncherTraining(backend, request, reportTo(task, stop, showLoss));
        return TaskRunner::Deliver([this, run] {
            m_training->showRun(run);
            setRunning(false, run.cancelled ? tr("Cancelled: a partial run, %n step(s) kept.", nullptr,
                                                 static_cast<int>(run.losses.size()))
                                            : tr("Training done."));
        });
    });
}
