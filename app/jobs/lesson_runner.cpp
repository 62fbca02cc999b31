#include "app/jobs/lesson_runner.h"

#include <exception>

LessonRunner::LessonRunner(QObject* parent)
    : QObject(parent) {
    m_pool.setMaxThreadCount(1);
    qRegisterMetaType<LessonRunner::Deliver>();
    // Queued: jobEnded is emitted on the worker, onJobEnded runs on the GUI thread.
    connect(this, &LessonRunner::jobEnded, this, &LessonRunner::onJobEnded, Qt::QueuedConnection);
}

LessonRunner::~LessonRunner() {
    cancel();
    m_pool.waitForDone();
}

void LessonRunner::cancel() {
    ++*m_generation;
}

void LessonRunner::start(Work work) {
    const quint64 generation = ++*m_generation;
    if (m_inFlight->fetch_add(1) == 0)
        emit busyChanged(true);
    auto current = m_generation;
    m_pool.start([this, work = std::move(work), generation, current] {
        const std::function<bool()> keepGoing = [current, generation] {
            return current->load() == generation;
        };
        Deliver deliver;
        QString error;
        try {
            deliver = work(keepGoing);
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

void LessonRunner::onJobEnded(quint64 generation, const Deliver& deliver, const QString& error) {
    if (m_generation->load() == generation) {
        if (!error.isEmpty())
            emit failed(error);
        else if (deliver)
            deliver();
    }
    if (m_inFlight->fetch_sub(1) == 1)
        emit busyChanged(false);
}
