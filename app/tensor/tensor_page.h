// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The tensor layout page: type a shape, a dtype and a PyTorch view chain; step through it and see
// which storage each element reads, when a view is impossible, and what a copy costs.
#include "engine/scenario/scenario.h"
#include "engine/tensor/tensor_expression.h"

#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class ErrorOverlay;
class QLineEdit;
class StepList;
class StrideView;
class ExplainPane;

class TensorPage : public QWidget {
    Q_OBJECT
public:
    explicit TensorPage(QWidget* parent = nullptr);

    /// Fills the fields as one of the one-click examples does, and evaluates.
    void setExample(const QString& shape, const QString& expression);
    /// Shows step `row` of the chain (0 is x).
    void showStep(int row);

    /// Every control of the page, for a scenario file and Copy as command; and back (page_scenarios.cpp).
    /// The shape and expression are the ones the page shows: a shape it refused ("2.5,3") or text typed
    /// but not yet applied is not written. An unknown dtype or a step past the chain's end is returned as
    /// a warning (the page shows fp32 / the last step).
    napkin::TensorScenario scenario() const;
    QStringList applyScenario(const napkin::TensorScenario& scenario);

    const napkin::TensorEvaluation& evaluation() const { return evaluation_; }
    StrideView* strideView() const { return view_; }
    /// The message shown: the shape's when the shape cannot be read, else the chain's (empty if none).
    QString errorText() const;
    /// The message next to the shape field (empty while the shape reads).
    QString shapeErrorText() const;
    ExplainPane* explainPane() const { return explain_; }
    /// The step's shape, strides and storage offset; the chain's failure (the tour points at both).
    QLabel* stepDetailsLabel() const { return details_; }
    QLabel* chainErrorLabel() const { return errorLabel_; }

private:
    void recompute();
    /// Shows the shape field's message (or hides it); the shape when it reads.
    std::optional<std::vector<int64_t>> showShapeError();

    QLineEdit* shapeEdit_ = nullptr;
    QComboBox* dtypeBox_ = nullptr;
    QLineEdit* expressionEdit_ = nullptr;
    ErrorOverlay* shapeErrorLabel_ = nullptr;
    QLabel* errorLabel_ = nullptr;
    StepList* steps_ = nullptr;
    QLabel* details_ = nullptr;
    QLabel* formula_ = nullptr;
    StrideView* view_ = nullptr;
    ExplainPane* explain_ = nullptr;
    napkin::TensorEvaluation evaluation_;
    QString shownShape_; ///< the shape and expression evaluation_ was computed from
    QString shownExpression_;
};
