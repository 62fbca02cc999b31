// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The two lines over a page's answers: the cautions that apply to the setup ("⚠ " each: what the part
// cannot do, a context past the model's; hidden while there are none) and the refused input that leaves
// the answers below stale (bold, alert; hidden while the input is accepted). The Accounting and Inference
// answer panels each put one at the top of their column.
#include <QString>
#include <QStringList>

class QLabel;
class QVBoxLayout;
class QWidget;

class AnswerNotices {
public:
    /// The two labels, children of `parent`, hidden; `errorName` is the error label's object name, by
    /// which the tests and the tour find it.
    AnswerNotices(QWidget* parent, const QString& errorName);
    /// Puts them in `layout`, cautions first.
    void addTo(QVBoxLayout* layout) const;

    void setWarnings(const QStringList& warnings);
    QString warningsText() const;
    void showError(const QString& message);
    void clearError();
    /// Empty while no error is shown.
    QString errorText() const;

private:
    QLabel* m_warnings;
    QLabel* m_error;
};
