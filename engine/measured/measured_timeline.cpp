// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/measured/measured_timeline.h"

#include "engine/io/bounded_file_read.h"
#include "engine/measured/chrome_trace_reader.h"
#include "engine/measured/memory_snapshot_reader.h"

#include <algorithm>
#include <charconv>

namespace napkin {

std::string measuredDeviceName(const MeasuredDevice& device) {
    switch (device.type) {
    case MeasuredDeviceType::cpu:
        return "cpu";
    case MeasuredDeviceType::cuda:
        return "cuda:" + std::to_string(device.index);
    case MeasuredDeviceType::other:
        break;
    }
    return "device " + std::to_string(device.index);
}

std::optional<MeasuredDevice> measuredDeviceFromName(const std::string& name) {
    if (name == "cpu")
        return MeasuredDevice{MeasuredDeviceType::cpu, -1};
    if (name == "cuda")
        return MeasuredDevice{MeasuredDeviceType::cuda, 0};
    const std::string prefix = "cuda:";
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0 || name.size() > 8)
        return std::nullopt;
    int index = 0;
    const char* begin = name.data() + prefix.size();
    const char* end = name.data() + name.size();
    const auto [ptr, ec] = std::from_chars(begin, end, index);
    if (ec != std::errc() || ptr != end || index < 0)
        return std::nullopt;
    return MeasuredDevice{MeasuredDeviceType::cuda, index};
}

const MeasuredTimeline* MeasuredRun::find(const MeasuredDevice& device) const {
    for (const MeasuredTimeline& t : devices)
        if (t.device == device)
            return &t;
    return nullptr;
}

void finishTimeline(MeasuredTimeline& timeline) {
    timeline.peakIndex = 0;
    timeline.peakAllocatedBytes = 0;
    timeline.peakReservedBytes = 0;
    timeline.hasReserved = false;
    for (MeasuredPhase& p : timeline.phases) {
        p.peakAllocatedBytes = 0;
        p.samples = 0;
    }
    for (std::size_t i = 0; i < timeline.samples.size(); ++i) {
        const MeasuredSample& s = timeline.samples[i];
        if (i == 0 || s.allocatedBytes > timeline.peakAllocatedBytes) {
            timeline.peakAllocatedBytes = s.allocatedBytes;
            timeline.peakIndex = i;
        }
        if (s.reservedBytes >= 0) {
            timeline.peakReservedBytes = timeline.hasReserved
                                             ? std::max(timeline.peakReservedBytes, s.reservedBytes)
                                             : s.reservedBytes;
            timeline.hasReserved = true;
        }
        if (s.phase >= 0 && static_cast<std::size_t>(s.phase) < timeline.phases.size()) {
            MeasuredPhase& p = timeline.phases[static_cast<std::size_t>(s.phase)];
            p.peakAllocatedBytes =
                p.samples == 0 ? s.allocatedBytes : std::max(p.peakAllocatedBytes, s.allocatedBytes);
            ++p.samples;
        }
    }
    timeline.peakPhase.clear();
    if (!timeline.samples.empty()) {
        const std::int32_t phase = timeline.samples[timeline.peakIndex].phase;
        if (phase >= 0 && static_cast<std::size_t>(phase) < timeline.phases.size())
            timeline.peakPhase = timeline.phases[static_cast<std::size_t>(phase)].name;
    }
}

const MeasuredTimeline* chooseDevice(const MeasuredRun& run, const std::optional<MeasuredDevice>& wanted,
                                     std::string& error) {
    if (wanted) {
        if (const MeasuredTimeline* t = run.find(*wanted))
            return t;
        std::string has;
        for (const MeasuredTimeline& t : run.devices)
            has += (has.empty() ? "" : ", ") + measuredDeviceName(t.device);
        error = "no memory events on " + measuredDeviceName(*wanted) + " (the run has " +
                (has.empty() ? std::string("none") : has) + ")";
        return nullptr;
    }
    if (run.devices.empty()) {
        error = "no memory events";
        return nullptr;
    }
    for (const MeasuredTimeline& t : run.devices)
        if (t.device.type == MeasuredDeviceType::cuda)
            return &t;
    return &run.devices.front();
}

bool looksLikeMeasuredRun(std::string_view head) {
    if (!head.empty() && static_cast<unsigned char>(head.front()) == 0x80)
        return true;
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return false;
    // A scenario or a config.json is an object and never names "traceEvents"; torch writes the object
    // form with it, other tools the bare array of events.
    return head[first] == '[' || head.find("\"traceEvents\"") != std::string_view::npos;
}

MeasuredRunRead readMeasuredRun(const std::string& path) {
    // The larger of the two caps: the file's first byte then says which reader (and cap) applies.
    const BoundedFileRead file = readBoundedFile(path, std::max(kChromeTraceMaxBytes, kSnapshotMaxBytes));
    if (!file.ok())
        return {{}, file.error};
    if (!file.bytes.empty() && static_cast<unsigned char>(file.bytes[0]) == 0x80) {
        if (file.bytes.size() > kSnapshotMaxBytes)
            return {{},
                    path + " is " + std::to_string(file.bytes.size()) + " bytes, more than the " +
                        std::to_string(kSnapshotMaxBytes) + " allowed for a memory snapshot"};
        return readMemorySnapshot(file.bytes, path);
    }
    if (file.bytes.size() > kChromeTraceMaxBytes)
        return {{},
                path + " is " + std::to_string(file.bytes.size()) + " bytes, more than the " +
                    std::to_string(kChromeTraceMaxBytes) + " allowed for a trace"};
    return readChromeTrace(file.bytes, path);
}

} // namespace napkin
