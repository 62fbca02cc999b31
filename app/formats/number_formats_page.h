// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The floating-point format explorer: a value stored in fp32, fp16, bf16, fp8 E4M3 and E5M2, with the
// bits (click one to flip it), the stored value, its error and class per format, the formats'
// dynamic ranges on a log axis, and what a tensor of a chosen shape costs in each format.
#include "engine/numerics/float_format.h"
#include "engine/scenario/scenario.h"
#include "widgets/controls/error_overlay.h"

#include <QWidget>

#include <array>
#include <cstdint>
#include <optional>

class BitFieldView;
class DynamicRangeChart;
class ExplainPane;
class QCheckBox;
class QLabel;
class QLineEdit;

class NumberFormatsPage : public QWidget {
    Q_OBJECT
public:
    explicit NumberFormatsPage(QWidget* parent = nullptr);
    ~NumberFormatsPage() override;

    /// Stores `value` in every format (as if typed) and shows the result.
    void setValue(double value);
    double value() const { return m_value; }

    /// Every control of the page, for a scenario file; and back (page_scenarios.cpp).
    napkin::FormatsScenario scenario() const;
    void applyScenario(const napkin::FormatsScenario& scenario);

    // For tests and for the app's export: the parts of the page.
    QLineEdit* valueEdit() const { return m_valueEdit; }
    QLabel* valueError() const { return m_valueError; }
    BitFieldView* bitView(napkin::FloatFormat format) const;
    QLabel* storedValueLabel(napkin::FloatFormat format) const;
    QLabel* classLabel(napkin::FloatFormat format) const;
    /// Every cell of the formats table that shows what the value became (bits, hex, stored value, errors,
    /// class), each format's: what a tour hides until its answer is revealed.
    QList<QWidget*> resultCells() const;
    DynamicRangeChart* rangeChart() const { return m_chart; }
    QLineEdit* shapeEdit() const { return m_shapeEdit; }
    QLabel* tensorCostLabel() const { return m_tensorCost; }
    ExplainPane* explainPane() const { return m_explain; }

private:
    struct Row {
        BitFieldView* bits = nullptr;
        QLabel* hex = nullptr;
        QLabel* value = nullptr;
        QLabel* absError = nullptr;
        QLabel* relError = nullptr;
        QLabel* cls = nullptr;
    };

    void commitValueText();
    void onBitsEdited(napkin::FloatFormat format, std::uint32_t bits);
    void refresh();
    void refreshTensorCost();
    void showValueText();

    QLineEdit* m_valueEdit;
    ErrorOverlay* m_valueError;
    QCheckBox* m_saturate;
    std::array<Row, napkin::kFloatFormats.size()> m_rows;
    DynamicRangeChart* m_chart;
    QLineEdit* m_shapeEdit;
    QLabel* m_tensorCost;
    ExplainPane* m_explain = nullptr;
    double m_value = 0.1;
    /// A pattern the user made by flipping a bit: shown as is in its row (a NaN payload or the sign
    /// of a NaN would not survive re-encoding its value).
    std::optional<std::pair<napkin::FloatFormat, std::uint32_t>> m_pinned;
};
