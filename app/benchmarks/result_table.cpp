// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/benchmarks/result_table.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QStyle>
#include <QTableWidget>

#include <algorithm>
#include <numeric>
#include <vector>

namespace {

constexpr const char* kColumnSamples = "napkinColumnSamples";

// Sizes the columns to their contents while they fit the table's width, and shares the width out in
// proportion to what each needs when they do not: a long status wraps (its row grows) and a header is
// elided, but the table never scrolls sideways (at 1280×720 in presentation type it hid the status).
class ColumnFitter : public QObject {
public:
    explicit ColumnFitter(QTableWidget* table)
        : QObject(table)
        , m_table(table) {
        table->viewport()->installEventFilter(this);
        QAbstractItemModel* model = table->model();
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
            connect(model, signal, this, &ColumnFitter::queue);
        connect(model, &QAbstractItemModel::dataChanged, this, &ColumnFitter::queue);
        connect(model, &QAbstractItemModel::modelReset, this, &ColumnFitter::queue);
        connect(model, &QAbstractItemModel::headerDataChanged, this, &ColumnFitter::queue);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize || event->type() == QEvent::FontChange)
            fit();
        return QObject::eventFilter(watched, event);
    }

private:
    void queue() {
        if (m_queued)
            return;
        m_queued = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_queued = false;
                fit();
            },
            Qt::QueuedConnection);
    }

    void fit() {
        QHeaderView* header = m_table->horizontalHeader();
        const int columns = m_table->columnCount();
        const int room = m_table->viewport()->width();
        if (columns == 0 || room <= 0)
            return;
        // A cell's text takes its size hint plus the grid line the cell gives up: without that pixel the
        // widest entry of each column was drawn cut ("1…" for n = 128, "112.…" for an MFU of 112.5 %) or
        // broken ("0.1456 / µs") in the columns that got exactly what they were measured to need.
        const int grid = m_table->showGrid() ? 1 : 0;
        const QStringList samples = m_table->property(kColumnSamples).toStringList();
        // A cell's text margins, as the item delegate lays them out (QCommonStyle: the focus frame's margin
        // and a pixel, each side).
        const int padding =
            2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1);
        std::vector<int> need(static_cast<std::size_t>(columns));
        for (int c = 0; c < columns; ++c) {
            int widest = header->sectionSizeHint(c);
            if (c < samples.size()) // the widest text the column will hold, before any row is there
                widest =
                    std::max(widest, m_table->fontMetrics().horizontalAdvance(samples[c]) + padding + grid);
            for (int r = 0; r < m_table->rowCount(); ++r)
                widest =
                    std::max(widest, m_table->sizeHintForIndex(m_table->model()->index(r, c)).width() + grid);
            need[std::size_t(c)] = widest;
        }
        const int least = m_table->fontMetrics().averageCharWidth() * 3;
        header->setMinimumSectionSize(least); // the style's minimum is wider than "n" needs
        // As narrow as the numbers whole and the last column (status, verdicts) wrapped to 16 characters:
        // a row of panes around the table (FlowSplitter) puts it under its neighbour rather than squeeze.
        const int wrapped = std::min(need.back(), m_table->fontMetrics().averageCharWidth() * 16);
        // The frame, and a vertical scroll bar whether or not one is shown now: rows that grow as the status
        // wraps bring the bar in, and a minimum taken without it left the numbers 14 px short.
        const QScrollBar* bar = m_table->verticalScrollBar();
        const int frame = (m_table->width() - room) + (bar->isVisible() ? 0 : bar->sizeHint().width());
        const int numbers = std::accumulate(need.begin(), need.end() - 1, 0);
        m_table->setMinimumWidth(numbers + wrapped + frame);
        // And as tall as its header and a few rows: stacked under its neighbour (FlowSplitter) an empty
        // table was given its header alone, and the rows of a run came into a strip one row high.
        constexpr int kLeastRows = 4;
        const int frameHeight = m_table->height() - m_table->viewport()->height() - header->height();
        m_table->setMinimumHeight(std::max(0, frameHeight) + header->sizeHint().height() +
                                  kLeastRows * m_table->verticalHeader()->defaultSectionSize());
        if (room >= numbers + wrapped) {
            // Room for every number whole: each column what it needs, the last the rest (wrapped). Shared
            // out as below, the widest numbers got less than they needed at this minimum (the status's
            // equal share counted in, though it needs only its wrapped width) and were drawn cut.
            for (int c = 0; c + 1 < columns; ++c)
                header->resizeSection(c, need[std::size_t(c)]);
            header->resizeSection(columns - 1, room - numbers);
            m_table->resizeRowsToContents();
            return;
        }
        // Narrower than that (a layout that grants less than the minimum): narrow columns first, each given
        // what it needs up to an equal share of what is left: the short numbers stay whole and the long
        // texts share the rest, wrapped.
        std::vector<int> order(static_cast<std::size_t>(columns));
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(),
                  [&](int a, int b) { return need[std::size_t(a)] < need[std::size_t(b)]; });
        int left = room;
        for (std::size_t k = 0; k < order.size(); ++k) {
            const int share = left / static_cast<int>(order.size() - k);
            const int width = std::max(least, std::min(need[std::size_t(order[k])], share));
            header->resizeSection(order[k], width);
            left -= width;
        }
        m_table->resizeRowsToContents(); // a cell narrower than its text wraps onto more lines
    }

    QTableWidget* m_table;
    bool m_queued = false;
};

} // namespace

QTableWidget* makeResultTable(const QStringList& headers, QWidget* parent) {
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setWordWrap(true);
    new ColumnFitter(table);
    return table;
}

void setResultCell(QTableWidget* table, int row, int column, const QString& text, const QString& tip) {
    auto* item = new QTableWidgetItem(text);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    if (column > 0 && column < table->columnCount() - 1)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, column, item);
}

void setResultColumnSamples(QTableWidget* table, const QStringList& widest) {
    table->setProperty(kColumnSamples, widest);
    QEvent resize(QEvent::Resize); // fitted again now, as on a resize
    QCoreApplication::sendEvent(table->viewport(), &resize);
}
