// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// torch.profiler's Chrome trace (prof.export_chrome_trace with profile_memory=True) read as a measured
// run: its "[memory]" instant events (args Bytes, Total Allocated, Total Reserved, Device Type, Device Id)
// become one allocated (and reserved) timeline per device, and its named ranges (record_function,
// ProfilerStep#N) the phases each sample falls in; the ranges themselves, with their "ts" and "dur", are
// kept in the run (MeasuredRun::ranges) for the step's time by phase (measured_step_time.h). The JSON is read
// as a stream (SAX): nothing but the memory events and the ranges is kept, so a trace of hundreds of MB costs
// its samples, not its DOM.
#include "engine/measured/measured_timeline.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace napkin {

inline constexpr std::uint64_t kChromeTraceMaxBytes = 512ull << 20; ///< a file larger is refused unread
inline constexpr int kChromeTraceMaxDepth = 32;                     ///< nesting of arrays and objects
inline constexpr std::size_t kChromeTraceMaxEvents = 20'000'000;    ///< memory events and ranges kept

/// The run in `text`, a trace's JSON (an array of events or an object with "traceEvents"); `label`
/// (the file's name) starts every error. No memory event at all is an error, as is a memory event
/// without Bytes. Also reads "napkin_not_modelled" ({"name": bytes}) and "napkin_setup" (the napkin command
/// the run was made with, at most 4096 characters) and "napkin_scenario" (that setup as a scenario file's
/// text, at most 1 MiB) and "napkin_hardware_profile" (the hardware profile's file text the prediction was
/// costed from, at most 1 MiB), which scripts/measure-run.py writes.
MeasuredRunRead readChromeTrace(std::string_view text, const std::string& label);

} // namespace napkin
