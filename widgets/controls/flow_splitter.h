#pragma once
// Panes side by side while the row has room for every pane's minimum width, one above the other
// otherwise: presentation mode's larger charts on a 1024-pixel projector stack (and their column
// scrolls) instead of being squeezed until their labels are cut. The user can still drag the handle.
#include <QSplitter>

class FlowSplitter : public QSplitter {
    Q_OBJECT
public:
    explicit FlowSplitter(QWidget* parent = nullptr);

    /// As narrow as the widest pane: the row stacks rather than make its column scroll sideways.
    QSize minimumSizeHint() const override;
    /// The width the panes need side by side (their minimum widths and the handles between them).
    int sideBySideWidth() const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void flowTo(int width);
};
