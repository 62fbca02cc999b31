// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/benchmarks/task_progress.h"

#include <QString>

#include <utility>

using namespace napkin;

ProgressCallback reportTo(const TaskContext& task, std::shared_ptr<const std::atomic<bool>> stop,
                          std::function<void(const BenchmarkProgress&)> finished) {
    return [&task, stop = std::move(stop), finished = std::move(finished)](const BenchmarkProgress& p) {
        finished(p);
        task.progress(p.fraction, QString::fromStdString(p.detail.empty() ? p.phase : p.detail));
        return task.keepGoing() && !stop->load();
    };
}
