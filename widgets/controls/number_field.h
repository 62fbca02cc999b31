// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A line edit for quantities people type as "70B", "15T" or "1.5e9". Invalid text is refused with a
// visible message under the field, drawn over what lies below (ErrorOverlay: the form does not jump), and
// the last valid value is kept.
#include <QWidget>

#include <functional>

class ErrorOverlay;
class QLineEdit;

class NumberField : public QWidget {
    Q_OBJECT
public:
    explicit NumberField(QWidget* parent = nullptr);

    double value() const { return m_value; }
    /// Shows `value` without emitting valueEdited.
    void setValue(double value);
    /// Values outside [minimum, maximum] are refused with a message.
    void setRange(double minimum, double maximum);
    /// Instead of a range: the values `accepts` takes, and the words a refusal says ("must be in (0, 1]"),
    /// so the field accepts what the engine's table of the knob accepts, in its words.
    void setAcceptance(std::function<bool(double)> accepts, const QString& requirement);
    /// Counts (batch, layers, GPUs) refuse fractions in the field itself, so that no page-level error
    /// has to explain later why 2.5 sequences cannot be accounted for.
    /// Its empty field then suggests counts ("e.g. 8, 1024"), not "70B, 15T".
    void setWholeNumbers(bool whole);
    /// The message shown for the last refused input; empty when the field is valid.
    QString errorText() const;
    QLineEdit* lineEdit() const { return m_edit; }

signals:
    /// The user committed a valid new value (Enter or focus out).
    void valueEdited(double value);

private:
    void commit();

    QLineEdit* m_edit;
    ErrorOverlay* m_error;
    double m_value = 0;
    double m_minimum = 0;
    double m_maximum = 1e300;
    bool m_whole = false;
    std::function<bool(double)> m_accepts; ///< set: replaces the range
    QString m_requirement;
};
