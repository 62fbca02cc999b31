#include "app/benchmarks/benchmark_service.h"

#include "engine/accounting/accounting.h"
#include "engine/benchmarks/backend_registry.h"
#include "engine/hardware/gpu_catalog.h"

#include <QMetaObject>

#include <chrono>
#include <exception>
#include <stdexcept>

namespace {

using Clock = std::chrono::steady_clock;

// The lecture's prediction for the same Cruncher (as napkin-cli bench train computes it).
napkin::AccountingResult predictedMemory(const napkin::CruncherConfig& c) {
    napkin::AccountingInput in;
    in.model.kind = napkin::ModelKind::cruncher;
    in.model.dim = static_cast<double>(c.dim);
    in.model.layers = static_cast<double>(c.layers);
    in.batch = static_cast<double>(c.batch);
    in.optimizer = c.optimizer;
    in.precision = napkin::PrecisionRecipe::fp32;
    return napkin::account(in,
                           *napkin::GpuCatalog::builtIn().find(in.gpu)); // memory does not depend on the GPU
}

} // namespace

BenchmarkService::BenchmarkService(QObject* parent)
    : QObject(parent) {
    setDevice("cpu");
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
}

void BenchmarkService::setDevice(const std::string& name) {
    m_deviceName = name;
    m_factory = [name] {
        std::string why;
        auto backend = napkin::makeBackend(name, &why);
        if (!backend)
            throw std::runtime_error(why);
        return backend;
    };
}

BenchmarkService::~BenchmarkService() {
    ++*m_generation;
    m_pool.waitForDone();
}

void BenchmarkService::cancel() {
    ++*m_generation;
}

void BenchmarkService::deliver(quint64 generation, const std::function<void()>& emitter) {
    if (generation == m_generation->load())
        emitter();
}

void BenchmarkService::launch(Job job) {
    const quint64 mine = ++*m_generation;
    ++*m_jobsInFlight;
    auto live = m_generation;
    auto inFlight = m_jobsInFlight;
    m_pool.start(
        [this, job = std::move(job), mine, live, inFlight, factory = m_factory, device = m_deviceName] {
            const auto start = Clock::now();
            auto keepGoing = [live, mine] { return live->load() == mine; };
            auto lastPost = Clock::now() - std::chrono::seconds(1);
            QString lastPhase;
            // Progress is asked for every few milliseconds: post at most every 50 ms or on a phase change.
            auto report = [&](double fraction, const QString& phase) {
                const auto now = Clock::now();
                if (phase == lastPhase && now - lastPost < std::chrono::milliseconds(50))
                    return;
                lastPost = now;
                lastPhase = phase;
                BenchmarkProgressReport r;
                r.fraction = fraction;
                r.phase = phase;
                r.elapsedSeconds = std::chrono::duration<double>(now - start).count();
                if (fraction > 0.01)
                    r.remainingSeconds = r.elapsedSeconds * (1 - fraction) / fraction;
                QMetaObject::invokeMethod(
                    this, [this, mine, r] { deliver(mine, [this, r] { emit progress(r); }); },
                    Qt::QueuedConnection);
            };
            try {
                if (keepGoing()) {
                    if (!m_backend || m_backendDevice != device) {
                        m_backend.reset(); // a GPU backend frees its device memory before the next one starts
                        m_backend = factory();
                        m_backendDevice = device;
                    }
                    job(*m_backend, mine, keepGoing, report);
                }
            } catch (const std::exception& e) {
                const QString message = QString::fromStdString(e.what());
                QMetaObject::invokeMethod(
                    this, [this, mine, message] { deliver(mine, [this, message] { emit failed(message); }); },
                    Qt::QueuedConnection);
            }
            --*inFlight;
            QMetaObject::invokeMethod(
                this,
                [this, inFlight] {
                    if (inFlight->load() == 0)
                        emit idle();
                },
                Qt::QueuedConnection);
        });
}

