// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/tensor/tensor_page.h"

#include "app/tensor/explain_tensor.h"
#include "app/tensor/step_list.h"
#include "engine/tensor/tensor_storage_values.h"
#include "widgets/controls/error_overlay.h"
#include "widgets/controls/explain_pane.h"
#include "widgets/controls/reserved_message_label.h"
#include "widgets/controls/stride_view.h"
#include "widgets/text/engine_text.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPalette>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

namespace {

QString bytes(int64_t n) {
    return bytesText(static_cast<double>(n));
}

struct Example {
    const char* label;
    const char* shape;
    const char* expression;
};

// The lecture's stride examples, one click each.
constexpr Example kExamples[] = {
    {QT_TRANSLATE_NOOP("TensorPage", "Row x[0] of 2×3"), "2,3", "x[0]"},
    {QT_TRANSLATE_NOOP("TensorPage", "Column x[:, 1]"), "2,3", "x[:, 1]"},
    {QT_TRANSLATE_NOOP("TensorPage", "view(3, 2)"), "2,3", "x.view(3, 2)"},
    {QT_TRANSLATE_NOOP("TensorPage", "Transpose"), "2,3", "x.transpose(1, 0)"},
    {QT_TRANSLATE_NOOP("TensorPage", "Transpose → view fails"), "2,3", "x.transpose(1, 0).view(2, 3)"},
    {QT_TRANSLATE_NOOP("TensorPage", ".contiguous() fix"), "2,3",
     "x.transpose(1, 0).contiguous().view(2, 3)"},
    {QT_TRANSLATE_NOOP("TensorPage", "Broadcast expand"), "3,1", "x.expand(3, 4)"},
    {QT_TRANSLATE_NOOP("TensorPage", "Sliding window unfold"), "5", "x.unfold(0, 2, 1)"},
    {QT_TRANSLATE_NOOP("TensorPage", "Attention head split"), "2,4,6", "x.view(2, 4, 2, 3).transpose(1, 2)"},
};

} // namespace

