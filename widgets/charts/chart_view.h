// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every chart shares, written once: a QCustomPlot owned by composition and never handed out
// (only the charts in this folder reach it); drawing the chart into a PNG, SVG or PDF; colours that follow
// the palette (dark themes, presentation mode) and lines that presentation mode thickens; queued
// replots. Each chart keeps only its own data mapping.
#include "widgets/charts/image_format.h"

#include <QByteArray>
#include <QColor>
#include <QLine>
#include <QPen>
#include <QPixmap>
#include <QRect>
#include <QSize>
#include <QStringList>
#include <QWidget>

#include <vector>

class QCPItemText;
class QLabel;
class QResizeEvent;
class QCustomPlot;
struct PictureCaptions;

/// Where a chart drew its text and data, in the chart widget's coordinates, as of its last replot: what
/// a layout check needs (a legend that covers data, labels that collide, an axis title cut short)
/// without reaching QCustomPlot.
struct ChartLayout {
    QRect axisRect;                  ///< the plotted area inside the axes
    QRect legend;                    ///< the legend's box; empty when hidden
    bool legendInsideAxes = false;   ///< drawn over the plotted area (rather than in its own row)
    std::vector<QRect> labels;       ///< the text items drawn on the plot (capacity, peak, notes)
    std::vector<QColor> labelColors; ///< each label's text colour, in the order of `labels`
    QStringList labelTexts;          ///< each label's text, in the order of `labels`
    std::vector<QRect>
        labelTextBoxes; ///< each label's text alone, inside its padding, in the order of `labels`
    /// The bottom and left axes' titles as drawn, wrapped to the room the chart had ('\n' between lines): a
    /// chart squeezed beside a table broke its x title onto four.
    QStringList axisTitles;
    std::vector<QLine> rules; ///< straight lines across the axes (a capacity), within the axes
    std::vector<QRect> data;  ///< bars' boxes and small boxes along graphs' lines
    QStringList cutText;      ///< axis titles past the chart's edges, labels past their clip: drawn cut
    QStringList crowdedTicks; ///< neighbouring tick labels of one axis that overlap ("1.5 GB / 1.75 GB")
};

class ChartView : public QWidget {
    Q_OBJECT
public:
    ~ChartView() override;

    /// The chart at width × height logical pixels, `scale` device pixels per pixel.
    QPixmap render(int width, int height, double scale = 1.0) const;
    /// The chart as PNG (`size` × `scale` pixels), SVG or PDF (`size` points, vectors, text stays text);
    /// empty on failure. With `captioned`, the title is drawn above the chart and the settings line
    /// below it (a picture on a slide says what it shows and for which setup).
    QByteArray renderAs(ImageFormat format, QSize size, double scale = 1.0, bool captioned = true) const;
    /// Where renderAs draws the chart itself in a picture of `size` (logical pixels): under the title and
    /// above the settings line when captioned, else the whole picture.
    QRect chartRectIn(QSize size, bool captioned = true) const;

    /// What the chart shows ("Memory per GPU"): the title of an exported picture.
    void setTitle(const QString& title) { m_title = title; }
    QString title() const { return m_title; }
    /// The setup the chart was drawn for, on one line ("napkin-cli account --preset gpt2-small"); the
    /// page that fills the chart sets it with the data.
    void setSettingsCaption(const QString& settings) { m_settings = settings; }
    QString settingsCaption() const { return m_settings; }

    /// Marks the chart as no longer matching the controls (an input is invalid, so the page keeps the last
    /// valid result): the plot is veiled in the window's colour, greyed, with `reason` across its middle.
    /// An empty reason lifts the veil. The data stays as it was; exports draw the plot alone.
    void setStale(const QString& reason);
    /// The reason the chart is veiled, or empty when it shows the controls' current setup.
    QString staleReason() const;

    /// Presentation mode: axis, grid and series lines `scale` times thicker, axis text in the widget's
    /// font (1 = as the chart draws them). Applied before each replot, so a chart re-setting its pens
    /// does not undo it, and never compounded.
    void setLineScale(double scale);
    double lineScale() const { return m_lineScale; }

