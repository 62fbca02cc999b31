#pragma once
// Runs the compute benchmarks (a matmul sweep, a Cruncher training run) on a worker thread, never on
// the GUI thread. Results come back through queued signals; a generation counter drops whatever a
// cancelled or superseded run still delivers.
#include "engine/compute/benchmark_backend.h"
#include "engine/benchmarks/matmul_sweep.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

/// How far a run is, as the worker last saw it.
struct BenchmarkProgressReport {
    double fraction = 0;       ///< of the whole run, in [0, 1]
    double elapsedSeconds = 0; ///< since the run started (including the one-off peak measurement)
    std::optional<double> remainingSeconds; ///< elapsed·(1 − f)/f; unset until a first fraction is known
    QString phase;                          ///< "prepare", "warm-up", "timing", "verify", "training"
};

/// A finished training run, everything the page and the exports show.
struct TrainingReport {
    napkin::CruncherConfig config;
    long steps = 0;
    std::vector<double> losses;       ///< one per step, from the forward pass before the update
    napkin::TimingSummary stepTiming; ///< seconds per step, the first step left out when there are others
    double flopsPerStep = 0;          ///< 6·B·P − 2·B·D² (every GEMM issued)
    double flopsPerSecond = 0;        ///< flopsPerStep / median step
    std::optional<double> promisedFlopsPerSecond; ///< the device's fp32 promise
    std::optional<double> mfu;
    napkin::DeviceInfo device;
    struct Memory {
        QString component; ///< "parameters", "gradients", "optimizer state", "activations"
        double predictedBytes = 0, measuredBytes = 0;
    };
    std::vector<Memory> memory; ///< what the lecture's formula counts, component by component
    double predictedTotalBytes = 0, measuredTotalBytes = 0;
    double inputsBytes = 0, workspaceBytes = 0; ///< held by the trainer, not in the formula
};

class BenchmarkService : public QObject {
    Q_OBJECT
public:
    using BackendFactory = std::function<std::unique_ptr<napkin::BenchmarkBackend>()>;

    /// Uses the registry's "cpu" backend, made on the worker the first time it is needed.
    explicit BenchmarkService(QObject* parent = nullptr);
    /// Cancels what runs and waits for the worker (within one GEMM panel or training step).
    ~BenchmarkService() override;

    /// Replaces how the backend is made (tests: a backend with a failing dtype). Call before the first run.
    void setBackendFactory(BackendFactory factory) {
        m_factory = std::move(factory);
        m_deviceName = "custom";
    }
    /// The registry's backend called `name` ("cpu", "cuda") for the next runs; the worker makes it
    /// anew when the name changes. An unavailable one makes the run fail with the registry's reason.
    void setDevice(const std::string& name);

    /// Starts a sweep; supersedes (cancels) a run in flight.
    void startSweep(const std::vector<napkin::MatmulCase>& cases,
                    const napkin::MatmulRunOptions& options = {});
    /// Starts `steps` training steps; supersedes (cancels) a run in flight.
    void startTraining(const napkin::CruncherConfig& config, long steps);
    /// Stops the current run; nothing it still produces is delivered.
    void cancel();

    /// True while a worker job (even a cancelled one that is winding down) is still running.
    bool isBusy() const { return m_jobsInFlight->load() > 0; }
    quint64 generation() const { return m_generation->load(); }

signals:
    void progress(const BenchmarkProgressReport& report);
    void sweepFinished(const napkin::MatmulSweep& sweep);
    void trainingFinished(const TrainingReport& report);
    /// The run could not start or failed as a whole (no backend, a configuration it cannot train).
    void failed(const QString& message);
    /// Every job, including cancelled ones, has ended.
    void idle();

private:
    using Job = std::function<void(napkin::BenchmarkBackend& backend, quint64 generation,
                                   const std::function<bool()>& keepGoing,
                                   const std::function<void(double, const QString&)>& report)>;
    void launch(Job job);
    /// Runs on the GUI thread: emits `emitter` only if `generation` is still the current one.
    void deliver(quint64 generation, const std::function<void()>& emitter);

    BackendFactory m_factory;
    std::string m_deviceName = "cpu";                    // what m_factory makes (GUI thread)
    std::shared_ptr<napkin::BenchmarkBackend> m_backend; // touched by pool jobs only (one at a time)
    std::string m_backendDevice;                         // what m_backend is (pool jobs only)
    std::shared_ptr<std::atomic<quint64>> m_generation = std::make_shared<std::atomic<quint64>>(0);
    std::shared_ptr<std::atomic<int>> m_jobsInFlight = std::make_shared<std::atomic<int>>(0);
    QThreadPool m_pool; // one thread: runs never overlap, so the backend is never shared
};

Q_DECLARE_METATYPE(BenchmarkProgressReport)
Q_DECLARE_METATYPE(TrainingReport)
Q_DECLARE_METATYPE(napkin::MatmulSweep)
