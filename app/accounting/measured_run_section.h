// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run the user measured (File ▸ Open measured run…, or a trace or snapshot dropped on the window) beside
// the Accounting page's prediction: the curve the timeline chart draws over the predicted step, the
// one-line note under the chart, and the "How is this computed?" section. The comparison itself is the
// engine's (engine/measured/measured_comparison.h, measured_overheads.h), the same that
// `napkin-cli compare` prints.
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/measured/measured_comparison.h"
#include "engine/measured/measured_step_time.h"
#include "engine/measured/measured_timeline.h"
#include "engine/numerics/quantity_format.h"
#include "engine/scenario/scenario.h"
#include "widgets/charts/memory_timeline_data.h"

#include <QString>

#include <optional>

/// The prediction of `result` beside `timeline` (one device of `run`): the engine's comparison, with the
/// overhead ledger's lines a run on that device can show.
napkin::MeasuredComparison compareMeasuredRun(const napkin::AccountingResult& result,
                                              const napkin::MemoryTimeline& predicted,
                                              const napkin::MeasuredRun& run,
                                              const napkin::MeasuredTimeline& timeline);

/// The run's samples placed on the predicted step's events by phase, as the chart draws them; `label`
/// names the run in the legend.
MeasuredRunCurve measuredRunCurve(const napkin::MemoryTimeline& predicted,
                                  const napkin::MeasuredTimeline& timeline, const QString& label);

/// One line under the chart: "run.json (cpu): measured peak 95.15 kB against 94.83 kB predicted,
/// +324 B: 324 B named by the run, 0 B unexplained".
QString measuredRunNote(const napkin::MeasuredComparison& comparison, const QString& label,
                        napkin::ByteUnits units);

/// HTML: predicted against measured peak, each attributed line with its source, what is unexplained, and
/// the step's phases side by side; then the step's time by phase, `stepTime` (predicted for `gpu`) against
/// the run's ranges (engine/measured/measured_step_time.h, as `napkin-cli compare` prints it).
QString explainMeasuredRun(const napkin::MeasuredComparison& comparison, const napkin::MeasuredRun& run,
                           const napkin::StepTime& stepTime, const napkin::GpuSpec& gpu, const QString& label,
                           napkin::ByteUnits units);

/// HTML: the time-by-phase table of explainMeasuredRun, predicted / measured / ratio per phase and the
/// step, with the prediction's basis, a plain sentence where it is for another kind of device than the
/// run's, and "not modelled" / "not named" where a side has no figure.
QString explainMeasuredTime(const napkin::MeasuredTimeComparison& time);

/// The setup the run was made with (scripts/measure-run.py's "napkin_scenario", from napkin-cli account
/// --save-scenario): its scenario, or nothing when the run does not say or says it in a file this build
/// refuses.
std::optional<napkin::Scenario> measuredRunSetup(const napkin::MeasuredRun& run);

/// Whether the page, holding `input`, has the run's setup already: the same napkin-cli line (the one
/// spelling of a setup, engine/report/cli_command_line.h), so that sizes of model kinds not shown or a
/// preset box left empty do not count.
bool hasRunSetup(const napkin::AccountingInput& input, const napkin::Scenario& runSetup);