    /// The y-axis tick labels shown (tests check the human units).
    QStringList tickLabels() const;
    /// The x-axis tick labels shown.
    QStringList xTickLabels() const;
    /// The legend's entries as drawn, in order (a chart leaves out what it does not draw).
    QStringList legendNames() const;
    /// The bottom axis's title as set (before it is wrapped to the chart's width).
    QString xAxisTitle() const;
    /// What the axes are drawn with now (tests check that they follow the palette and the line scale).
    QColor axisTextColor() const;
    QPen axisPen() const;
    /// The pens of the chart's series (graphs and bars), in the order they were added.
    std::vector<QPen> seriesPens() const;
    /// QCustomPlot's running average of its recent replot times, in ms (for the page benchmark).
    double averageReplotMs() const;
    /// Draws now instead of at the next event-loop turn (tests that read what was drawn).
    void replotNow();
    /// A replot is queued and has not drawn yet (the page benchmark waits for these alone: a chart whose
    /// data did not change queues none).
    bool replotPending() const { return m_replotPending; }
    /// The geometry of the last replot (see ChartLayout).
    ChartLayout layoutGeometry() const;

signals:
    /// A queued replot finished drawing.
    void replotted();

protected:
    explicit ChartView(QWidget* parent = nullptr);

    QCustomPlot& plot() const { return *m_plot; }
    /// setData()'s guard: `data` becomes `held` unless the chart has drawn (`drawn`) the same already, so a
    /// change that leaves the chart as it is (the training tokens) draws nothing. True: rebuild.
    template <class Data>
    static bool takeNewData(Data& held, bool& drawn, const Data& data) {
        if (drawn && data == held)
            return false;
        drawn = true;
        held = data;
        return true;
    }
    /// The top of a value axis from 0 that leaves `pixels` above `value` in the axes as last laid out,
    /// at least `value` × `factor`: room for a label over a bar whatever the font (presentation mode).
    double topLeavingRoom(double value, double pixels, double factor) const;
    /// The height of a label drawn on the plot, its lines and padding included.
    static double labelHeight(const QCPItemText& label);
    /// `text` with each of its lines broken at spaces into as many as it needs to fit `room` pixels.
    static QString fittedText(const QString& text, const QFont& font, int room);
    /// The smallest the plot may be at the application's font; its height grows with a larger font
    /// (presentation mode), so a page scrolls rather than squashing the plot until its labels are cut, and
    /// its width to `columns` average characters (a tick label, a wrapped axis title and the plot, or a
    /// note's line) when that is wider.
    void setMinimumChartSize(QSize atApplicationFont, int columns = 30);
    /// Redraws at the next event-loop turn; many calls in one turn draw once.
    void queueReplot();
    /// The legend in its own row under the axes (inside them it would hide data), in `columns` columns,
    /// or out of the layout (an empty legend would still take its row's width).
    void setLegendBelow(bool shown, int columns = 2);
    /// Series and label colours, called after the base has coloured background, axes, axis text and
    /// legend from the palette; a chart whose pens depend on its data may rebuild instead.
    virtual void applySeriesColors() {}

    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The title and settings line an exported picture carries (none when not `captioned`).
    PictureCaptions captions(bool captioned) const;
    void applyPalette();
    /// The stale veil's translucent window colour, from the chart's palette (chart_view_stale.cpp).
    void applyStalePalette();
    void applyMinimumSize();
    void applyLineScale();
    /// Ticks as many as fit: at most the ticker's usual five, fewer when their labels would overlap; and
    /// room at the axes' right end for the last label. Whether that room changed (the axes narrowed).
    bool fitTicks();
    void checkTicksAfterReplot();

    QCustomPlot* m_plot;
    QLabel* m_staleVeil = nullptr; ///< over the plot while stale; made on first use
    double m_lineScale = 1.0;
    QString m_title;
    QString m_settings;
    QSize m_minimum{240, 180};    ///< at the application's font
    int m_minimumColumns = 30;    ///< "300 GFLOPs", a title's line and a plot beside them
    int m_legendColumns = 1;      ///< as the chart asked; fewer when the entries are too wide for them
    bool m_refitting = false;     ///< this replot was queued to lay out refitted axis titles
    int m_tickRefits = 0;         ///< replots queued in a row to fit ticks to axes that moved
    QRect m_fittedAxes;           ///< the axes the ticks and the right margin were last fitted to
    bool m_replotPending = false; ///< queueReplot() since the last replot
};

/// The chart library's name and version ("QCustomPlot 2.1.1"), for Help ▸ About: the name stays here,
/// with the library.
QString chartLibraryVersion();

/// Sets the line scale of every chart inside `root` (presentation mode on a whole window).
void setChartLineScale(QWidget& root, double scale);
