// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to widgets/charts: an axis whose tick labels carry units ("80 GB", "1.2 PFLOPs") through a
// formatter, with tick steps that are round in the unit shown (a GiB axis ticks 10 GiB, 20 GiB, … rather
// than multiples of 10.74 GB). One ticker for bytes, FLOPs, anything with a unit step.
#include "engine/numerics/quantity_format.h"

#include <qcustomplot.h>

#include <QString>

#include <algorithm>
#include <cmath>
#include <functional>

class UnitAxisTicker : public QCPAxisTicker {
public:
    /// `format` writes a value with its unit; `unitStep` is the factor between units (1000, or 1024).
    UnitAxisTicker(std::function<QString(double)> format, double unitStep)
        : m_format(std::move(format))
        , m_unitStep(unitStep) {}

    void setFormat(std::function<QString(double)> format, double unitStep) {
        m_format = std::move(format);
        m_unitStep = unitStep;
    }

protected:
    double unitFor(double value) const {
        double unit = 1;
        while (value / unit >= m_unitStep && unit < 1e18)
            unit *= m_unitStep;
        return unit;
    }
    double getTickStep(const QCPRange& range) override {
        const double unit = unitFor(std::max(std::fabs(range.upper), std::fabs(range.lower)));
        return QCPAxisTicker::getTickStep(QCPRange(range.lower / unit, range.upper / unit)) * unit;
    }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        if (std::fabs(tick) < 1e-9)
            return QStringLiteral("0");
        return m_format(tick);
    }

private:
    std::function<QString(double)> m_format;
    double m_unitStep;
};

/// Bytes, in GB (steps of 1000) or GiB (steps of 1024).
inline QSharedPointer<UnitAxisTicker> byteAxisTicker(napkin::ByteUnits units) {
    return QSharedPointer<UnitAxisTicker>::create(
        [units](double bytes) { return QString::fromStdString(napkin::formatBytes(bytes, units)); },
        units == napkin::ByteUnits::decimal ? 1000.0 : 1024.0);
}

/// A log axis labelled in FLOP/s ("12 GFLOP/s"): the throughput and roofline charts.
class FlopsPerSecondLogTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return QString::fromStdString(napkin::formatFlops(tick, true));
    }
};

/// A log axis in powers of two labelled as whole numbers (1, 2, 4, … 4096): matrix sizes, batch sizes.
inline void setPowersOfTwoAxis(QCPAxis& axis) {
    axis.setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(2);
    axis.setTicker(ticker);
    axis.setNumberFormat(QStringLiteral("f"));
    axis.setNumberPrecision(0);
}