TensorPage::TensorPage(QWidget* parent)
    : QWidget(parent) {
    shapeEdit_ = new QLineEdit(QStringLiteral("2,3"), this);
    shapeEdit_->setPlaceholderText(tr("sizes, e.g. 2,3; () for a 0-d tensor"));
    dtypeBox_ = new QComboBox(this);
    for (const std::string& name : napkin::tensorDTypeNames())
        dtypeBox_->addItem(QString::fromStdString(name));
    expressionEdit_ = new QLineEdit(QStringLiteral("x.transpose(1, 0).contiguous().view(2, 3)"), this);
    expressionEdit_->setPlaceholderText(tr("a PyTorch chain from x, e.g. x[:, 1:3].T"));
    // Two messages, each next to the field it is about: a shape the page cannot read (the page keeps
    // showing the last good chain), and the chain's own failure.
    // The shape's message is drawn over what lies under its field (ErrorOverlay): a row of its own made
    // the Expression field and everything under it jump down while it was shown.
    shapeErrorLabel_ = new ErrorOverlay(shapeEdit_);
    // The chain's message has a row of its own, kept while it is empty (two lines: PyTorch's longest,
    // "view size is not compatible …", at the page's width): appearing, it moved the example buttons and
    // the step list down. Not drawn over them as the shape's message is: after "Transpose → view fails"
    // the next click is ".contiguous() fix", which an overlay would hide.
    errorLabel_ = new ReservedMessageLabel(2, this);
    errorLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Red through the palette, not a style sheet: a style sheet pins the label's font, so presentation
    // mode's large type (and the tour's enlarged answer) passed the error line by.
    QPalette red = errorLabel_->palette();
    red.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    errorLabel_->setPalette(red);

    auto* inputs = new QFormLayout;
    auto* shapeRow = new QHBoxLayout;
    shapeRow->addWidget(shapeEdit_, 1);
    shapeRow->addWidget(new QLabel(tr("dtype"), this));
    shapeRow->addWidget(dtypeBox_);
    inputs->addRow(tr("Shape of x"), shapeRow);
    inputs->addRow(tr("Expression"), expressionEdit_);
    inputs->addRow(QString(), errorLabel_);

    auto* examples = new QGridLayout;
    int column = 0;
    int row = 0;
    for (const Example& e : kExamples) {
        auto* button = new QPushButton(tr(e.label), this);
        const QString shape = QString::fromUtf8(e.shape);
        const QString expression = QString::fromUtf8(e.expression);
        connect(button, &QPushButton::clicked, this,
                [this, shape, expression] { setExample(shape, expression); });
        examples->addWidget(button, row, column);
        if (++column == 5) {
            column = 0;
            ++row;
        }
    }

    steps_ = new StepList(this);
    details_ = new QLabel(this);
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    formula_ = new QLabel(tr("Hover an element of the tensor to see its storage offset."), this);
    view_ = new StrideView(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(view_);
    scroll->setWidgetResizable(true);
    // The view wraps to the width it gets; a permanent vertical bar keeps that width from changing
    // when the content grows past the viewport.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(details_);
    rightLayout->addWidget(formula_);
    rightLayout->addWidget(scroll, 1);
    explain_ = new ExplainPane(right);
    rightLayout->addWidget(explain_);
    auto* splitter = new QSplitter(this);
    splitter->addWidget(steps_);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(inputs);
    layout->addLayout(examples);
    layout->addWidget(splitter, 1);

    // Typed text applies on Enter (or when the field loses focus), never keystroke by keystroke: "2," on
    // the way to "2,-3" would otherwise briefly become x of shape (2,). While typing, a shape that cannot
    // be read says so at once. Text set by the program (examples, scenario files) applies at once.
    for (QLineEdit* edit : {shapeEdit_, expressionEdit_}) {
        connect(edit, &QLineEdit::textChanged, this, [this, edit] {
            if (!edit->isModified())
                recompute();
            else if (edit == shapeEdit_)
                showShapeError();
        });
        connect(edit, &QLineEdit::editingFinished, this, [this, edit] {
            if (!edit->isModified())
                return;
            edit->setModified(false);
            recompute();
        });
    }
    connect(dtypeBox_, &QComboBox::currentIndexChanged, this, &TensorPage::recompute);
    connect(steps_, &QListWidget::currentRowChanged, this, &TensorPage::showStep);
    connect(view_, &StrideView::hoveredFormulaChanged, this, [this](const QString& formula) {
        formula_->setText(formula.isEmpty() ? tr("Hover an element of the tensor to see its storage offset.")
                                            : tr("storage offset of %1").arg(formula));
    });
    recompute();
}

void TensorPage::setExample(const QString& shape, const QString& expression) {
    const QSignalBlocker blockShape(shapeEdit_);
    shapeEdit_->setText(shape);
    expressionEdit_->setText(expression); // recomputes once, with both fields set
    recompute();
}

QString TensorPage::errorText() const {
    return shapeErrorLabel_->text().isEmpty() ? errorLabel_->text() : shapeErrorLabel_->text();
}

QString TensorPage::shapeErrorText() const {
    return shapeErrorLabel_->text();
}

std::optional<std::vector<int64_t>> TensorPage::showShapeError() {
    std::string shapeError;
    auto shape = napkin::parseShapeText(shapeEdit_->text().toStdString(), &shapeError);
    if (!shape) {
        shapeErrorLabel_->showMessage(tr("Shape: %1").arg(QString::fromStdString(shapeError)));
    } else {
        shapeErrorLabel_->clearMessage();
    }
    return shape;
}

void TensorPage::recompute() {
    const auto shape = showShapeError();
    if (!shape)
        return;
    const auto dtype = napkin::tensorDTypeFromName(dtypeBox_->currentText().toStdString());
    evaluation_ = napkin::evaluateTensorExpression(expressionEdit_->text().toStdString(), *shape,
                                                   dtype ? dtype->bytes : 4);
    shownShape_ = shapeEdit_->text();
    shownExpression_ = expressionEdit_->text();

    const QSignalBlocker block(steps_);
    steps_->setSteps(evaluation_);
    if (evaluation_.error) {
        errorLabel_->setText(tr("Step %1 fails: %2")
                                 .arg(evaluation_.error->step)
                                 .arg(QString::fromStdString(evaluation_.error->message)));
    } else {
        errorLabel_->clear();
    }
    const int last = static_cast<int>(evaluation_.steps.size()) - 1;
    steps_->setCurrentRow(last);
    showStep(last);
}

void TensorPage::showStep(int row) {
    if (row < 0 || row >= static_cast<int>(evaluation_.steps.size()))
        return;
    std::vector<StorageStripSpec> strips;
    for (int i = 0; i <= row; ++i) {
        const napkin::TensorStep& s = evaluation_.steps[static_cast<std::size_t>(i)];
        if (i == 0) {
            strips.push_back({s.layout.storageId, s.layout.storageElements, s.layout.storageBytes(), i,
                              napkin::initialStorageValues(s.layout)});
        } else if (!s.isView) {
            const napkin::TensorLayout& source = evaluation_.steps[static_cast<std::size_t>(i - 1)].layout;
            const StorageStripSpec* from = nullptr;
            for (const StorageStripSpec& strip : strips)
                if (strip.storageId == source.storageId)
                    from = &strip;
            strips.push_back(
                {s.layout.storageId, s.layout.storageElements, s.layout.storageBytes(), i,
                 from ? napkin::copiedStorageValues(source, from->values, s.layout) : std::vector<double>{}});
        }
    }
    const napkin::TensorStep& step = evaluation_.steps[static_cast<std::size_t>(row)];
    const napkin::TensorLayout& t = step.layout;
    QString what;
    if (row == 0)
        what = tr("x owns storage #%1 (%2).").arg(t.storageId).arg(bytes(t.storageBytes()));
    else if (step.isView)
        what = tr("A view: shares storage #%1, no bytes copied.").arg(t.storageId);
    else
        what = tr("A copy: new storage #%1, %2 allocated, %3 copied.")
                   .arg(t.storageId)
                   .arg(bytes(step.bytesAllocated), bytes(step.bytesCopied));
    details_->setText(
        tr("<b>%1</b><br>shape %2 · stride %3 (elements) · storage offset %4 · %5<br>%6")
            .arg(QString::fromStdString(step.expr).toHtmlEscaped(), tupleText(t.shape), tupleText(t.stride))
            .arg(t.offset)
            .arg(napkin::isContiguous(t) ? tr("contiguous") : tr("not contiguous"), what));
    view_->setTensor(strips, t);
    explain_->setHtml(explainTensorStep(evaluation_, row));
}

// --- scenario: this page's controls to its section of napkin::Scenario and back ---

using namespace napkin;

TensorScenario TensorPage::scenario() const {
    TensorScenario s;
    // What the page shows, not what the fields hold: Copy as command copied a refused "--shape 2.5,3"
    // (napkin-cli exits 2) while the page showed x of shape (2, 3).
    s.shape = shownShape_.toStdString();
    s.dtype = dtypeBox_->currentText().toStdString();
    s.expression = shownExpression_.toStdString();
    const int row = steps_->currentRow();
    s.step = row == static_cast<int>(evaluation_.steps.size()) - 1 ? -1 : row;
    return s;
}

QStringList TensorPage::applyScenario(const TensorScenario& s) {
    QStringList warnings;
    {
        const QSignalBlocker blockShape(shapeEdit_);
        const QSignalBlocker blockExpression(expressionEdit_);
        const QSignalBlocker blockDtype(dtypeBox_);
        shapeEdit_->setText(QString::fromStdString(s.shape));
        expressionEdit_->setText(QString::fromStdString(s.expression));
        const int dtype = dtypeBox_->findText(QString::fromStdString(s.dtype));
        if (dtype < 0)
            warnings << tr("tensor.dtype: '%1' is not offered here; showing %2")
                            .arg(QString::fromStdString(s.dtype), dtypeBox_->currentText());
        else
            dtypeBox_->setCurrentIndex(dtype);
    }
    recompute(); // shows the last step
    if (s.step >= static_cast<int>(evaluation_.steps.size()))
        warnings << tr("tensor.step: the chain has %1 steps; showing the last").arg(evaluation_.steps.size());
    else if (s.step >= 0)
        steps_->setCurrentRow(s.step); // showStep through currentRowChanged
    return warnings;
}
