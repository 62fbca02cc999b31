// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A calculator page's two columns, as the Accounting and Inference pages lay them out: the control panel
// on the left beside the results column (charts over answers), in a splitter the user can drag. The
// results column gets the width the panel does not need, and scrolls down when the window is too short
// for the charts' minimum sizes (presentation mode's type on a projector) rather than squeezing them until
// their labels are cut.
class QSplitter;
class QWidget;

/// Installs the two columns as `page`'s layout; `controls` is the page's control panel (a
/// PanelScrollArea), `results` its results column, wrapped here in one. Returns the splitter.
QSplitter* layOutPageColumns(QWidget* page, QWidget* controls, QWidget* results);
