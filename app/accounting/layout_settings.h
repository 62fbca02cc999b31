#pragma once
// The transformer's architecture options and the parallel layout in the app's settings, beside the
// accounting page's other controls (accounting_page.cpp), spelled as napkin-cli spells them.
#include "engine/accounting/accounting.h"

class QSettings;

/// Writes the options into the settings' current group (the page's "accounting").
void saveLayoutSettings(QSettings& settings, const napkin::AccountingInput& input);
/// Reads them from the "accounting/" keys into `input`; an absent or unreadable key keeps its value.
void restoreLayoutSettings(const QSettings& settings, napkin::AccountingInput& input);
