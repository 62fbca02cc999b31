// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/formats/number_formats_page.h"

#include "app/formats/explain_number_format.h"
#include "app/formats/number_format_notes.h"
#include "engine/numerics/float_rounding.h"
#include "engine/numerics/number_parse.h"
#include "engine/numerics/quantity_format.h"
#include "engine/numerics/size_list.h"
#include "widgets/charts/dynamic_range_chart.h"
#include "widgets/controls/bit_field_view.h"
#include "widgets/controls/error_overlay.h"
#include "widgets/controls/explain_pane.h"
#include "widgets/controls/panel_scroll_area.h"
#include "widgets/controls/text_tone.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

using napkin::FloatFormat;

namespace {

// The shortest decimal text that reads back as exactly this double ("0.1", "0.0999755859375").
QString exactText(double value) {
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("+inf") : QStringLiteral("-inf");
    return QString::fromStdString(napkin::formatShortest(value));
}

QString errorText(const std::optional<double>& error) {
    if (!error)
        return QStringLiteral("—");
    if (std::isinf(*error))
        return QStringLiteral("∞");
    return QString::fromStdString(napkin::formatNumber(*error));
}

std::size_t indexOf(FloatFormat format) {
    for (std::size_t i = 0; i < napkin::kFloatFormats.size(); ++i)
        if (napkin::kFloatFormats[i] == format)
            return i;
    return 0;
}

QString factsTooltip(FloatFormat format) {
    const napkin::FloatFacts f = napkin::floatFacts(format);
    return QCoreApplication::translate(
               "NumberFormatsPage", "1 sign, %1 exponent, %2 mantissa bits, bias %3\nmax %4\nmin normal %5\n"
                                    "min subnormal %6\neps %7\n%8 distinct finite values")
        .arg(f.exponentBits)
        .arg(f.mantissaBits)
        .arg(f.bias)
        .arg(exactText(f.max), exactText(f.minNormal), exactText(f.minSubnormal), exactText(f.eps))
        .arg(f.finiteValues, 0, 'f', 0);
}

} // namespace

