// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/export/chart_data_export.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace {

// 17 significant digits: the double reads back exactly.
QString num(double v) {
    return QString::number(v, 'g', 17);
}

QString csvField(QString text) {
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) ||
        text.contains(QLatin1Char('\n')))
        return QLatin1Char('"') + text.replace(QLatin1String("\""), QLatin1String("\"\"")) + QLatin1Char('"');
    return text;
}

QString row(const QStringList& fields) {
    QStringList out;
    for (const QString& f : fields)
        out << csvField(f);
    return out.join(QLatin1Char(',')) + QLatin1Char('\n');
}

const QStringList kHeader{QStringLiteral("series"), QStringLiteral("name"), QStringLiteral("value"),
                          QStringLiteral("unit"), QStringLiteral("formula")};

QJsonObject bar(const QString& name, double value, const QString& formula) {
    return {{QStringLiteral("name"), name},
            {QStringLiteral("value"), value},
            {QStringLiteral("formula"), formula}};
}

} // namespace

QByteArray memoryChartCsv(const MemoryChartData& d) {
    QString csv = row(kHeader);
    for (const MemoryChartData::Segment& s : d.segments)
        csv += row({QStringLiteral("memory"), s.name, num(s.bytes), QStringLiteral("bytes"), s.formula});
    csv += row({QStringLiteral("memory"),
                QStringLiteral("total"),
                num(d.totalBytes()),
                QStringLiteral("bytes"),
                {}});
    csv += row({QStringLiteral("capacity"), d.gpuLabel, num(d.capacityBytes), QStringLiteral("bytes"),
                d.capacityFormula});
    return csv.toUtf8();
}

QByteArray memoryChartJson(const MemoryChartData& d) {
    QJsonArray segments;
    for (const MemoryChartData::Segment& s : d.segments)
        segments.append(bar(s.name, s.bytes, s.formula));
    const QJsonObject root{{QStringLiteral("chart"), QStringLiteral("memory per GPU")},
                           {QStringLiteral("unit"), QStringLiteral("bytes")},
                           {QStringLiteral("gpu"), d.gpuLabel},
                           {QStringLiteral("segments"), segments},
                           {QStringLiteral("total"), d.totalBytes()},
                           {QStringLiteral("capacity"), d.capacityBytes},
                           {QStringLiteral("capacity_formula"), d.capacityFormula},
                           {QStringLiteral("fits"), d.fits}};
    return QJsonDocument(root).toJson();
}

QByteArray flopChartCsv(const FlopChartData& d) {
    QString csv = row(kHeader);
    for (const FlopChartData::Bar& b : d.phases)
        csv += row({QStringLiteral("phase"), b.label, num(b.flops), QStringLiteral("FLOPs"), b.formula});
    for (const FlopChartData::Bar& b : d.components)
        csv += row(
            {QStringLiteral("forward component"), b.label, num(b.flops), QStringLiteral("FLOPs"), b.formula});
    return csv.toUtf8();
}

QByteArray flopChartJson(const FlopChartData& d) {
    QJsonArray phases, components;
    for (const FlopChartData::Bar& b : d.phases)
        phases.append(bar(b.label, b.flops, b.formula));
    for (const FlopChartData::Bar& b : d.components)
        components.append(bar(b.label, b.flops, b.formula));
    const QJsonObject root{{QStringLiteral("chart"), QStringLiteral("FLOPs per step per GPU")},
                           {QStringLiteral("unit"), QStringLiteral("FLOPs")},
                           {QStringLiteral("phases"), phases},
                           {QStringLiteral("forward_components"), components}};
    return QJsonDocument(root).toJson();
}

QByteArray rangeChartCsv(const QVector<DynamicRangeChart::Bar>& bars) {
    QString csv = row({QStringLiteral("format"), QStringLiteral("min_subnormal"),
                       QStringLiteral("min_normal"), QStringLiteral("max")});
    for (const DynamicRangeChart::Bar& b : bars)
        csv += row({b.name, num(b.minSubnormal), num(b.minNormal), num(b.max)});
    return csv.toUtf8();
}

QByteArray rangeChartJson(const QVector<DynamicRangeChart::Bar>& bars) {
    QJsonArray formats;
    for (const DynamicRangeChart::Bar& b : bars)
        formats.append(QJsonObject{{QStringLiteral("format"), b.name},
                                   {QStringLiteral("min_subnormal"), b.minSubnormal},
                                   {QStringLiteral("min_normal"), b.minNormal},
                                   {QStringLiteral("max"), b.max}});
    return QJsonDocument(QJsonObject{{QStringLiteral("chart"), QStringLiteral("dynamic range")},
                                     {QStringLiteral("formats"), formats}})
        .toJson();
}
