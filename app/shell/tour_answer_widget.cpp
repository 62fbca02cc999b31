#include "app/shell/tour_answer_widget.h"

#include "app/accounting/accounting_page.h"
#include "app/accounting/answers_panel.h"
#include "app/formats/number_formats_page.h"
#include "app/roofline/roofline_page.h"
#include "app/shell/main_window.h"
#include "app/tensor/tensor_page.h"
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
    // One token a step in the 6N question (batch 1, sequence 1): the step's FLOPs are the token's.
    if (field == "matmul-flops" || field == "flops-per-token")
        return accountingValue(window, "flopsPerStep");
    if (field == "memory-total")
        return accountingValue(window, "memoryPerGpu");
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
