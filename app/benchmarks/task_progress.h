// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An engine service's progress callback, as the Benchmarks page's TaskRunner jobs report it.
#include "app/jobs/task_runner.h"
#include "engine/benchmarks/benchmark_progress.h"

#include <atomic>
#include <functional>
#include <memory>

/// Reports each call to `task` ("fp32 1024³ · repeat 7/11"); false stops the service within one GEMM panel
/// or training step: when superseded (nothing is delivered) or when `stop` is set by Cancel (the finished
/// cases are delivered as a partial run). `finished` sees each report first, on the worker, to hand what
/// has finished to the GUI thread (TaskContext::deliverPartial).
napkin::ProgressCallback reportTo(const TaskContext& task, std::shared_ptr<const std::atomic<bool>> stop,
                                  std::function<void(const napkin::BenchmarkProgress&)> finished);
