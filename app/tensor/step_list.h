// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The chain's steps, one item each: the step's own operation (".transpose(1, 0)", not the chain so far), its
// shape, its stride and any copy, each on its own line. The list is as wide as its widest line, up to a
// share of a projector's width, and breaks a longer line rather than scroll sideways: the whole chain on
// each item's first line made the list scroll in presentation type, showing half of each step.
#include <QListWidget>

namespace napkin {
struct TensorEvaluation;
}

class StepList : public QListWidget {
    Q_OBJECT
public:
    explicit StepList(QWidget* parent = nullptr);

    /// One item per step, and a last, unselectable one naming the step that failed.
    void setSteps(const napkin::TensorEvaluation& evaluation);
    /// Wide enough for the lines as broken (the widest, or the cap they were broken at).
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    /// Lines broken to `room` pixels in `metrics`: after a comma, a dot or a space where one fits, else
    /// anywhere; the following pieces indented as the line was (at least four spaces).
    static QStringList brokenToFit(const QString& line, const QFontMetrics& metrics, int room);

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();
    int widthFor(int textWidth) const;

    std::vector<QStringList> m_lines; ///< each item's lines as written, before breaking
    bool m_failed = false;            ///< the last item names the failing step
    int m_textWidth = 0;              ///< the lines' room, as last broken
};
