// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The message under the control a refused input came from: one alert-toned, wrapped row inserted into the
// control's form right below it, and removed again when the input is accepted. The Accounting and
// Inference pages each keep one (a page shows one refused field at a time).
#include <QString>

class QFormLayout;
class QLabel;
class QWidget;

class FieldErrorRow {
public:
    /// Replaces any message shown before with `message` under `control`'s row of `form`; shows nothing
    /// where `form` is null or does not hold `control`.
    void show(QFormLayout* form, QWidget* control, const QString& message);
    void clear();
    /// Empty while nothing is shown.
    QString text() const;
    /// The control the message is under; null while nothing is shown.
    QWidget* control() const { return m_control; }

private:
    QLabel* m_label = nullptr; ///< owned by the form's widget; the form's removeRow deletes it
    QWidget* m_control = nullptr;
    QFormLayout* m_form = nullptr;
};
