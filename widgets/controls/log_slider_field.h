// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A logarithmic slider paired with a NumberField: drag across decades (1e3 … 1e13 parameters) or type
// "70B". Changing either updates the other; valueChanged is emitted once per user change.
#include <QWidget>

class NumberField;
class QSlider;

class LogSliderField : public QWidget {
    Q_OBJECT
public:
    explicit LogSliderField(QWidget* parent = nullptr);

    /// Both the slider's ends and the values the field accepts; minimum > 0.
    void setRange(double minimum, double maximum);
    double value() const;
    /// Shows `value` in both parts without emitting valueChanged.
    void setValue(double value);
    /// Slider values are rounded to this many significant digits (and to whole numbers), so that a
    /// drag gives "7.08e10", not "70794578438.4". Default 3.
    void setSignificantDigits(int digits);

    QSlider* slider() const { return m_slider; }
    NumberField* field() const { return m_field; }

    /// Slider position (0 … steps) for `value`, and back; exposed for tests.
    int positionFor(double value) const;
    double valueAt(int position) const;
    static constexpr int steps = 1000;

signals:
    void valueChanged(double value);

private:
    void onSliderMoved(int position);
    void onFieldEdited(double value);

    QSlider* m_slider;
    NumberField* m_field;
    double m_minimum = 1;
    double m_maximum = 1e6;
    int m_digits = 3;
};