NumberFormatsPage::NumberFormatsPage(QWidget* parent)
    : QWidget(parent)
    , m_valueEdit(new QLineEdit(this))
    , m_valueError(new ErrorOverlay(m_valueEdit))
    , m_saturate(new QCheckBox(tr("fp8 saturates (clamp to ±max instead of NaN / inf)"), this))
    , m_chart(new DynamicRangeChart(this))
    , m_shapeEdit(new QLineEdit(QStringLiteral("49152, 12288"), this))
    , m_tensorCost(new QLabel(this)) {
    // The page scrolls down when presentation mode's type makes it taller than the window.
    auto* content = new QWidget(this);
    auto* page = new QVBoxLayout(content);
    page->setContentsMargins(0, 0, 0, 0);

    auto* input = new QHBoxLayout;
    input->addWidget(new QLabel(tr("Value:"), this));
    m_valueEdit->setPlaceholderText(tr("e.g. 1e-8, 65504, -1.5, inf, nan"));
    m_valueEdit->setMaximumWidth(260);
    input->addWidget(m_valueEdit);
    for (const char* pick : {"1e-8", "0.1", "65504", "448", "3.14159", "1e5"}) {
        auto* button = new QPushButton(QString::fromLatin1(pick), this);
        button->setToolTip(tr("Store %1").arg(QString::fromLatin1(pick)));
        connect(button, &QPushButton::clicked, this, [this, pick] {
            m_valueEdit->setText(QString::fromLatin1(pick));
            commitValueText();
        });
        input->addWidget(button);
    }
    input->addStretch(1);
    page->addLayout(input);
    // On a row of its own: beside the six values it made the page wider than a projector in large type.
    page->addWidget(m_saturate);
    // The refused value's message is drawn over what lies under the field (ErrorOverlay): a row of its
    // own made the table of formats jump down while it was shown.

    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(10);
    const QStringList headers = {tr("Format"),     tr("Bits: sign · exponent · mantissa (click to flip)"),
                                 tr("Hex"),        tr("Stored value"),
                                 tr("Abs. error"), tr("Rel. error"),
                                 tr("Class")};
    for (int c = 0; c < headers.size(); ++c) {
        auto* header = new QLabel(QStringLiteral("<b>%1</b>").arg(headers[c]), this);
        header->setWordWrap(true); // a header is never what makes the table wider than a projector
        grid->addWidget(header, 0, c, Qt::AlignBottom);
    }
    int gridRow = 1;
    for (FloatFormat format : napkin::kFloatFormats) {
        Row& row = m_rows[indexOf(format)];
        const napkin::FloatLayout& layout = napkin::floatLayout(format);
        auto* name = new QLabel(
            QStringLiteral("<b>%1</b>").arg(QString::fromLatin1(layout.name.data(), int(layout.name.size()))),
            this);
        name->setToolTip(factsTooltip(format));
        row.bits = new BitFieldView(this);
        row.bits->setFieldWidths(layout.exponentBits, layout.mantissaBits);
        row.hex = new QLabel(this);
        row.value = new QLabel(this);
        row.absError = new QLabel(this);
        row.relError = new QLabel(this);
        row.cls = new QLabel(this);
        for (QLabel* label : {row.hex, row.value, row.absError, row.relError})
            label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        grid->addWidget(name, gridRow, 0);
        grid->addWidget(row.bits, gridRow, 1);
        grid->addWidget(row.hex, gridRow, 2);
        grid->addWidget(row.value, gridRow, 3);
        grid->addWidget(row.absError, gridRow, 4);
        grid->addWidget(row.relError, gridRow, 5);
        grid->addWidget(row.cls, gridRow, 6);
        auto* note = new QLabel(numberFormatNote(format), this);
        note->setWordWrap(true);
        // The palette's secondary text, which dark and presentation mode give their contrast: a fixed
        // #7f8c8d was 3.0:1 on the light window and 3.4:1 on a projector's white (WCAG asks 4.5:1).
        note->setForegroundRole(QPalette::PlaceholderText);
        note->setObjectName(QStringLiteral("formatNote"));
        grid->addWidget(note, gridRow + 1, 1, 1, 6);
        connect(row.bits, &BitFieldView::bitsEdited, this,
                [this, format](std::uint32_t bits) { onBitsEdited(format, bits); });
        gridRow += 2;
    }
    grid->setColumnStretch(1, 1);
    page->addLayout(grid);

    QVector<DynamicRangeChart::Bar> bars;
    for (FloatFormat format : napkin::kFloatFormats) {
        const napkin::FloatFacts f = napkin::floatFacts(format);
        const std::string_view name = napkin::floatFormatName(format);
        bars.push_back(
            {QString::fromLatin1(name.data(), int(name.size())), f.minSubnormal, f.minNormal, f.max});
    }
    m_chart->setBars(bars);
    page->addWidget(m_chart, 1);

    auto* tensor = new QHBoxLayout;
    tensor->addWidget(new QLabel(tr("Tensor shape:"), this));
    m_shapeEdit->setToolTip(tr("Sizes separated by commas or ×, e.g. 4, 8 or 12288*4, 12288"));
    m_shapeEdit->setMaximumWidth(200);
    tensor->addWidget(m_shapeEdit);
    m_tensorCost->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tensorCost->setWordWrap(true); // five formats' sizes are wider than a projector in large type
    tensor->addWidget(m_tensorCost, 1);
    page->addLayout(tensor);
    auto* outer = new QVBoxLayout(this);
    outer->addWidget(new PanelScrollArea(content, this), 1);
    m_explain = new ExplainPane(this);
    outer->addWidget(m_explain);

    connect(m_valueEdit, &QLineEdit::editingFinished, this, &NumberFormatsPage::commitValueText);
    connect(m_saturate, &QCheckBox::toggled, this, &NumberFormatsPage::refresh);
    connect(m_shapeEdit, &QLineEdit::editingFinished, this, &NumberFormatsPage::refreshTensorCost);

    showValueText();
    refresh();
    refreshTensorCost();
}

BitFieldView* NumberFormatsPage::bitView(FloatFormat format) const {
    return m_rows[indexOf(format)].bits;
}
QLabel* NumberFormatsPage::storedValueLabel(FloatFormat format) const {
    return m_rows[indexOf(format)].value;
}
QLabel* NumberFormatsPage::classLabel(FloatFormat format) const {
    return m_rows[indexOf(format)].cls;
}
QList<QWidget*> NumberFormatsPage::resultCells() const {
    QList<QWidget*> cells;
    for (const Row& row : m_rows)
        cells << row.bits << row.hex << row.value << row.absError << row.relError << row.cls;
    return cells;
}

// A top-level page closes its window in ~QWidget, after this part of the object is gone; the line edits
// then lose focus and emit editingFinished into a half-destroyed page (UBSan found it). Cut them off first.
NumberFormatsPage::~NumberFormatsPage() {
    disconnect(m_valueEdit, nullptr, this, nullptr);
    disconnect(m_shapeEdit, nullptr, this, nullptr);
}

void NumberFormatsPage::setValue(double value) {
    m_pinned.reset();
    m_value = value;
    showValueText();
    refresh();
}

void NumberFormatsPage::commitValueText() {
    const napkin::ParsedNumber parsed = napkin::parseFloatValue(m_valueEdit->text().toStdString());
    if (!parsed.ok()) {
        m_valueError->showMessage(tr("“%1”: %2 (character %3); keeping %4")
                                      .arg(m_valueEdit->text(), QString::fromStdString(parsed.error))
                                      .arg(parsed.errorAt + 1)
                                      .arg(exactText(m_value)));
        return;
    }
    m_valueError->clearMessage();
    m_pinned.reset();
    m_value = parsed.value;
    refresh();
}

