// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The app's one way to run work off the GUI thread (benchmarks and lessons alike). One piece of work runs
// at a time on the runner's own worker thread; a new start supersedes the one in flight, whose
// keepGoing() turns false, and a generation counter drops whatever a cancelled or superseded run still
// delivers, so neither a second click nor a slider drag ever shows a stale result. Results come back
// to the GUI thread as a closure, and so may parts of it while the work runs.
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

/// How far the running work is, as the GUI thread last heard.
struct TaskProgress {
    double fraction = 0;                    ///< of the whole run, in [0, 1]
    QString phase;                          ///< the work's own word: "warm-up", "timing", "training", ...
    double elapsedSeconds = 0;              ///< since the work started
    std::optional<double> remainingSeconds; ///< elapsed·(1 − f)/f; unset until a first fraction is known
};

/// What the work is handed on the worker thread.
struct TaskContext {
    std::function<bool()> keepGoing; ///< false once the work was cancelled or superseded: stop early
    /// Reports progress; cheap to call often (posted at most every 50 ms, or when the phase changes).
    std::function<void(double fraction, const QString& phase)> progress;
    /// Hands part of the result to the GUI thread as it is made (a finished case, a training step's loss):
    /// the closure runs there, in order, before the final result, and is dropped like it when the work
    /// was cancelled or superseded by then. Not throttled: batch what comes faster than the eye follows.
    std::function<void(std::function<void()> partial)> deliverPartial;
};

class TaskRunner : public QObject {
    Q_OBJECT
public:
    /// Runs on the GUI thread with the worker's result (captured by value).
    using Deliver = std::function<void()>;
    /// Runs on the worker; may throw std::exception (→ failed() with its message).
    using Work = std::function<Deliver(const TaskContext& task)>;

    explicit TaskRunner(QObject* parent = nullptr);
    /// Cancels and waits for the worker (it stops at its next keepGoing check).
    ~TaskRunner() override;

    /// Starts `work`, superseding (cancelling) whatever runs.
    void start(Work work);
    /// Stops the current work; nothing it still produces is delivered.
    void cancel();
    /// True while any work (even a cancelled one winding down) is still on the worker.
    bool isBusy() const { return m_inFlight->load() > 0; }

signals:
    void progress(const TaskProgress& report);
    void failed(const QString& message);
    /// true when work starts on an idle runner; false when the last work in flight has ended.
    void busyChanged(bool busy);
    /// Emitted from the worker; queued to the GUI thread (the runner lives there).
    void jobEnded(quint64 generation, const TaskRunner::Deliver& deliver, const QString& error,
                  QPrivateSignal);
    void progressPosted(quint64 generation, const TaskProgress& report, QPrivateSignal);
    void partialPosted(quint64 generation, const TaskRunner::Deliver& partial, QPrivateSignal);

private:
    void onJobEnded(quint64 generation, const Deliver& deliver, const QString& error);

    std::shared_ptr<std::atomic<quint64>> m_generation = std::make_shared<std::atomic<quint64>>(0);
    std::shared_ptr<std::atomic<int>> m_inFlight = std::make_shared<std::atomic<int>>(0);
    QThreadPool m_pool; // one thread: work never overlaps, so what a job touches is never shared
};

Q_DECLARE_METATYPE(TaskRunner::Deliver)
Q_DECLARE_METATYPE(TaskProgress)
