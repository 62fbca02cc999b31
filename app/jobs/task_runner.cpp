// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/jobs/task_runner.h"

#include <chrono>
#include <exception>

TaskRunner::TaskRunner(QObject* parent)
    : QObject(parent) {
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
    qRegisterMetaType<TaskRunner::Deliver>();
    qRegisterMetaType<TaskProgress>();
    // Queued: both are emitted on the worker and handled on the GUI thread.
    connect(this, &TaskRunner::jobEnded, this, &TaskRunner::onJobEnded, Qt::QueuedConnection);
    connect(
        this, &TaskRunner::progressPosted, this,
        [this](quint64 generation, const TaskProgress& report) {
            if (generation == m_generation->load())
                emit progress(report);
        },
        Qt::QueuedConnection);
    connect(
        this, &TaskRunner::partialPosted, this,
        [this](quint64 generation, const Deliver& partial) {
            if (generation == m_generation->load() && partial)
                partial();
        },
        Qt::QueuedConnection);
}

TaskRunner::~TaskRunner() {
    cancel();
    m_pool.waitForDone();
}

void TaskRunner::cancel() {
    ++*m_generation;
}

void TaskRunner::start(Work work) {
    const quint64 generation = ++*m_generation;
    if (m_inFlight->fetch_add(1) == 0)
        emit busyChanged(true);
    auto current = m_generation;
    m_pool.start([this, work = std::move(work), generation, current] {
        using Clock = std::chrono::steady_clock;
        const auto started = Clock::now();
        auto lastPost = started - std::chrono::seconds(1);
        QString lastPhase;
        TaskContext task;
        task.keepGoing = [current, generation] { return current->load() == generation; };
        task.progress = [&, generation](double fraction, const QString& phase) {
            const auto now = Clock::now();
            if (phase == lastPhase && now - lastPost < std::chrono::milliseconds(50))
                return;
            lastPost = now;
            lastPhase = phase;
            TaskProgress report;
            report.fraction = fraction;
            report.phase = phase;
            report.elapsedSeconds = std::chrono::duration<double>(now - started).count();
            if (fraction > 0.01)
                report.remainingSeconds = report.elapsedSeconds * (1 - fraction) / fraction;
            emit progressPosted(generation, report, QPrivateSignal());
        };
        task.deliverPartial = [this, generation](const Deliver& partial) {
            emit partialPosted(generation, partial, QPrivateSignal());
        };
        Deliver deliver;
        QString error;
        try {
            if (task.keepGoing())
                deliver = work(task);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        } catch (...) {
            error = tr("unknown error");
        }
        // The destructor waits for this job, so `this` is alive here; a queued call still pending when
        // the runner is destroyed is dropped with it.
        emit jobEnded(generation, deliver, error, QPrivateSignal());
    });
}

void TaskRunner::onJobEnded(quint64 generation, const Deliver& deliver, const QString& error) {
    if (m_generation->load() == generation) {
        if (!error.isEmpty())
            emit failed(error);
        else if (deliver)
            deliver();
    }
    if (m_inFlight->fetch_sub(1) == 1)
        emit busyChanged(false);
}