void NumberFormatsPage::onBitsEdited(FloatFormat format, std::uint32_t bits) {
    m_pinned = std::make_pair(format, napkin::maskFloatBits(format, bits));
    m_value = napkin::decodeFloat(format, bits);
    m_valueError->clearMessage();
    showValueText();
    refresh();
}

void NumberFormatsPage::showValueText() {
    m_valueEdit->setText(exactText(m_value));
    // The leading digits are what a reader needs: a long exact value ("1.00000011920928955078125") put
    // the cursor at its end and scrolled them out of the field (issue 35: "476089477539e-05").
    m_valueEdit->setCursorPosition(0);
}

void NumberFormatsPage::refresh() {
    const napkin::OverflowMode mode =
        m_saturate->isChecked() ? napkin::OverflowMode::saturate : napkin::OverflowMode::standard;
    for (FloatFormat format : napkin::kFloatFormats) {
        const napkin::FloatRounding r = m_pinned && m_pinned->first == format
                                            ? napkin::describePattern(format, m_pinned->second)
                                            : napkin::roundToFormat(format, m_value, mode);
        Row& row = m_rows[indexOf(format)];
        row.bits->setBits(r.bits);
        row.hex->setText(QString::fromStdString(napkin::floatBitsHex(format, r.bits)));
        row.value->setText(exactText(r.value));
        row.absError->setText(errorText(r.absError));
        row.relError->setText(errorText(r.relError));
        const std::string_view cls = napkin::floatClassName(r.cls);
        const bool lost = r.cls == napkin::FloatClass::infinity || r.cls == napkin::FloatClass::nan ||
                          (r.cls == napkin::FloatClass::zero && m_value != 0.0);
        row.cls->setText(QString::fromLatin1(cls.data(), int(cls.size())));
        if (lost)
            setTextTone(row.cls, TextTone::alert);
        else if (r.cls == napkin::FloatClass::subnormal)
            setTextTone(row.cls, TextTone::caution);
        else
            clearTextTone(row.cls);
        setTextBold(row.cls, lost);
    }
    m_chart->setMarkedValue(m_value);
    m_explain->setHtml(explainNumberFormats(m_value, mode));
}

void NumberFormatsPage::refreshTensorCost() {
    // "49152, 12288", "12288*4 × 12288": sizes separated by commas or ×, each maybe a product.
    napkin::SizeListRules rules;
    rules.minimum = 0;
    rules.maximum = 1e15;
    rules.separators = {",", "×", "x"};
    rules.products = true;
    rules.skipEmpty = true;
    const napkin::SizeList list = napkin::parseSizeList(m_shapeEdit->text().toStdString(), rules);
    if (!list.ok()) {
        m_tensorCost->setText(QString::fromStdString(list.error));
        return;
    }
    const std::vector<double>& shape = list.sizes;
    double elements = 1;
    QStringList dims;
    for (double size : shape) {
        elements *= size;
        dims << QString::fromStdString(napkin::formatNumber(size));
    }
    QStringList costs;
    for (FloatFormat format : napkin::kFloatFormats) {
        const std::string_view name = napkin::floatFormatName(format);
        costs << QStringLiteral("%1 %2").arg(
            QString::fromLatin1(name.data(), int(name.size())),
            QString::fromStdString(
                napkin::formatBytes(napkin::tensorBytes(shape, format), napkin::ByteUnits::binary)));
    }
    m_tensorCost->setText(tr("%1 = %2 elements → %3")
                              .arg(dims.join(QStringLiteral(" × ")),
                                   QString::fromStdString(napkin::formatNumber(elements)),
                                   costs.join(QStringLiteral(" · "))));
}

// --- scenario: this page's controls to its section of napkin::Scenario and back ---

using namespace napkin;

FormatsScenario NumberFormatsPage::scenario() const {
    FormatsScenario s;
    s.value = m_value;
    s.saturate = m_saturate->isChecked();
    s.tensorShape = m_shapeEdit->text().toStdString();
    if (m_pinned) {
        s.pinnedFormat = m_pinned->first;
        s.pinnedBits = m_pinned->second;
    }
    return s;
}

void NumberFormatsPage::applyScenario(const FormatsScenario& s) {
    {
        const QSignalBlocker block(m_saturate);
        m_saturate->setChecked(s.saturate);
    }
    m_shapeEdit->setText(QString::fromStdString(s.tensorShape));
    m_value = s.value;
    m_pinned.reset();
    if (s.pinnedFormat)
        m_pinned = std::make_pair(*s.pinnedFormat, maskFloatBits(*s.pinnedFormat, s.pinnedBits));
    m_valueError->clearMessage();
    showValueText();
    refresh();
    refreshTensorCost();
}
