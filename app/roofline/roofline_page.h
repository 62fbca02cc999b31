// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Roofline page: one device's roof (a catalog GPU's datasheet, or this CPU's measured peak and
// bandwidth), the matmuls the Benchmarks page measured placed on it at their arithmetic intensity, and the
// analytic decode and prefill points of an inference setting. A point above its own roof is flagged: no
// real kernel beats min(peak, intensity × bandwidth), so it is a measurement or unit error.
#include "engine/inference/inference_accounting.h"
#include "engine/compute/benchmark_result.h"
#include "engine/hardware/roofline.h"
#include "engine/scenario/scenario.h"

#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

class ExplainPane;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class RooflineChart;
class TaskRunner;
struct TaskProgress;

class RooflinePage : public QWidget {
    Q_OBJECT
public:
    explicit RooflinePage(QWidget* parent = nullptr);
    ~RooflinePage() override;

    /// Device and type, for a scenario file; and back. A value this build does not offer is left as it
    /// was and returned as a warning.
    napkin::RooflineScenario scenario() const;
    QStringList applyScenario(const napkin::RooflineScenario& scenario);

    /// The roof drawn now, or nullopt (this CPU before it is measured, a type the GPU has no peak in).
    const std::optional<napkin::Roofline>& roof() const { return m_roof; }
    /// "above the roof: …" for every point above its own roof; empty when none is.
    QString aboveRoofMessage() const;
    /// What the page says about the roof (its sources, or why there is none).
    QString roofNote() const;
    RooflineChart* chart() const { return m_chart; }
    /// "How is this computed?": the roofs, the ridge, GEMM intensity, the inference points.
    ExplainPane* explainPane() const { return m_explain; }
    TaskRunner* runner() const { return m_runner; }
    /// The CPU roof for `dtype`, as a measurement would set it (tests hand one in without measuring).
    void setMeasuredCpuRoof(napkin::ComputeType dtype, const napkin::Roofline& roof);
    /// The triad's array size for Measure; 0 (the default) is the engine's, well past the last-level
    /// cache. Tests make it small to stay quick (the bandwidth is then the cache's, not memory's).
    void setMeasurementBytesPerArray(std::uint64_t bytes) { m_bytesPerArray = bytes; }

public slots:
    /// A finished sweep of the Benchmarks page: its successful cases become points (kept until cleared).
    void addMeasuredSweep(const napkin::MatmulSweep& sweep);
    /// The inference setting whose decode and prefill points are drawn, and its accounting (the Inference
    /// tab's; `result` is accountInference(input) of a valid input): the points are the result's.
    void setInferenceSetting(const napkin::InferenceInput& input, const napkin::InferenceResult& result);
    void clearMeasuredPoints();

protected:
    /// The column's view resized: the chart keeps four fifths of its height.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* makeControls();
    std::string device() const;
    napkin::ComputeType dtype() const;
    std::optional<napkin::Roofline> roofFor(const std::string& device, napkin::ComputeType dtype,
                                            std::string* whyNot) const;
    void measureCpuRoof();
    void onProgress(const TaskProgress& report);
    void rebuild();

    TaskRunner* m_runner;
    QComboBox* m_device = nullptr;
    QComboBox* m_dtype = nullptr;
    QPushButton* m_measure = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_roofNote;
    QLabel* m_aboveRoof;
    QLabel* m_inferenceNote;
    QLabel* m_pointsNote;
    RooflineChart* m_chart;
    QWidget* m_chartHolder = nullptr; ///< the chart, at least 4/5 of the column's view high
    QScrollArea* m_column = nullptr;  ///< the chart and its notes, scrolling
    ExplainPane* m_explain;
    std::optional<napkin::Roofline> m_roof;
    std::map<napkin::ComputeType, napkin::Roofline> m_cpuRoofs; ///< measured, per type
    std::vector<napkin::MatmulSweep> m_sweeps;
    napkin::InferenceInput m_inference;
    QString m_inferenceModel; ///< the model's name as the note and tooltips say it
    QString m_inferenceText;  ///< what the note says about the setting
    std::optional<napkin::InferenceResult> m_inferenceResult;
    std::uint64_t m_bytesPerArray = 0;
    bool m_measuring = false;
};
