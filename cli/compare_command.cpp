// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/compare_command.h"

#include "cli/account_options.h"
#include "cli/number_option.h"
#include "cli/step_time_option.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/io/bounded_file_read.h"
#include "engine/measured/chrome_trace_reader.h"
#include "engine/measured/measured_comparison.h"
#include "engine/measured/measured_overheads.h"
#include "engine/measured/measured_step_time.h"
#include "engine/measured/memory_snapshot_reader.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"
#include "engine/report/measured_report.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <ostream>
#include <vector>

namespace napkin::cli {
namespace {

struct CompareOptions {
    AccountOptions setup;
    std::string trace, snapshot, device;
    bool json = false;
};

MeasuredRunRead readRun(const CompareOptions& o, std::string& option, std::string& path) {
    if (!o.trace.empty() && !o.snapshot.empty())
        throw UsageError("--trace and --snapshot: give one measured run, not both");
    if (o.trace.empty() && o.snapshot.empty())
        throw UsageError("--trace or --snapshot: give the measured run's file");
    option = o.trace.empty() ? "--snapshot" : "--trace";
    path = o.trace.empty() ? o.snapshot : o.trace;
    const BoundedFileRead file =
        readBoundedFile(path, o.trace.empty() ? kSnapshotMaxBytes : kChromeTraceMaxBytes);
    if (!file.ok())
        throw UsageError(option + ": " + file.error);
    return o.trace.empty() ? readMemorySnapshot(file.bytes, path) : readChromeTrace(file.bytes, path);
}

// "1,112,652 B (1.113 MB)": every byte, then the rounded figure.
std::string bytesText(double bytes) {
    const bool negative = bytes < 0;
    std::string digits = formatExact(negative ? -bytes : bytes);
    if (digits.find_first_not_of("0123456789") == std::string::npos)
        for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
            digits.insert(static_cast<std::size_t>(i), ",");
    return (negative ? "-" : "") + digits + " B";
}

std::string signedBytes(double bytes) {
    return (bytes > 0 ? "+" : "") + bytesText(bytes);
}

// A column `width` characters wide, and always one space more than its text: a figure wider than its
// column ("10,727,338,004 B" in 16) ran into the next ("Bforward head").
std::string padded(std::string text, std::size_t width) {
    // Width in characters as a terminal shows them: count UTF-8 lead bytes only.
    std::size_t shown = 0;
    for (unsigned char c : text)
        shown += (c & 0xC0) != 0x80;
    text.append(shown < width ? width - shown : 1, ' ');
    return text;
}

std::string secondsText(const std::optional<double>& seconds, const char* unset) {
    return seconds ? formatDuration(*seconds) : std::string(unset);
}

// The step's time by phase: the ledger's seconds against the run's ranges, with what each side lacks said.
void printTime(std::ostream& out, const MeasuredTimeComparison& t) {
    out << "time by phase (predicted for " << t.predictedFor;
    if (t.predicted)
        out << " from " << t.basis;
    out << "; measured: " << (t.stepRange.empty() ? "no step" : "the ranges inside " + t.stepRange) << "):\n";
    if (!t.predicted)
        out << "  step time not predicted: " << t.whyNotPredicted << "\n";
    if (!t.whyNotMeasured.empty())
        out << "  not measured: " << t.whyNotMeasured << "\n";
    if (!t.comparable)
        out << "  " << t.comparability << "\n";
    if (!t.predicted && !t.whyNotMeasured.empty())
        return;
    out << "  " << padded("phase", 16) << padded("predicted", 16) << padded("measured", 16)
        << "predicted/measured\n";
    const auto line = [&](const PhaseTimeComparison& p) {
        out << "  " << padded(p.phase, 16)
            << padded(secondsText(p.predictedSeconds, t.predicted ? "not modelled" : "-"), 16)
            << padded(secondsText(p.measuredSeconds, "not named"), 16)
            << (p.ratio ? formatNumber(*p.ratio) : std::string("-")) << "\n";
    };
    for (const PhaseTimeComparison& p : t.phases)
        line(p);
    line(t.step);
    if (t.predicted && t.predictedOutsidePhasesSeconds > 0)
        out << "  predicted outside the phases (communication, pipeline bubble): "
            << formatDuration(t.predictedOutsidePhasesSeconds) << "\n";
    if (t.measuredOutsidePhasesSeconds)
        out << "  measured outside the phases (the loop between its ranges): "
            << formatDuration(*t.measuredOutsidePhasesSeconds) << "\n";
}

void printText(std::ostream& out, const std::string& path, const MeasuredRun& run,
               const MeasuredComparison& c) {
    out << "measured run: " << path << " (" << run.format << "), " << measuredDeviceName(c.device) << ", "
        << c.measuredSamples << (c.measuredSamples == 1 ? " sample; " : " samples; ") << run.note << "\n";
    out << padded("predicted peak", 16) << bytesText(c.predictedPeakBytes) << " ("
        << formatBytes(c.predictedPeakBytes) << ") at " << c.predictedPeakEvent << "\n";
    out << padded("measured peak", 16) << bytesText(c.measuredPeakBytes) << " ("
        << formatBytes(c.measuredPeakBytes) << ") allocated"
        << (c.measuredPeakPhase.empty() ? "" : ", in " + c.measuredPeakPhase) << "\n";
    if (c.setupDifferenceBytes && c.measuredStartBytes)
        out << "setup probably differs: the run's step started holding " << bytesText(*c.measuredStartBytes)
            << " (less what it names), the prediction's persistent bytes are "
            << bytesText(c.predictedStartBytes) << " (" << signedBytes(*c.setupDifferenceBytes)
            << "); give the run's own setup flags, and the unexplained bytes below are mostly this\n";
    out << padded("difference", 16) << signedBytes(c.differenceBytes) << " (measured − predicted)\n";
    for (const AttributedBytes& a : c.attributed)
        out << "  " << padded(a.name, 36) << signedBytes(a.bytes) << "  " << a.source << "\n";
    out << "  " << padded("unexplained", 36) << signedBytes(c.unexplainedBytes) << "\n";
    if (c.hasReserved)
        out << padded("reserved peak", 16) << bytesText(c.measuredReservedPeakBytes) << " ("
            << formatBytes(c.measuredReservedPeakBytes) << "); prediction + named lines "
            << bytesText(c.predictedReservedBytes) << "; unexplained "
            << signedBytes(c.unexplainedReservedBytes) << "\n";
    out << "by phase (napkin's largest event; the run's largest sample in the ranges it named):\n";
    for (const PhaseComparison& p : c.phases) {
        out << "  " << padded(p.name, 16) << padded(bytesText(p.predictedPeakBytes), 16)
            << padded(p.predictedPeakEvent, 24);
        if (p.measuredPeakBytes) {
            std::string ranges;
            for (const std::string& r : p.measuredRanges)
                ranges += (ranges.empty() ? "" : ", ") + r;
            out << padded(bytesText(*p.measuredPeakBytes), 16)
                << signedBytes(*p.measuredPeakBytes - p.predictedPeakBytes) << "  (" << ranges << ")";
        } else {
            out << "not named by the run";
        }
        out << "\n";
    }
}

int execute(const CompareOptions& o, std::ostream& out) {
    // --mfu predicted changes account's training time, which compare has none of: refused, not dropped.
    // --hardware-profile and --no-dp-overlap cost the predicted step that the run's time is compared with.
    if (o.setup.mfu == "predicted")
        throw UsageError("--mfu predicted: account's training time; compare compares one step");
    const AccountingInput input = toAccountingInput(o.setup);
    const GpuCatalog catalog = catalogFor(o.setup);
    checkAccountingInput(input, catalog);
    std::optional<MeasuredDevice> device;
    if (!o.device.empty()) {
        device = measuredDeviceFromName(o.device);
        if (!device)
            throw UsageError("--device: cpu, cuda or cuda:N, got '" + o.device + "'");
    }
    std::string option, path;
    const MeasuredRunRead read = readRun(o, option, path);
    if (!read.ok())
        throw UsageError(option + ": " + read.error);
    std::string error;
    const MeasuredTimeline* timeline = chooseDevice(read.run, device, error);
    if (!timeline)
        throw UsageError((device ? "--device: " : option + ": ") + path + ": " + error);

    const GpuSpec& gpu = *catalog.find(input.gpu);
    const AccountingResult result = account(input, gpu);
    const MemoryTimeline predicted = memoryTimeline(input, result);
    const std::vector<MeasuredOverhead> overheads = measuredOverheadsOf(result.overheads, timeline->device);
    const MeasuredComparison comparison = compareWithMeasured(predicted, read.run, *timeline, overheads);
    // Without --hardware-profile, the profile the run carries (measure-run.py's) where it is for --gpu.
    StepTime stepTime = stepTimeFor(o.setup, input, result, gpu);
    if (o.setup.hardwareProfile.empty()) {
        StepTimeOptions options;
        options.overlapDataParallel = !o.setup.noDataParallelOverlap;
        stepTime = runStepTime(input, result, gpu, read.run, stepTime, options);
    }
    const MeasuredTimeComparison time = compareTimeWithMeasured(stepTime, gpu, read.run, timeline->device);
    if (o.json) {
        out << jsonText(measuredComparisonJson(path, read.run, *timeline, comparison, time));
    } else {
        printText(out, path, read.run, comparison);
        printTime(out, time);
    }
    return 0;
}

} // namespace

Command addCompareCommand(CLI::App& parent) {
    auto options = std::make_shared<CompareOptions>();
    CLI::App* sub = parent.add_subcommand(
        "compare",
        "A measured run (profiler trace or CUDA memory snapshot) beside the prediction for a setup");
    addAccountOptions(*sub, options->setup);
    sub->add_option(
        "--trace", options->trace,
        "torch.profiler Chrome trace (export_chrome_trace, profile_memory=True; scripts/measure-run.py)");
    sub->add_option("--snapshot", options->snapshot,
                    "CUDA memory snapshot (torch.cuda.memory._dump_snapshot(); read as data, never run)");
    sub->add_option("--device", options->device,
                    "the run's device to compare: cpu, cuda, cuda:N (default: its GPU)");
    sub->add_flag("--json", options->json, "print one JSON document");
    return {sub, [options](std::ostream& out, std::ostream&) { return execute(*options, out); }};
}

} // namespace napkin::cli
