// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What holds the pages, as the controllers above them see it: every control of every page as one
// scenario, in and out, and the window they live in. MainWindow is one; a test can be another.
#include "engine/scenario/scenario.h"

#include <QList>
#include <QStringList>

#include <string_view>

class QWidget;

class ScenarioHost {
public:
    virtual ~ScenarioHost() = default;
    /// Every control of every page, and the page in front.
    virtual napkin::Scenario scenario() const = 0;
    /// Sets every page from `scenario` through each page's own applyScenario and brings its page to the
    /// front; returns what could not be shown as saved (a device missing here, say).
    virtual QStringList applyScenario(const napkin::Scenario& scenario) = 0;
    /// The window the pages live in: the parent of dialogs, the window whose keys the tour reads.
    virtual QWidget* hostWindow() = 0;
    /// The widget of the pages that shows a tour's answer `field` (napkin::tourAnswerFields()), so the
    /// tour can bring it into view; nullptr where no page shows it.
    virtual QWidget* answerWidget(std::string_view field) = 0;
    /// Every widget of the pages that gives answer `field` away (its value, the table cells, labels and
    /// error lines beside it), which the tour hides until the answer is revealed.
    virtual QList<QWidget*> answerBearers(std::string_view field) = 0;
};