void BenchmarkService::startSweep(const std::vector<napkin::MatmulCase>& cases,
                                  const napkin::MatmulRunOptions& options) {
    launch([this, cases, options](napkin::BenchmarkBackend& backend, quint64 mine,
                                  const std::function<bool()>& keepGoing,
                                  const std::function<void(double, const QString&)>& report) {
        report(0, QStringLiteral("prepare"));
        // The runner's callback returning false is its cancel: it stops within one GEMM panel.
        const napkin::MatmulSweep sweep =
            napkin::runMatmulSweep(backend, cases, options, [&](const napkin::BenchmarkProgress& p) {
                report(p.fraction, QString::fromStdString(p.phase));
                return keepGoing();
            });
        if (sweep.cancelled || !keepGoing())
            return;
        QMetaObject::invokeMethod(
            this, [this, mine, sweep] { deliver(mine, [this, sweep] { emit sweepFinished(sweep); }); },
            Qt::QueuedConnection);
    });
}

void BenchmarkService::startTraining(const napkin::CruncherConfig& config, long steps) {
    launch([this, config, steps](napkin::BenchmarkBackend& backend, quint64 mine,
                                 const std::function<bool()>& keepGoing,
                                 const std::function<void(double, const QString&)>& report) {
        report(0, QStringLiteral("prepare"));
        auto trainer = backend.makeCruncherTrainer(config);
        TrainingReport r;
        r.config = config;
        r.steps = steps;
        std::vector<double> seconds;
        // The trainer has no per-step callback: the loop runs here, asking keepGoing between steps.
        for (long s = 0; s < steps; ++s) {
            if (!keepGoing())
                return;
            const auto start = Clock::now();
            r.losses.push_back(trainer->step());
            seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
            report(static_cast<double>(s + 1) / static_cast<double>(steps), QStringLiteral("training"));
        }
        // The first step pays for page faults and thread start-up: it is the warm-up when there are others.
        r.stepTiming = napkin::summarizeTimings(
            seconds.size() > 1 ? std::vector<double>(seconds.begin() + 1, seconds.end()) : seconds);
        r.device = backend.deviceInfo();
        r.flopsPerStep = napkin::cruncherCountedFlopsPerStep(config);
        r.flopsPerSecond = r.stepTiming.medianSeconds > 0 ? r.flopsPerStep / r.stepTiming.medianSeconds : 0;
        if (const auto it = r.device.promisedFlopsPerSecond.find("fp32");
            it != r.device.promisedFlopsPerSecond.end()) {
            r.promisedFlopsPerSecond = it->second;
            if (it->second > 0)
                r.mfu = r.flopsPerSecond / it->second;
        }
        const napkin::AccountingResult p = predictedMemory(config);
        const napkin::MemoryLedger& ledger = trainer->ledger();
        using napkin::MemoryTag;
        r.memory = {
            {tr("parameters"), p.memory.parameters.value, ledger.currentBytes(MemoryTag::parameters)},
            {tr("gradients"), p.memory.gradients.value, ledger.currentBytes(MemoryTag::gradients)},
            {tr("optimizer state"), p.memory.optimizerState.value,
             ledger.currentBytes(MemoryTag::optimizerState)},
            {tr("activations"), p.memory.activations.value, ledger.currentBytes(MemoryTag::activations)}};
        if (p.memory.masterWeights.value != 0)
            r.memory.push_back({tr("master weights"), p.memory.masterWeights.value, 0});
        r.predictedTotalBytes = p.memory.total.value;
        r.measuredTotalBytes = ledger.countedBytes();
        r.inputsBytes = ledger.currentBytes(MemoryTag::inputs);
        r.workspaceBytes = ledger.currentBytes(MemoryTag::workspace);
        if (!keepGoing())
            return;
        QMetaObject::invokeMethod(
            this, [this, mine, r] { deliver(mine, [this, r] { emit trainingFinished(r); }); },
            Qt::QueuedConnection);
    });
}
