// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/measured_report.h"

#include "engine/report/json_values.h"

namespace napkin {
namespace {

nlohmann::json textOrNull(const std::string& text) {
    return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

nlohmann::json secondsOrNull(const std::optional<double>& seconds) {
    return seconds ? jsonNumber(*seconds) : nlohmann::json(nullptr);
}

nlohmann::json phaseTimeJson(const PhaseTimeComparison& p, bool predicted) {
    nlohmann::json byKind = nullptr;
    if (predicted && p.predictedSeconds) {
        byKind = nlohmann::json::object();
        for (std::size_t k = 0; k < kStepTimeKinds; ++k)
            byKind[std::string(stepTimeKindName(static_cast<StepTimeKind>(k)))] =
                jsonNumber(p.predictedByKindSeconds.at(k));
    }
    nlohmann::json rows = nlohmann::json::array();
    for (const StepTimeRow& r : p.largestRows)
        rows.push_back({{"name", r.name},
                        {"phase", std::string(stepTimePhaseName(r.phase))},
                        {"kind", std::string(stepTimeKindName(r.kind))},
                        {"seconds", jsonNumber(r.seconds)}});
    const std::optional<double> difference = p.predictedSeconds && p.measuredSeconds
                                                 ? std::optional(*p.measuredSeconds - *p.predictedSeconds)
                                                 : std::nullopt;
    return {{"phase", p.phase},
            {"predicted_seconds", secondsOrNull(p.predictedSeconds)},
            {"measured_seconds", secondsOrNull(p.measuredSeconds)},
            {"ratio", secondsOrNull(p.ratio)},
            {"difference_seconds", secondsOrNull(difference)},
            {"predicted_by_kind", byKind},
            {"largest_rows", rows},
            {"measured_ranges", p.measuredRanges}};
}

} // namespace

nlohmann::json measuredTimeJson(const MeasuredTimeComparison& t) {
    nlohmann::json phases = nlohmann::json::array();
    for (const PhaseTimeComparison& p : t.phases)
        phases.push_back(phaseTimeJson(p, t.predicted));
    return {{"predicted", t.predicted},
            {"why_not_predicted", textOrNull(t.whyNotPredicted)},
            {"basis", textOrNull(t.basis)},
            {"predicted_for", t.predictedFor},
            {"comparable", t.comparable},
            {"comparability", textOrNull(t.comparability)},
            {"measured_step_range", textOrNull(t.stepRange)},
            {"why_not_measured", textOrNull(t.whyNotMeasured)},
            {"phases", phases},
            {"step", phaseTimeJson(t.step, t.predicted)},
            {"predicted_outside_phases_seconds",
             t.predicted ? jsonNumber(t.predictedOutsidePhasesSeconds) : nlohmann::json(nullptr)},
            {"measured_outside_phases_seconds", secondsOrNull(t.measuredOutsidePhasesSeconds)}};
}

nlohmann::json measuredComparisonJson(const std::string& file, const MeasuredRun& run,
                                      const MeasuredTimeline& timeline, const MeasuredComparison& c,
                                      const MeasuredTimeComparison& time) {
    nlohmann::json doc;
    doc["file"] = file;
    doc["format"] = run.format;
    doc["note"] = run.note;
    doc["device"] = measuredDeviceName(c.device);
    nlohmann::json devices = nlohmann::json::array();
    for (const MeasuredTimeline& t : run.devices)
        devices.push_back(measuredDeviceName(t.device));
    doc["devices"] = devices;
    doc["predicted"] = {{"peak_bytes", jsonNumber(c.predictedPeakBytes)},
                        {"peak_event", textOrNull(c.predictedPeakEvent)}};
    doc["measured"] = {
        {"peak_allocated_bytes", jsonNumber(c.measuredPeakBytes)},
        {"peak_phase", textOrNull(c.measuredPeakPhase)},
        {"peak_reserved_bytes", c.hasReserved ? jsonNumber(c.measuredReservedPeakBytes) : nullptr},
        {"samples", c.measuredSamples}};
    doc["difference_bytes"] = jsonNumber(c.differenceBytes);
    nlohmann::json attributed = nlohmann::json::array();
    for (const AttributedBytes& a : c.attributed)
        attributed.push_back({{"name", a.name}, {"bytes", jsonNumber(a.bytes)}, {"source", a.source}});
    doc["attributed"] = attributed;
    doc["unexplained_bytes"] = jsonNumber(c.unexplainedBytes);
    doc["run_setup"] = textOrNull(run.setupCommand);
    doc["setup"] = {
        {"measured_start_bytes", c.measuredStartBytes ? jsonNumber(*c.measuredStartBytes) : nullptr},
        {"predicted_start_bytes", jsonNumber(c.predictedStartBytes)},
        {"difference_bytes", c.setupDifferenceBytes ? jsonNumber(*c.setupDifferenceBytes) : nullptr},
        {"probably_differs", c.setupDifferenceBytes.has_value()}};
    doc["reserved"] = c.hasReserved
                          ? nlohmann::json{{"measured_peak_bytes", jsonNumber(c.measuredReservedPeakBytes)},
                                           {"predicted_bytes", jsonNumber(c.predictedReservedBytes)},
                                           {"unexplained_bytes", jsonNumber(c.unexplainedReservedBytes)}}
                          : nlohmann::json(nullptr);
    nlohmann::json phases = nlohmann::json::array();
    for (const PhaseComparison& p : c.phases)
        phases.push_back(
            {{"phase", p.name},
             {"predicted_peak_bytes", jsonNumber(p.predictedPeakBytes)},
             {"predicted_peak_event", p.predictedPeakEvent},
             {"measured_peak_bytes", p.measuredPeakBytes ? jsonNumber(*p.measuredPeakBytes) : nullptr},
             {"measured_ranges", p.measuredRanges}});
    doc["phases"] = phases;
    nlohmann::json samples = nlohmann::json::array();
    for (const MeasuredSample& s : timeline.samples) {
        const bool named = s.phase >= 0 && static_cast<std::size_t>(s.phase) < timeline.phases.size();
        const std::string range =
            named ? timeline.phases[static_cast<std::size_t>(s.phase)].name : std::string();
        const auto stepPhase = named ? phaseOfRangeName(range) : std::nullopt;
        samples.push_back({{"time_us", jsonNumber(s.timeUs)},
                           {"bytes", jsonNumber(s.deltaBytes)},
                           {"allocated_bytes", jsonNumber(s.allocatedBytes)},
                           {"reserved_bytes", s.reservedBytes >= 0 ? jsonNumber(s.reservedBytes) : nullptr},
                           {"range", textOrNull(range)},
                           {"phase", stepPhase ? nlohmann::json(stepPhase == StepPhase::optimizer
                                                                    ? std::string("optimizer step")
                                                                    : std::string(stepPhaseName(*stepPhase)))
                                               : nlohmann::json(nullptr)}});
    }
    doc["timeline"] = samples;
    doc["time"] = measuredTimeJson(time);
    return doc;
}

} // namespace napkin
