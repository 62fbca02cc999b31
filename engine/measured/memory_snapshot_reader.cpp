// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/measured/memory_snapshot_reader.h"

#include <cmath>
#include <map>

namespace napkin {
namespace {

using Kind = PickleValue::Kind;

// Every element the extraction visits, counted: a pickle whose memo makes one list the item of many
// others is a small file with a huge walk, and this caps it.
class Walk {
public:
    Walk(const PickleData& data, std::size_t budget)
        : data_(data)
        , budget_(budget) {}
    bool visit() { return budget_ > 0 ? (--budget_, true) : false; }
    const PickleData& data() const { return data_; }

private:
    const PickleData& data_;
    std::size_t budget_;
};

bool asInteger(const PickleData& d, std::optional<std::uint32_t> index, std::int64_t& out) {
    if (!index)
        return false;
    const PickleValue& v = d.at(*index);
    if (v.kind != Kind::integer)
        return false;
    out = v.integer;
    return true;
}

bool asText(const PickleData& d, std::optional<std::uint32_t> index, std::string& out) {
    if (!index)
        return false;
    const PickleValue& v = d.at(*index);
    if (v.kind != Kind::text || v.truncated)
        return false;
    out = v.text;
    return true;
}

const PickleValue* asList(const PickleData& d, std::optional<std::uint32_t> index) {
    if (!index)
        return nullptr;
    const PickleValue& v = d.at(*index);
    return v.kind == Kind::list || v.kind == Kind::tuple ? &v : nullptr;
}

struct DeviceState {
    double allocatedNow = 0; // the snapshot's active blocks
    double reservedNow = 0;  // its segments
};

} // namespace

MeasuredRunRead readMemorySnapshot(std::string_view bytes, const std::string& label,
                                   const PickleLimits& limits) {
    MeasuredRunRead r;
    const PickleData data = readPickleData(bytes, limits);
    if (!data.ok()) {
        r.error = label + ": not a memory snapshot: " + data.error;
        return r;
    }
    const auto fail = [&](const std::string& why) {
        r.error = label + ": " + why;
        return r;
    };
    if (data.at(data.root).kind != Kind::dict)
        return fail("not a memory snapshot: its pickle holds no dict of \"segments\" and \"device_traces\" "
                    "(torch.cuda.memory._snapshot()'s)");
    Walk walk(data, limits.maxValues * 4);
    const PickleValue* segments = asList(data, data.find(data.root, "segments"));
    const PickleValue* traces = asList(data, data.find(data.root, "device_traces"));
    if (!segments || !traces)
        return fail("not a memory snapshot: it has no \"segments\" and \"device_traces\" lists");

    // What the snapshot holds now, per device: blocks still allocated, and the segments around them.
    std::map<std::int64_t, DeviceState> now;
    for (std::uint32_t s : segments->items) {
        if (!walk.visit())
            return fail("too many elements to walk");
        std::int64_t device = 0, total = 0;
        if (!asInteger(data, data.find(s, "device"), device) ||
            !asInteger(data, data.find(s, "total_size"), total) || device < 0 || device > 4096 || total < 0)
            return fail("a segment without a device and a total_size");
        DeviceState& state = now[device];
        state.reservedNow += static_cast<double>(total);
        const PickleValue* blocks = asList(data, data.find(s, "blocks"));
        if (!blocks)
            return fail("a segment without blocks");
        for (std::uint32_t b : blocks->items) {
            if (!walk.visit())
                return fail("too many elements to walk");
            std::int64_t size = 0;
            std::string blockState;
            if (!asInteger(data, data.find(b, "size"), size) || size < 0 ||
                !asText(data, data.find(b, "state"), blockState))
                return fail("a block without a size and a state");
            if (blockState == "active_allocated")
                state.allocatedNow += static_cast<double>(size);
        }
    }

    MeasuredRun& run = r.run;
    run.format = "CUDA memory snapshot";
    run.note = "allocated and reserved: the snapshot's blocks and segments, walked back through its history";
    for (std::size_t device = 0; device < traces->items.size(); ++device) {
        if (!walk.visit())
            return fail("too many elements to walk");
        const PickleValue* entries = asList(data, traces->items[device]);
        if (!entries)
            return fail("device_traces[" + std::to_string(device) + "] is not a list");
        if (entries->items.empty())
            continue;
        MeasuredTimeline t;
        t.device = {MeasuredDeviceType::cuda, static_cast<int>(device)};
        double allocated = 0, reserved = 0; // net change since the first entry
        for (std::size_t i = 0; i < entries->items.size(); ++i) {
            if (!walk.visit())
                return fail("too many elements to walk");
            const std::uint32_t e = entries->items[i];
            std::string action;
            std::int64_t size = 0;
            if (!asText(data, data.find(e, "action"), action) ||
                !asInteger(data, data.find(e, "size"), size) || size < 0)
                return fail("device_traces[" + std::to_string(device) + "][" + std::to_string(i) +
                            "] has no action and size");
            double dAllocated = 0, dReserved = 0;
            if (action == "alloc")
                dAllocated = static_cast<double>(size);
            else if (action == "free_requested")
                dAllocated = -static_cast<double>(size);
            else if (action == "segment_alloc" || action == "segment_map")
                dReserved = static_cast<double>(size);
            else if (action == "segment_free" || action == "segment_unmap")
                dReserved = -static_cast<double>(size);
            else
                continue; // free_completed, snapshot, oom: no change in either count
            allocated += dAllocated;
            reserved += dReserved;
            MeasuredSample sample;
            std::int64_t time = 0;
            sample.timeUs = asInteger(data, data.find(e, "time_us"), time) ? static_cast<double>(time)
                                                                           : static_cast<double>(i);
            sample.deltaBytes = dAllocated;
            sample.allocatedBytes = allocated; // made absolute below
            sample.reservedBytes = reserved;
            t.samples.push_back(sample);
        }
        if (t.samples.empty())
            continue;
        const DeviceState state = now[static_cast<std::int64_t>(device)];
        const double allocatedAtStart = state.allocatedNow - allocated;
        const double reservedAtStart = state.reservedNow - reserved;
        if (allocatedAtStart < 0 || reservedAtStart < 0)
            return fail("cuda:" + std::to_string(device) +
                        "'s history frees more than its snapshot ever held "
                        "(a snapshot and a history that do not belong together)");
        for (MeasuredSample& s : t.samples) {
            s.allocatedBytes += allocatedAtStart;
            s.reservedBytes += reservedAtStart;
        }
        finishTimeline(t);
        run.devices.push_back(std::move(t));
    }
    if (run.devices.empty())
        return fail(
            "no memory events: the snapshot has no allocation history (call "
            "torch.cuda.memory._record_memory_history() before the step, or use scripts/measure-run.py)");
    return r;
}

} // namespace napkin
