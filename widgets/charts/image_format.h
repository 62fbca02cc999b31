// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The picture formats charts and pages are exported in, and a whole page (any widget) drawn into one.
#include <QByteArray>
#include <QSize>
#include <QString>

#include <optional>

class QWidget;

enum class ImageFormat { png, svg, pdf };

/// By the file's extension, case-insensitively: .png, .svg, .pdf; nullopt for anything else.
std::optional<ImageFormat> imageFormatForPath(const QString& path);

/// A whole widget (a page) laid out at `size` and painted into the format; charts inside it are
/// pixmaps in SVG and PDF (they paint from their buffer), labels and text are vectors. `caption`, when
/// given, is one line under the page (its setup), as a chart's settings line: the page is laid out in
/// what is left of `size`. In SVG and PDF each widget is cut by the panels it lies in, as on screen (a
/// row cut by a scrolled panel's edge is drawn as pixels of its visible part). Empty on failure.
QByteArray renderWidget(QWidget& widget, ImageFormat format, QSize size, double scale = 1.0,
                        const QString& caption = {});
