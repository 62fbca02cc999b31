#include "app/benchmarks/benchmarks_export.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }
QString num(double v) { return QString::number(v, 'g', 17); }
QString optionalNum(const std::optional<double>& v) { return v ? num(*v) : QString(); }
QJsonValue optionalJson(const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }

QString csvField(QString text) {
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n')))
        return QLatin1Char('"') + text.replace(QLatin1String("\""), QLatin1String("\"\"")) + QLatin1Char('"');
    return text;
}

QJsonObject deviceJson(const napkin::DeviceInfo& d) {
    QJsonObject promised;
    for (const auto& [dtype, flops] : d.promisedFlopsPerSecond)
        promised[q(dtype)] = flops;
    return {{"backend", q(d.backend)}, {"name", q(d.name)}, {"cores", d.cores}, {"threads", d.threads},
            {"simd", q(d.simd)}, {"promised_flops_per_second", promised}, {"promised_basis", q(d.promisedBasis)},
            {"measured_fma_fp32_flops_per_second", optionalJson(d.measuredFp32FlopsPerSecond)},
            {"spec_fp32_flops_per_second", optionalJson(d.specFp32FlopsPerSecond)}};
}

QString write(const QByteArray& bytes, const QString& path) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("BenchmarksExport", "%1: %2").arg(path, file.errorString());
    if (file.write(bytes) != bytes.size() || !file.commit())
        return QCoreApplication::translate("BenchmarksExport", "%1: %2").arg(path, file.errorString());
    return {};
}

} // namespace

