// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Tour files in the File menu: Open tour… (runs it in place of the lecture's), and recording one from the
// window: add the current page's state as a step with a typed question, then save the steps as a tour
// file. A refused file changes nothing; its one-line reason is shown in a non-blocking message box.
#include "engine/scenario/tour_file.h"

#include <QObject>
#include <QString>

class LectureTourController;
class QMenu;
class ScenarioHost;

class TourFileController : public QObject {
    Q_OBJECT
public:
    TourFileController(ScenarioHost& host, LectureTourController& tour, QObject* parent = nullptr);

    /// Adds Open tour…, Add this page to the recorded tour… and Save recorded tour… to `menu`.
    void addActions(QMenu* menu);

    /// Reads `path` and runs it from its first step; returns the error shown (empty on success).
    QString openTour(const QString& path);
    /// Appends the window's current page, as it is now, to the recorded tour.
    void recordStep(const QString& question, const QString& answerField, const QString& notes = {});
    /// Writes the recorded tour to `path` atomically; returns an error message or an empty string.
    QString saveRecordedTour(const QString& path, const QString& title);
    const napkin::Tour& recorded() const { return m_recorded; }

private:
    void showMessage(const QString& title, const QString& text);

    ScenarioHost& m_host;
    LectureTourController& m_tour;
    napkin::Tour m_recorded;
};
