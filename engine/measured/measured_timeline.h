// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A measured run's memory over time, as the allocator reported it: what torch.profiler's Chrome trace
// (profile_memory=True) and a CUDA memory snapshot both become, one timeline per device. Bytes are the
// allocator's own counts: "allocated" is what torch.cuda.memory_allocated() counts (on the CPU, what c10's
// allocator holds for the tensors made while profiling), "reserved" what the caching allocator keeps
// from the device (CUDA only).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// c10::DeviceType's numbers, as the Chrome trace's "Device Type" writes them.
enum class MeasuredDeviceType { cpu = 0, cuda = 1, other = -1 };

struct MeasuredDevice {
    MeasuredDeviceType type = MeasuredDeviceType::cpu;
    int index = -1; ///< -1: the CPU (or a device with no index)
    bool operator==(const MeasuredDevice&) const = default;
};

/// "cpu", "cuda:0", "device type 7:1".
std::string measuredDeviceName(const MeasuredDevice& device);
/// "cpu", "cuda" (index 0), "cuda:N"; nullopt for anything else.
std::optional<MeasuredDevice> measuredDeviceFromName(const std::string& name);

/// The allocator's state right after one allocation or free.
struct MeasuredSample {
    double timeUs = 0;         ///< the trace's clock (µs); a snapshot without times: the entry's index
    double deltaBytes = 0;     ///< + allocated, − freed (0 for a reserved-only change)
    double allocatedBytes = 0; ///< held after it
    double reservedBytes = -1; ///< reserved after it; −1 where the source does not say
    std::int32_t phase = -1;   ///< index into MeasuredTimeline::phases; −1: outside every named range
};

/// A range the run named (`record_function`, `ProfilerStep#N`) and the largest allocated inside it.
struct MeasuredPhase {
    std::string name;
    double peakAllocatedBytes = 0;
    std::size_t samples = 0;
};

struct MeasuredTimeline {
    MeasuredDevice device;
    std::vector<MeasuredSample> samples; ///< in the run's order
    std::vector<MeasuredPhase> phases;   ///< distinct names, in order of first sample
    std::size_t peakIndex = 0;           ///< the first sample with the largest allocated
    double peakAllocatedBytes = 0;
    bool hasReserved = false;
    double peakReservedBytes = 0;
    std::string peakPhase; ///< the phase of the peak sample; empty: outside every named range
};

/// Bytes a run holds that a prediction leaves out, named by the run's own helper
/// (scripts/measure-run.py writes them in the trace: the batch, the model's buffers, ...).
struct MeasuredNamedBytes {
    std::string name;
    double bytes = 0;
};

/// A range the run named (`record_function`, `ProfilerStep#N`) on the trace's clock, as the trace wrote its
/// "ts" and "dur" (µs).
struct MeasuredRange {
    std::string name;
    double startUs = 0;
    double endUs = 0;
};

/// A whole measured run: its format, every device it has samples for, and what its helper named.
struct MeasuredRun {
    std::string format; ///< "torch.profiler Chrome trace", "CUDA memory snapshot"
    std::vector<MeasuredTimeline> devices;
    /// Every named range with a duration, in the trace's order; empty for a memory snapshot (it has none).
    std::vector<MeasuredRange> ranges;
    std::vector<MeasuredNamedBytes> notModelled; ///< held through the run, outside a prediction
    std::string note; ///< how the numbers were made, one line ("Total Allocated as the trace wrote it")
    /// The napkin command the run was made with ("napkin-cli account --model transformer …"), as
    /// scripts/measure-run.py writes it under "napkin_setup"; empty where the run does not say.
    std::string setupCommand;
    /// The same setup as a scenario file's text (engine/scenario), which the app opens as the page's
    /// setup ("Use the run's setup"); measure-run.py writes it under "napkin_scenario" from napkin-cli
    /// account --save-scenario. Empty where the run does not say.
    std::string setupScenario;
    /// The hardware profile (its file's text, engine/steptime/hardware_profile.h) the run's prediction was
    /// costed from, as measure-run.py writes it under "napkin_hardware_profile" when its flags give
    /// --hardware-profile; empty where the run does not say. Read by runStepTime (measured_step_time.h).
    std::string hardwareProfile;
    /// The timeline of `device`; nullptr when the run has none.
    const MeasuredTimeline* find(const MeasuredDevice& device) const;
};

struct MeasuredRunRead {
    MeasuredRun run;
    std::string error; ///< one line naming the file and what is wrong; empty when ok
    bool ok() const { return error.empty(); }
};

/// Peaks, the peak's phase and each phase's peak, from `timeline.samples` and their phase indices.
void finishTimeline(MeasuredTimeline& timeline);

/// The device a comparison reads: `wanted` when given (nullptr and an error when the run has none), else
/// the run's only device, or its first CUDA device when it has several.
const MeasuredTimeline* chooseDevice(const MeasuredRun& run, const std::optional<MeasuredDevice>& wanted,
                                     std::string& error);

/// Whether a file starting with `head` (its first bytes, a few KiB) is a measured run rather than another
/// JSON the app opens (a scenario, a config.json): a pickle (first byte 0x80), a trace object naming
/// "traceEvents", or a JSON array of events. Says nothing of whether the rest reads.
bool looksLikeMeasuredRun(std::string_view head);

/// Reads a measured run whatever its format: a pickle (first byte 0x80) as a CUDA memory snapshot, else a
/// Chrome trace. Never throws; a bad file gives one line.
MeasuredRunRead readMeasuredRun(const std::string& path);

} // namespace napkin