QByteArray benchmarksCsv(const std::optional<napkin::MatmulSweep>& sweep, const std::optional<TrainingReport>& training) {
    QStringList lines;
    lines << QStringLiteral("section,dtype,m,n,k,ok,flops,seconds_median,seconds_p20,seconds_p80,flops_per_second,"
                            "promised_flops_per_second,mfu,max_rel_error,error");
    if (sweep)
        for (const napkin::MatmulResult& r : sweep->results)
            lines << QStringList{QStringLiteral("matmul"), q(std::string(napkin::benchDtypeName(r.shape.dtype))),
                                 QString::number(r.shape.m), QString::number(r.shape.n), QString::number(r.shape.k),
                                 r.ok ? QStringLiteral("true") : QStringLiteral("false"), num(r.flops),
                                 r.ok ? num(r.timing.medianSeconds) : QString(), r.ok ? num(r.timing.p20Seconds) : QString(),
                                 r.ok ? num(r.timing.p80Seconds) : QString(), r.ok ? num(r.flopsPerSecond) : QString(),
                                 optionalNum(r.promisedFlopsPerSecond), optionalNum(r.mfu),
                                 r.ok ? num(r.maxRelError) : QString(), csvField(q(r.error))}
                         .join(QLatin1Char(','));
    if (training) {
        lines << QString() << QStringLiteral("section,dim,layers,batch,steps,optimizer,step_seconds_median,flops_per_step,"
                                             "flops_per_second,promised_flops_per_second,mfu");
        const TrainingReport& t = *training;
        lines << QStringList{QStringLiteral("training"), QString::number(t.config.dim), QString::number(t.config.layers),
                             QString::number(t.config.batch), QString::number(t.steps),
                             q(std::string(napkin::optimizerName(t.config.optimizer))), num(t.stepTiming.medianSeconds),
                             num(t.flopsPerStep), num(t.flopsPerSecond), optionalNum(t.promisedFlopsPerSecond),
                             optionalNum(t.mfu)}
                     .join(QLatin1Char(','));
        lines << QString() << QStringLiteral("section,component,predicted_bytes,measured_bytes");
        for (const auto& m : t.memory)
            lines << QStringList{QStringLiteral("memory"), csvField(m.component), num(m.predictedBytes), num(m.measuredBytes)}
                         .join(QLatin1Char(','));
        lines << QStringList{QStringLiteral("memory"), QStringLiteral("total"), num(t.predictedTotalBytes),
                             num(t.measuredTotalBytes)}
                     .join(QLatin1Char(','));
        lines << QString() << QStringLiteral("section,step,loss");
        for (std::size_t i = 0; i < t.losses.size(); ++i)
            lines << QStringLiteral("loss,%1,%2").arg(i + 1).arg(num(t.losses[i]));
    }
    return (lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8();
}

QByteArray benchmarksJson(const std::optional<napkin::MatmulSweep>& sweep, const std::optional<TrainingReport>& training) {
    QJsonObject doc;
    QJsonArray results;
    if (sweep) {
        doc[QStringLiteral("device")] = deviceJson(sweep->device);
        doc[QStringLiteral("cancelled")] = sweep->cancelled;
        for (const napkin::MatmulResult& r : sweep->results) {
            QJsonObject o{{"dtype", q(std::string(napkin::benchDtypeName(r.shape.dtype)))}, {"m", double(r.shape.m)},
                          {"n", double(r.shape.n)}, {"k", double(r.shape.k)}, {"ok", r.ok}, {"flops", r.flops},
                          {"promised_flops_per_second", optionalJson(r.promisedFlopsPerSecond)},
                          {"error", r.ok ? QJsonValue(QJsonValue::Null) : QJsonValue(q(r.error))}};
            if (r.ok) {
                o[QStringLiteral("seconds_median")] = r.timing.medianSeconds;
                o[QStringLiteral("seconds_p20")] = r.timing.p20Seconds;
                o[QStringLiteral("seconds_p80")] = r.timing.p80Seconds;
                o[QStringLiteral("samples")] = r.timing.samples;
                o[QStringLiteral("calls_per_sample")] = r.callsPerSample;
                o[QStringLiteral("warmup_runs")] = r.warmupRuns;
                o[QStringLiteral("flops_per_second")] = r.flopsPerSecond;
                o[QStringLiteral("mfu")] = optionalJson(r.mfu);
                o[QStringLiteral("max_rel_error")] = r.maxRelError;
            }
            results.append(o);
        }
    }
    doc[QStringLiteral("matmul")] = results;
    if (training) {
        const TrainingReport& t = *training;
        QJsonArray losses;
        for (double l : t.losses)
            losses.append(l);
        QJsonObject memory;
        for (const auto& m : t.memory)
            memory[m.component] = QJsonObject{{"predicted_bytes", m.predictedBytes}, {"measured_bytes", m.measuredBytes}};
        memory[QStringLiteral("total")] = QJsonObject{{"predicted_bytes", t.predictedTotalBytes}, {"measured_bytes", t.measuredTotalBytes}};
        doc[QStringLiteral("training")] = QJsonObject{
            {"dim", double(t.config.dim)}, {"layers", double(t.config.layers)}, {"batch", double(t.config.batch)},
            {"steps", double(t.steps)}, {"optimizer", q(std::string(napkin::optimizerName(t.config.optimizer)))},
            {"learning_rate", t.config.hyper.learningRate}, {"step_seconds_median", t.stepTiming.medianSeconds},
            {"flops_per_step", t.flopsPerStep}, {"flops_per_second", t.flopsPerSecond},
            {"promised_flops_per_second", optionalJson(t.promisedFlopsPerSecond)}, {"mfu", optionalJson(t.mfu)},
            {"loss", losses}, {"memory", memory}, {"device", deviceJson(t.device)}};
    } else {
        doc[QStringLiteral("training")] = QJsonValue(QJsonValue::Null);
    }
    return QJsonDocument(doc).toJson(QJsonDocument::Indented);
}

QString writeBenchmarksCsv(const std::optional<napkin::MatmulSweep>& sweep, const std::optional<TrainingReport>& training,
                           const QString& path) {
    return write(benchmarksCsv(sweep, training), path);
}

QString writeBenchmarksJson(const std::optional<napkin::MatmulSweep>& sweep, const std::optional<TrainingReport>& training,
                            const QString& path) {
    return write(benchmarksJson(sweep, training), path);
}
