// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/controls/number_field.h"

#include "engine/numerics/number_parse.h"
#include "engine/numerics/quantity_format.h"
#include "widgets/controls/error_overlay.h"

#include <QLineEdit>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

NumberField::NumberField(QWidget* parent)
    : QWidget(parent)
    , m_edit(new QLineEdit(this))
    , m_error(new ErrorOverlay(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(1);
    layout->addWidget(m_edit);
    m_edit->setPlaceholderText(tr("e.g. 70B, 15T, 1.5e9"));
    connect(m_edit, &QLineEdit::editingFinished, this, &NumberField::commit);
}

void NumberField::setValue(double value) {
    m_value = value;
    m_edit->setText(QString::fromStdString(napkin::formatNumber(value)));
    m_error->clearMessage();
}

void NumberField::setRange(double minimum, double maximum) {
    m_minimum = minimum;
    m_maximum = maximum;
    m_accepts = nullptr;
}

void NumberField::setAcceptance(std::function<bool(double)> accepts, const QString& requirement) {
    m_accepts = std::move(accepts);
    m_requirement = requirement;
}

QString NumberField::errorText() const {
    return m_error->text();
}

void NumberField::setWholeNumbers(bool whole) {
    m_whole = whole;
    m_edit->setPlaceholderText(whole ? tr("a whole number, e.g. 8, 1024") : tr("e.g. 70B, 15T, 1.5e9"));
}

void NumberField::commit() {
    const napkin::ParsedNumber parsed = napkin::parseNumber(m_edit->text().toStdString());
    QString message;
    if (!parsed.ok()) {
        message = tr("“%1”: %2 (character %3); keeping %4")
                      .arg(m_edit->text(), QString::fromStdString(parsed.error))
                      .arg(parsed.errorAt + 1)
                      .arg(QString::fromStdString(napkin::formatNumber(m_value)));
    } else if (m_whole && parsed.value != std::floor(parsed.value)) {
        message = tr("“%1”: must be a whole number; keeping %2")
                      .arg(m_edit->text(), QString::fromStdString(napkin::formatNumber(m_value)));
    } else if (m_accepts && !m_accepts(parsed.value)) {
        message =
            tr("%1; keeping %2").arg(m_requirement, QString::fromStdString(napkin::formatNumber(m_value)));
    } else if (!m_accepts && (parsed.value < m_minimum || parsed.value > m_maximum)) {
        message = tr("must be between %1 and %2; keeping %3")
                      .arg(QString::fromStdString(napkin::formatNumber(m_minimum)),
                           QString::fromStdString(napkin::formatNumber(m_maximum)),
                           QString::fromStdString(napkin::formatNumber(m_value)));
    }
    if (!message.isEmpty()) {
        m_error->showMessage(message);
        return;
    }
    m_error->clearMessage();
    if (parsed.value != m_value) {
        m_value = parsed.value;
        emit valueEdited(m_value);
    }
}
