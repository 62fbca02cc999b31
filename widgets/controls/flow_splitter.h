// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Panes side by side while the row has room for every pane's minimum width, one above the other
// otherwise: presentation mode's larger charts on a 1024-pixel projector stack (and their column
// scrolls) instead of being squeezed until their labels are cut. The user can still drag the handle.
#include <QList>
#include <QSplitter>

class FlowSplitter : public QSplitter {
    Q_OBJECT
public:
    explicit FlowSplitter(QWidget* parent = nullptr);

    /// As narrow as the widest pane: the row stacks rather than make its column scroll sideways.
    QSize minimumSizeHint() const override;
    /// The width the panes need side by side (their minimum widths, or the comfortable widths set below
    /// where larger, and the handles between them).
    int sideBySideWidth() const;
    /// Side by side, pane `index` is given at least `columns` average characters of its font, else the row
    /// stacks: a chart squeezed to its minimum beside a table is the worse of the two (the Benchmarks
    /// chart at ~300 px beside a results table at 1280×720). Its minimum width stays what it was.
    void setComfortableColumns(int index, int columns);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void flowTo(int width);
    int sideBySideWidthOf(int index) const;

    QList<int> m_comfortableColumns; ///< per pane; 0: its minimum width
};
