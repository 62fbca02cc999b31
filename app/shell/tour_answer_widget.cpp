// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/shell/tour_answer_widget.h"

#include "app/accounting/accounting_page.h"
#include "app/accounting/answers_panel.h"
#include "app/formats/number_formats_page.h"
#include "app/roofline/roofline_page.h"
#include "app/shell/main_window.h"
#include "app/tensor/tensor_page.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/roofline_chart.h"

#include <QLabel>

namespace {

// An Accounting answer's value, by its row key (the answers grid names it "value_<key>").
QWidget* accountingValue(const MainWindow& window, const char* key) {
    return window.accountingPage()->answers()->findChild<QLabel*>(QStringLiteral("value_") +
                                                                  QLatin1String(key));
}

} // namespace

QWidget* tourAnswerWidget(const MainWindow& window, std::string_view field) {
    if (field == "training-time")
        return accountingValue(window, "trainingTime");
    if (field == "largest-model")
        return accountingValue(window, "maxParameters");
    if (field == "matmul-flops")
        return accountingValue(window, "flopsPerStep");
    // The 6N question's answer is the chart's forward 2N beside backward 4N (one token a step: batch 1,
    // sequence 1), which the caption names; the answers grid's value sits a chart's height below it and
    // took the chart out of view at 1280×720.
    if (field == "flops-per-token")
        return window.accountingPage()->flopChart();
    if (field == "memory-total")
        return accountingValue(window, "memoryPerGpu");
    if (field == "step-time")
        return accountingValue(window, "stepTime");
    if (field == "dtype-underflow") // fp16's stored value: "0", the underflow the question is about
        return window.numberFormatsPage()->storedValueLabel(napkin::FloatFormat::fp16);
    if (field == "storage-offset")
        return window.tensorPage()->stepDetailsLabel();
    if (field == "view-error")
        return window.tensorPage()->chainErrorLabel();
    if (field == "mfu") // the roof: the promised peak that MFU divides by
        return window.rooflinePage()->chart();
    return nullptr;
}

QList<QWidget*> tourAnswerBearers(const MainWindow& window, std::string_view field) {
    QList<QWidget*> bearers;
    if (QWidget* answer = tourAnswerWidget(window, field))
        bearers << answer;
    if (field == "dtype-underflow") // every format's row: bf16's stored value is half the answer
        bearers << window.numberFormatsPage()->resultCells();
    if (field == "storage-offset" || field == "view-error") {
        // The step's details, the hovered element's offset and the strides drawn share one panel; the
        // chain's error line stands under the expression.
        bearers << window.tensorPage()->stepDetailsLabel()->parentWidget()
                << window.tensorPage()->chainErrorLabel();
    }
    return bearers;
}
