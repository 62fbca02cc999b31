#pragma once
// The Benchmarks page's numbers as CSV and JSON files (written through QSaveFile: never half a file).
#include "app/benchmarks/benchmark_service.h"

#include <QByteArray>
#include <QString>

#include <optional>

/// One row per matmul case, then one row per training memory component and the training figures.
QByteArray benchmarksCsv(const std::optional<napkin::MatmulSweep>& sweep, const std::optional<TrainingReport>& training);
/// {"device": …, "matmul": [...], "training": {...} | null}.
QByteArray benchmarksJson(const std::optional<napkin::MatmulSweep>& sweep, const std::optional<TrainingReport>& training);

/// Write the above to `path`; an error message, or an empty string.
QString writeBenchmarksCsv(const std::optional<napkin::MatmulSweep>& sweep, const std::optional<TrainingReport>& training,
                           const QString& path);
QString writeBenchmarksJson(const std::optional<napkin::MatmulSweep>& sweep, const std::optional<TrainingReport>& training,
                            const QString& path);
