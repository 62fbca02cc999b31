// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A table of knobs (engine/accounting/number_knob.h) as rows of a form: each knob its label, a spin box
// with the table's range, step and decimals (an open lower bound starts one step of its decimals above),
// (an open end one step of its decimals inside), and its tooltip naming the flag; an optional knob a
// checkbox beside its box, the box greyed while unset.
// What the controls hold and show is the table's, so the page, the CLI and a scenario file accept the same
// values.
#include "engine/accounting/number_knob.h"
#include "widgets/controls/number_field.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QSpinBox>
#include <QString>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <vector>

/// The knob's tooltip: the look's words, then its napkin-cli flag.
template <class Input> QString numberKnobTip(const napkin::NumberKnob<Input>& f) {
    return QString::fromStdString(f.look.tip) + QStringLiteral(" ") +
           QString::fromUtf8(f.flag.data(), static_cast<qsizetype>(f.flag.size()));
}

/// The knob's form label, with its mnemonic ("&Batch:").
template <class Input> QString numberKnobLabel(const napkin::NumberKnob<Input>& f) {
    return QString::fromUtf8(f.look.label.data(), static_cast<qsizetype>(f.look.label.size()));
}

/// `field` takes what the knob's range takes (fractions refused in the field for a whole-number knob) and
/// refuses the rest in the table's words; its tooltip is the knob's.
template <class Input> void acceptAsKnob(NumberField* field, const napkin::NumberKnob<Input>& f) {
    const napkin::NumberRange range = f.range;
    field->setWholeNumbers(range.whole);
    field->setAcceptance([range](double v) { return range.contains(v); },
                         QString::fromStdString(range.requirement()));
    field->setToolTip(numberKnobTip(f));
}

/// A typed field for one knob (a count or a fraction read exactly as typed: "0.555" stays 0.555).
template <class Input> NumberField* numberKnobField(const napkin::NumberKnob<Input>& f, QWidget* parent) {
    auto* field = new NumberField(parent);
    acceptAsKnob(field, f);
    return field;
}

/// An integer spin box for a whole-number knob: the table's range (an open end one inside) and step, and the
/// knob's tooltip. For a page whose counts are spin boxes of whole numbers (the parallel layout's sizes).
template <class Input> QSpinBox* numberKnobSpinBox(const napkin::NumberKnob<Input>& f, QWidget* parent) {
    constexpr double kMost = std::numeric_limits<int>::max();
    auto* box = new QSpinBox(parent);
    box->setRange(static_cast<int>(std::min(f.range.lowOpen ? f.range.low + 1 : f.range.low, kMost)),
                  static_cast<int>(std::min(f.range.highOpen ? f.range.high - 1 : f.range.high, kMost)));
    box->setSingleStep(static_cast<int>(f.look.step));
    box->setToolTip(numberKnobTip(f));
    return box;
}

/// One knob's widgets: its row (the form's field), its box, its checkbox (optional knobs only).
struct NumberKnobRow {
    QWidget* row = nullptr;
    QDoubleSpinBox* box = nullptr;
    QCheckBox* check = nullptr;
};

/// Adds a row to `form` for each knob of `fields`, in order; `parent` owns the widgets.
template <class Input>
std::vector<NumberKnobRow> addNumberKnobRows(QFormLayout* form, QWidget* parent,
                                             std::span<const napkin::NumberKnob<Input>> fields) {
    std::vector<NumberKnobRow> rows;
    for (const napkin::NumberKnob<Input>& f : fields) {
        NumberKnobRow r;
        r.box = new QDoubleSpinBox(parent);
        // An open end starts (or stops) one step of the box's decimals inside it: [0, 1) shows 0–0.99.
        const double tick = std::pow(10.0, -f.look.decimals);
        const double least = f.range.lowOpen ? f.range.low + tick : f.range.low;
        const double most = f.range.highOpen ? f.range.high - tick : f.range.high;
        r.box->setDecimals(f.look.decimals);
        r.box->setRange(least, most);
        r.box->setSingleStep(f.look.step);
        const QString tip = numberKnobTip(f);
        r.box->setToolTip(tip);
        r.row = r.box;
        if (f.isOptional()) {
            r.check = new QCheckBox(
                QString::fromUtf8(f.look.checkText.data(), static_cast<qsizetype>(f.look.checkText.size())),
                parent);
            r.check->setToolTip(tip);
            r.row = new QWidget(parent);
            auto* layout = new QHBoxLayout(r.row);
            layout->setContentsMargins(0, 0, 0, 0);
            layout->addWidget(r.check);
            layout->addWidget(r.box, 1);
            r.row->setFocusProxy(r.check);
        }
        form->addRow(numberKnobLabel(f), r.row);
        rows.push_back(r);
    }
    return rows;
}

/// The knobs' values as the rows hold them, over `in`.
template <class Input>
Input numberKnobValues(std::span<const napkin::NumberKnob<Input>> fields,
                       const std::vector<NumberKnobRow>& rows, Input in) {
    for (std::size_t i = 0; i < fields.size() && i < rows.size(); ++i) {
        const NumberKnobRow& r = rows[i];
        fields[i].set(in, !r.check || r.check->isChecked() ? std::optional(r.box->value()) : std::nullopt);
    }
    return in;
}

/// Shows `in`'s values (an unset optional knob: its checkbox off, its box greyed at the table's value).
template <class Input>
void showNumberKnobValues(std::span<const napkin::NumberKnob<Input>> fields,
                          const std::vector<NumberKnobRow>& rows, const Input& in) {
    for (std::size_t i = 0; i < fields.size() && i < rows.size(); ++i) {
        const NumberKnobRow& r = rows[i];
        const std::optional<double> v = fields[i].get(in);
        if (r.check)
            r.check->setChecked(v.has_value());
        r.box->setValue(v.value_or(fields[i].look.shownWhenUnset));
        r.box->setEnabled(!r.check || r.check->isChecked());
    }
}

/// The widgets of the knob validation names `field` ("power-fraction"), or nullptr.
template <class Input>
const NumberKnobRow* numberKnobRowOf(std::span<const napkin::NumberKnob<Input>> fields,
                                     const std::vector<NumberKnobRow>& rows, std::string_view field) {
    for (std::size_t i = 0; i < fields.size() && i < rows.size(); ++i)
        if (fields[i].field() == field)
            return &rows[i];
    return nullptr;
}

/// The row of the knob validation names `field`, or nullptr: where a refusal is shown.
template <class Input>
QWidget* numberKnobRowFor(std::span<const napkin::NumberKnob<Input>> fields,
                          const std::vector<NumberKnobRow>& rows, std::string_view field) {
    const NumberKnobRow* r = numberKnobRowOf(fields, rows, field);
    return r ? r->row : nullptr;
}
