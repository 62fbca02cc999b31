// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The answers a lecturer reads out, a row each: a title, the value in bold and the formula that produced
// it (monospace, wrapped). Side by side while the panel has room; the formula under its title and value
// when it has not; the value under its title too when even that is too wide (presentation mode's type on
// a projector). The panel so never scrolls sideways. One grid for the Accounting and Inference answers.
// The arrangement follows the width, not each new value: while a mouse button is down (a slider being
// dragged) it is kept, the labels wrapping instead, and is reconsidered on release; and the room a value
// needs is the widest it has been since the width last changed, so values that grow and shrink with a
// control (typed or stepped with the keys) never flip it back and forth.
// Values and formulas can be selected with the mouse once the pointer is over the grid (or a label of it
// has the focus): a selectable QLabel lays its text out as a rich-text document for every size query,
// which on a slider drag, with the pointer on the slider, cost 2 ms of each tick's 7.
#include <QHash>
#include <QStringList>
#include <QTimer>
#include <QWidget>

class QGridLayout;
class QLabel;

class AnswersGrid : public QWidget {
    Q_OBJECT
public:
    enum class Arrangement {
        formulaBeside, ///< title | value | formula
        formulaBelow,  ///< title | value, the formula under both
        stacked,       ///< title, value and formula one under the other
    };

    explicit AnswersGrid(QWidget* parent = nullptr);

    /// Whether the formula may stand beside its value when there is room (else it is always below).
    void setFormulaBesideWhenRoom(bool beside);
    /// Appends a row; its labels are named "value_<key>" and "formula_<key>".
    void addRow(const QString& key, const QString& title);
    void setRow(const QString& key, const QString& value, const QString& formula);
    /// Hides a row that does not apply (active parameters of a dense model).
    void setRowVisible(const QString& key, bool visible);

    QString valueText(const QString& key) const;
    QString formulaText(const QString& key) const;
    Arrangement arrangement() const { return m_arrangement; }
    /// The arrangement that fits `width` with the rows' texts as they are now.
    Arrangement fitting(int width) const;

    /// As narrow as the stacked arrangement: the grid re-arranges rather than widen its panel.
    QSize minimumSizeHint() const override;
    /// Whether values and formulas take mouse selection now (the pointer is over the grid, or one of them
    /// has the focus).
    bool isSelectable() const { return m_selectable; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;
    void enterEvent(QEnterEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Row {
        QLabel* title;
        QLabel* value;
        QLabel* formula;
    };
    void arrange(Arrangement arrangement);
    /// A value or font changed: re-arrange now, or after the mouse button is released.
    void rearrangeForNewText();
    /// The room a value column needs: its widest value now, or the widest since the width last changed.
    int valueRoom() const;
    void fitColumns();
    int widest(QLabel* Row::*label) const;
    void setSelectable(bool selectable);
    /// Off once the pointer has left and no value or formula holds the focus (a selection being copied).
    void dropSelectableWhenIdle();

    QGridLayout* m_grid;
    QStringList m_keys;
    QHash<QString, Row> m_rows;
    Arrangement m_arrangement = Arrangement::formulaBelow;
    bool m_besideWhenRoom = false;
    bool m_selectable = false;
    int m_valueRoom = 0;  ///< the widest value since the width last changed (px)
    QTimer m_heldByMouse; ///< polls for the release of the button that holds the arrangement
};
