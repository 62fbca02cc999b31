// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/tour_file_controller.h"

#include "app/classroom/lecture_tour_controller.h"
#include "app/document/scenario_host.h"
#include "widgets/text/engine_text.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>

TourFileController::TourFileController(ScenarioHost& host, LectureTourController& tour, QObject* parent)
    : QObject(parent)
    , m_host(host)
    , m_tour(tour) {}

void TourFileController::addActions(QMenu* menu) {
    QAction* open = menu->addAction(tr("Open &tour…"));
    open->setToolTip(tr("Run a tour file's steps, predict then reveal, in place of the lecture's"));
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_host.hostWindow(), tr("Open tour"), QString(),
                                                          tr("Napkin tours (*.json);;All files (*)"));
        if (!path.isEmpty())
            openTour(path);
    });
    QAction* record = menu->addAction(tr("Add this page to the recorded tour…"));
    record->setToolTip(tr("The page in front, as it is now, becomes the next step; you type its question"));
    connect(record, &QAction::triggered, this, [this] {
        bool ok = false;
        const QString question =
            QInputDialog::getText(m_host.hostWindow(), tr("Record a tour step"),
                                  tr("The question this page answers:"), QLineEdit::Normal, QString(), &ok);
        if (!ok || question.trimmed().isEmpty())
            return;
        QStringList fields{tr("(none: nothing to hide)")};
        for (std::string_view f : napkin::tourAnswerFields())
            fields << toQString(f);
        const QString field =
            QInputDialog::getItem(m_host.hostWindow(), tr("Record a tour step"),
                                  tr("The answer to hide until revealed:"), fields, 0, false, &ok);
        if (!ok)
            return;
        recordStep(question, field == fields.front() ? QString() : field);
    });
    QAction* save = menu->addAction(tr("Save recorded tour…"));
    connect(save, &QAction::triggered, this, [this] {
        if (m_recorded.steps.empty()) {
            showMessage(tr("Save recorded tour"), tr("No step recorded yet: add a page first."));
            return;
        }
        const QString path =
            QFileDialog::getSaveFileName(m_host.hostWindow(), tr("Save recorded tour"),
                                         QStringLiteral("tour.json"), tr("Napkin tours (*.json)"));
        if (path.isEmpty())
            return;
        const QString error = saveRecordedTour(path, tr("Recorded tour"));
        if (!error.isEmpty())
            showMessage(tr("Save recorded tour"), error);
    });
}

QString TourFileController::openTour(const QString& path) {
    const napkin::TourParse parsed = napkin::readTourFile(QFile::encodeName(path).toStdString());
    if (!parsed.ok()) {
        QString error = toQString(parsed.error);
        showMessage(tr("Open tour"), tr("Could not open the tour; nothing was changed.\n\n%1").arg(error));
        return error;
    }
    m_tour.setTour(*parsed.tour);
    m_tour.start(0);
    return {};
}

void TourFileController::recordStep(const QString& question, const QString& answerField,
                                    const QString& notes) {
    napkin::TourStep step =
        napkin::recordTourStep(m_host.scenario(), question.toStdString(), answerField.toStdString());
    step.notes = notes.toStdString();
    step.id = "step-" + std::to_string(m_recorded.steps.size() + 1);
    m_recorded.steps.push_back(std::move(step));
}

QString TourFileController::saveRecordedTour(const QString& path, const QString& title) {
    m_recorded.title = title.toStdString();
    const std::string text = napkin::writeTour(m_recorded);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
        !file.commit())
        return tr("Could not write %1: %2").arg(path, file.errorString());
    return {};
}

void TourFileController::showMessage(const QString& title, const QString& text) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, m_host.hostWindow());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("tourMessage"));
    box->open();
}
