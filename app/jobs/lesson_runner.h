#pragma once
// Runs one lesson computation at a time on a worker thread. A new start supersedes the previous one:
// its keepGoing() turns false and whatever it still returns is dropped (a generation counter), so a
// slider drag never shows a stale chart. Results come back on the GUI thread as a closure.
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

#include <QMetaType>

class LessonRunner : public QObject {
    Q_OBJECT
public:
    /// Runs on the GUI thread with the worker's result (captured by value).
    using Deliver = std::function<void()>;
    /// Runs on the worker; checks keepGoing() between steps; may throw std::exception (→ failed()).
    using Work = std::function<Deliver(const std::function<bool()>& keepGoing)>;

    explicit LessonRunner(QObject* parent = nullptr);
    /// Cancels and waits for the worker (it stops at its next keepGoing check).
    ~LessonRunner() override;

    void start(Work work);
    void cancel();
    bool isBusy() const { return m_inFlight->load() > 0; }

signals:
    void failed(const QString& message);
    void busyChanged(bool busy);
    /// Emitted from the worker; queued to the GUI thread (the runner lives there).
    void jobEnded(quint64 generation, const LessonRunner::Deliver& deliver, const QString& error,
                  QPrivateSignal);

private:
    void onJobEnded(quint64 generation, const Deliver& deliver, const QString& error);

    std::shared_ptr<std::atomic<quint64>> m_generation = std::make_shared<std::atomic<quint64>>(0);
    std::shared_ptr<std::atomic<int>> m_inFlight = std::make_shared<std::atomic<int>>(0);
    QThreadPool m_pool; // one thread: lesson runs never overlap
};

Q_DECLARE_METATYPE(LessonRunner::Deliver)
