// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/field_error_row.h"

#include "widgets/controls/text_tone.h"

#include <QFormLayout>
#include <QLabel>

void FieldErrorRow::show(QFormLayout* form, QWidget* control, const QString& message) {
    clear();
    int row = -1;
    QFormLayout::ItemRole role{};
    if (form && control)
        form->getWidgetPosition(control, &row, &role);
    if (row < 0)
        return;
    m_label = new QLabel(message, control->parentWidget());
    m_label->setObjectName(QStringLiteral("fieldError"));
    setTextTone(m_label, TextTone::alert);
    m_label->setWordWrap(true);
    form->insertRow(row + 1, QString(), m_label);
    m_form = form;
    m_control = control;
}

void FieldErrorRow::clear() {
    if (!m_label)
        return;
    m_form->removeRow(m_label); // deletes the label
    m_label = nullptr;
    m_form = nullptr;
    m_control = nullptr;
}

QString FieldErrorRow::text() const {
    return m_label ? m_label->text() : QString();
}
