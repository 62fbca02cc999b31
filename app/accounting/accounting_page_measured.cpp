// SPDX-License-Identifier: GPL-3.0-or-later
// The Accounting page's measured run (File > Open measured run…, a dropped trace or snapshot): set,
// refused, cleared, its one line under the timeline, and the run's own setup ("Use the run's setup"). The
// comparison itself is measured_run_section's, from the engine.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/measured_run_section.h"
#include "app/hardware/session_gpu_catalog.h"
#include "engine/scenario/accounting_fields.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/controls/text_tone.h"

#include <QLabel>
#include <QPushButton>

using namespace napkin;

void AccountingPage::setMeasuredRun(MeasuredRun run, const QString& label) {
    m_runSetup = measuredRunSetup(run);
    m_measuredRun = std::move(run);
    m_measuredLabel = label;
    m_measuredError.clear();
    recompute();
    emit measuredRunChanged(true);
}

void AccountingPage::showMeasuredRunError(const QString& message) {
    m_measuredError = message;
    showMeasuredNote(m_memoryChart->byteUnits());
}

void AccountingPage::clearMeasuredRun() {
    const bool had = m_measuredRun.has_value();
    m_measuredRun.reset();
    m_runSetup.reset();
    m_measuredLabel.clear();
    m_measuredError.clear();
    recompute();
    if (had)
        emit measuredRunChanged(false);
}

// A refused file's reason stays until the next file or Clear; else the shown run's comparison.
void AccountingPage::showMeasuredNote(ByteUnits units) {
    const bool error = !m_measuredError.isEmpty();
    if (error)
        setTextTone(m_measuredNote, TextTone::alert);
    else
        clearTextTone(m_measuredNote);
    if (error)
        m_measuredNote->setText(tr("Measured run not opened: %1").arg(m_measuredError));
    else if (m_measuredComparison)
        m_measuredNote->setText(::measuredRunNote(*m_measuredComparison, m_measuredLabel, units));
    else
        m_measuredNote->clear();
    m_measuredNote->setVisible(!m_measuredNote->text().isEmpty());
    m_clearMeasured->setVisible(m_measuredRun.has_value() || error);
    m_useRunSetup->setVisible(m_runSetup && !hasRunSetup(m_controls->input(), *m_runSetup));
}

void AccountingPage::useRunSetup() {
    if (!m_runSetup)
        return;
    for (const GpuSpec& part : m_runSetup->gpus.parts) // a part of the user's own the run names
        SessionGpuCatalog::instance().add(part);
    AccountingScenario fields = withInput(scenario(), m_runSetup->accounting.input);
    fields.preset = m_runSetup->accounting.preset;
    applyScenario(fields);
}
