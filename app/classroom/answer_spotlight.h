// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The widget that holds a tour step's answer, brought into view and enlarged: each scroll area around it
// scrolls so that it is inside the viewport, and its text grows by kScale (a value, a verdict; a chart
// keeps its own size, its labels placed for it) while its step is on screen. The next step, or leaving the
// tour, gives the text its own size back; the widget goes on following the window's font (presentation
// mode's, then the normal one). When the window's size changes (presentation mode's full screen lands after
// its first step), the widget is brought into view again.
#include <QFont>
#include <QObject>
#include <QPointer>
#include <QWidget>

#include <vector>

class QScrollArea;

class AnswerSpotlight : public QObject {
    Q_OBJECT
public:
    /// Text growth over the widget's own size: presentation mode's body text (×1.45) grows to about the
    /// caption's answer size.
    static constexpr double kScale = 1.3;

    /// Gives the last widget back, then scrolls `widget` into view and enlarges it (nullptr: nothing).
    void show(QWidget* widget);
    /// Gives the widget back its own size.
    void clear();
    /// Brings the widget into view again, now and once the window's queued layouts have run (the caption
    /// above the pages grew as the answer was revealed, and the page's viewport shrank with it).
    void refresh();
    /// Scrolls every panel this spotlight scrolled back to where it was before the first step (leaving
    /// the tour gives the pages back as they were).
    void restoreScrolling();
    /// The widget in the spotlight (a chart's too); nullptr when none.
    QWidget* widget() const { return m_widget ? m_widget.data() : m_chart.data(); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// Scrolls every scroll area around the widget so that it is inside their viewports.
    void bringIntoView();

    QPointer<QWidget> m_widget; ///< enlarged
    QPointer<QWidget> m_chart;  ///< a chart: in view, its own size
    QPointer<QWidget> m_window;
    struct Scrolled {
        QPointer<QScrollArea> area;
        int x = 0, y = 0; ///< the scroll bars' values before the tour moved them
    };
    std::vector<Scrolled> m_scrolled;
    QFont m_before;
    bool m_hadOwnFont = false;
};
