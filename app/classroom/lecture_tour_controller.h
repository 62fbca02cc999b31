// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Steps through a tour (the lecture's, or one opened from a file): applies each step's whole setup (the
// tour's base with the step's edit, never over what the window held: lecture_tour.h) through the host,
// which brings its page to the front, and shows its caption. → on the last step shows the end of the tour,
// the last answer still in the caption. While the tour runs it
// reads the keyboard of the host's window (tour_keys.h: →/PgDn next, ←/PgUp back, Esc leaves), except
// that arrows typed into a text field stay there. Each step brings the widget holding its answer into view
// and enlarges it (AnswerSpotlight); leaving the tour gives the pages back the setup from before it.
//
// Predict, then reveal (on unless setHidingEnabled(false)): a step opens with its question and its page
// set up, the answer hidden in the caption and every part of the page that gives it away veiled (answers
// grids, charts, "How is this computed?", and the host's answerBearers: table cells, labels, error lines).
// The room's guess goes into the caption's field (Enter); Space (or Enter) reveals the engine's answer and
// how far the guess was, then the derivation one line per press; after each, the answer is brought back
// into view (the caption grows as it reveals).
#include "app/classroom/answer_spotlight.h"
#include "app/classroom/guess_strip.h"
#include "app/classroom/lecture_tour.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <optional>
#include <vector>

class CaptionBanner;
class QWidget;
class ScenarioHost;

class LectureTourController : public QObject {
    Q_OBJECT
public:
    /// `keyAnchor` takes the keyboard after each step (switching pages would hand it to a text field,
    /// where → moves the cursor): the window's tab bar, say.
    LectureTourController(ScenarioHost& host, CaptionBanner* banner, QWidget* keyAnchor,
                          QObject* parent = nullptr);
    ~LectureTourController() override;

    bool isActive() const { return m_active; }
    int currentIndex() const { return m_index; }
    int stepCount() const { return static_cast<int>(m_steps.size()); }
    const std::vector<LectureTourStep>& steps() const { return m_steps; }
    QString title() const { return m_title; }

    /// Replaces the steps (the lecture's by default) by those of `tour`; the tour restarts at its first
    /// step when it was running.
    void setTour(const napkin::Tour& tour);

    bool isHidingEnabled() const { return m_hiding; }
    /// Whether the current step's answer is still hidden (nothing revealed yet).
    bool isAnswerHidden() const { return m_hiding && m_revealed == 0 && hasAnswer() && !m_ended; }
    /// Whether the end of the tour is shown (→ on its last step).
    bool isAtEnd() const { return m_ended; }
    /// The widgets veiled now (none once the answer is revealed).
    QList<QWidget*> veiledWidgets() const;
    /// Lines of the derivation shown so far (0 before the answer is revealed).
    int revealedLines() const { return m_revealed > 0 ? m_revealed - 1 : 0; }

public slots:
    /// Shows the banner and goes to the first step (or `index`); the setup before the tour is kept.
    void start(int index = 0);
    /// Hides the banner and gives every page back the setup it had before the tour started.
    void stop();
    void next();
    void previous();
    void goTo(int index);
    /// Off: every step shows its answer at once (the tour as it was before predict-then-reveal).
    void setHidingEnabled(bool on);
    /// Space: the answer first, then one more line of its derivation per call.
    void revealMore();
    /// The room's guess, as typed ("40B", "144 days"), or several separated by ';' ("40 days; 1 year"):
    /// judged, then the answer revealed with each guess on a log scale. A guess that cannot be read is
    /// refused with one line in the caption and reveals nothing; none (Enter in the empty field) reveals
    /// as Space does.
    void submitGuess(const QString& text);

signals:
    /// Esc was pressed during the tour (the window also leaves presentation mode).
    void escapePressed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool hasAnswer() const;
    void showCaption();
    void showEnd();
    void veilPage(bool veiled);
    void veil(QWidget* w);

    ScenarioHost& m_host;
    CaptionBanner* m_banner;
    QWidget* m_keyAnchor;
    std::vector<LectureTourStep> m_steps;
    QString m_title;
    int m_index = -1;
    bool m_active = false;
    bool m_ended = false; ///< the end of the tour is shown
    bool m_hiding = true;
    int m_revealed = 0; ///< 0 hidden; 1 the answer; 1 + k: k derivation lines too
    QString m_verdict;  ///< how far the room's guess was, once given
    std::vector<GuessStrip::Mark> m_guesses; ///< the room's guesses, drawn against the answer
    std::vector<QPointer<QWidget>> m_veiled;
    AnswerSpotlight m_spotlight;              ///< the step's answer, in view and enlarged
    std::optional<napkin::Scenario> m_before; ///< the user's setup, restored when the tour ends
};
