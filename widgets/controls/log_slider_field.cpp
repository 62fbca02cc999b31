// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/log_slider_field.h"

#include "widgets/controls/number_field.h"

#include <QHBoxLayout>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>

LogSliderField::LogSliderField(QWidget* parent)
    : QWidget(parent)
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_field(new NumberField(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 3);
    layout->addWidget(m_field, 2);
    m_slider->setRange(0, steps);
    m_slider->setPageStep(steps / 20);
    m_slider->setSingleStep(1);
    // The slider follows the field; focus goes to the field first, where a value can be typed.
    setFocusProxy(m_field->lineEdit());
    connect(m_slider, &QSlider::valueChanged, this, &LogSliderField::onSliderMoved);
    connect(m_field, &NumberField::valueEdited, this, &LogSliderField::onFieldEdited);
    setRange(m_minimum, m_maximum);
}

void LogSliderField::setRange(double minimum, double maximum) {
    m_minimum = minimum;
    m_maximum = std::max(maximum, minimum * 10);
    m_field->setRange(m_minimum, m_maximum);
    setValue(std::clamp(value(), m_minimum, m_maximum));
}

double LogSliderField::value() const {
    return m_field->value();
}

void LogSliderField::setValue(double value) {
    m_field->setValue(value);
    const QSignalBlocker block(m_slider);
    m_slider->setValue(positionFor(value));
}

void LogSliderField::setSignificantDigits(int digits) {
    m_digits = std::max(1, digits);
}

int LogSliderField::positionFor(double value) const {
    if (!(value > 0))
        return 0;
    const double t =
        (std::log10(value) - std::log10(m_minimum)) / (std::log10(m_maximum) - std::log10(m_minimum));
    return static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * steps));
}

double LogSliderField::valueAt(int position) const {
    const double t = static_cast<double>(position) / steps;
    const double raw =
        std::pow(10.0, std::log10(m_minimum) + t * (std::log10(m_maximum) - std::log10(m_minimum)));
    // Round to significant digits, then to a whole number: the engine wants whole counts.
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)) - (m_digits - 1));
    double rounded = std::round(raw / magnitude) * magnitude;
    if (rounded >= 1)
        rounded = std::round(rounded);
    return std::clamp(rounded, m_minimum, m_maximum);
}

void LogSliderField::onSliderMoved(int position) {
    const double v = valueAt(position);
    if (v == m_field->value())
        return;
    m_field->setValue(v);
    emit valueChanged(v);
}

void LogSliderField::onFieldEdited(double value) {
    const QSignalBlocker block(m_slider);
    m_slider->setValue(positionFor(value));
    emit valueChanged(value);
}
