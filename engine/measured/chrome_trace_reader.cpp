// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/measured/chrome_trace_reader.h"

#include "engine/steptime/hardware_profile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace napkin {
namespace {

using Json = nlohmann::json;

// A scenario file's own limit (engine/scenario/scenario.h's kScenarioMaxBytes): a longer text is not one.
constexpr std::size_t kScenarioTextMaxBytes = std::size_t{1} << 20;

enum class Role { root, events, event, args, notModelled, other };

struct Frame {
    Role role = Role::other;
    bool object = false;
    std::string key; // the last key read in this object
};

struct MemoryEvent {
    double ts = 0;
    double bytes = 0;
    double allocated = -1; // −1: not given
    double reserved = -1;
    int deviceType = 0;
    int deviceId = -1;
    std::size_t order = 0;
};

struct Range {
    std::string name;
    double start = 0, end = 0;
    bool profilerStep = false;
};

// The one event being read.
struct EventFields {
    std::string name, ph, cat;
    double ts = NAN, dur = NAN;
    double bytes = NAN, allocated = NAN, reserved = NAN, deviceType = NAN, deviceId = NAN;
    void clear() { *this = EventFields{}; }
};

bool startsWith(const std::string& text, std::string_view prefix) {
    return text.size() >= prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

class TraceSax : public nlohmann::json_sax<Json> {
public:
    std::vector<MemoryEvent> memory;
    std::vector<Range> ranges;
    std::vector<MeasuredNamedBytes> notModelled;
    std::string setupCommand;  ///< "napkin_setup": the napkin command the run was made with
    std::string setupScenario; ///< "napkin_scenario": that setup as a scenario file's text
    std::string
        hardwareProfile; ///< "napkin_hardware_profile": the profile the run's prediction was costed from
    std::string error;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t v) override { return number(static_cast<double>(v)); }
    bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v)); }
    bool number_float(number_float_t v, const string_t&) override { return number(v); }
    bool binary(binary_t&) override { return true; }

    bool string(string_t& v) override {
        if (frames_.empty())
            return true;
        const Frame& f = frames_.back();
        if (f.role == Role::root && f.key == "napkin_setup" && v.size() <= 4096) // one command line
            setupCommand = v;
        if (f.role == Role::root && f.key == "napkin_scenario" && v.size() <= kScenarioTextMaxBytes)
            setupScenario = v;
        if (f.role == Role::root && f.key == "napkin_hardware_profile" &&
            v.size() <= kMaxHardwareProfileBytes)
            hardwareProfile = v;
        if (f.role == Role::event) {
            if (f.key == "name")
                event_.name = v;
            else if (f.key == "ph")
                event_.ph = v;
            else if (f.key == "cat")
                event_.cat = v;
        }
        return true;
    }

    bool key(string_t& k) override {
        if (!frames_.empty())
            frames_.back().key = k;
        return true;
    }

    bool start_object(std::size_t) override {
        Role role = Role::other;
        if (frames_.empty())
            role = Role::root;
        else {
            const Frame& parent = frames_.back();
            if (parent.role == Role::events)
                role = Role::event;
            else if (parent.role == Role::event && parent.key == "args")
                role = Role::args;
            else if (parent.role == Role::root && parent.key == "napkin_not_modelled")
                role = Role::notModelled;
        }
        if (role == Role::event)
            event_.clear();
        return push(role, true);
    }

    bool end_object() override {
        const Role role = frames_.back().role;
        frames_.pop_back();
        if (role == Role::event)
            return finishEvent();
        return true;
    }

    bool start_array(std::size_t) override {
        // A trace is the bare array of events, or an object whose "traceEvents" holds them.
        const bool events =
            frames_.empty() || (frames_.back().role == Role::root && frames_.back().key == "traceEvents");
        return push(events ? Role::events : Role::other, false);
    }

    bool end_array() override {
        frames_.pop_back();
        return true;
    }

    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e) override {
        // nlohmann's message names the byte; keep its reason, not its exception id.
        std::string what = e.what();
        const auto colon = what.find("] ");
        if (colon != std::string::npos)
            what = what.substr(colon + 2);
        if (what.rfind("parse error", 0) == 0 && what.find(": ") != std::string::npos)
            what = what.substr(what.find(": ") + 2); // "parse error at line 1, column 37: " repeats the byte
        error = "not JSON at byte " + std::to_string(position) + ": " + what;
        return false;
    }

private:
    std::vector<Frame> frames_;
    EventFields event_;
    std::size_t events_ = 0;

    bool push(Role role, bool object) {
        if (frames_.size() >= static_cast<std::size_t>(kChromeTraceMaxDepth)) {
            error = "nested more than " + std::to_string(kChromeTraceMaxDepth) + " deep";
            return false;
        }
        frames_.push_back({role, object, {}});
        return true;
    }

    bool number(double v) {
        if (frames_.empty())
            return true;
        const Frame& f = frames_.back();
        if (f.role == Role::event) {
            if (f.key == "ts")
                event_.ts = v;
            else if (f.key == "dur")
                event_.dur = v;
        } else if (f.role == Role::args) {
            if (f.key == "Bytes")
                event_.bytes = v;
            else if (f.key == "Total Allocated")
                event_.allocated = v;
            else if (f.key == "Total Reserved")
                event_.reserved = v;
            else if (f.key == "Device Type")
                event_.deviceType = v;
            else if (f.key == "Device Id")
                event_.deviceId = v;
        } else if (f.role == Role::notModelled) {
            if (!std::isfinite(v) || v < 0) {
                error = "napkin_not_modelled \"" + f.key + "\" is not a byte count";
                return false;
            }
            if (notModelled.size() < 64)
                notModelled.push_back({f.key, v});
        }
        return true;
    }

    bool finishEvent() {
        const EventFields& e = event_;
        if (e.name == "[memory]") {
            if (!std::isfinite(e.bytes)) {
                error = "a [memory] event has no Bytes";
                return false;
            }
            if (!std::isfinite(e.ts)) {
                error = "a [memory] event has no ts";
                return false;
            }
            const auto whole = [](double v) {
                return std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e18;
            };
            if (!whole(e.bytes) || (!std::isnan(e.allocated) && (!whole(e.allocated) || e.allocated < 0)) ||
                (!std::isnan(e.reserved) && (!whole(e.reserved) || e.reserved < 0))) {
                error =
                    "a [memory] event's Bytes, Total Allocated or Total Reserved is not a whole byte count";
                return false;
            }
            const double type = std::isfinite(e.deviceType) ? e.deviceType : 0;
            const double id = std::isfinite(e.deviceId) ? e.deviceId : -1;
            if (type != std::floor(type) || id != std::floor(id) || std::fabs(type) > 1000 ||
                std::fabs(id) > 1e6) {
                error = "a [memory] event's Device Type or Device Id is not a small whole number";
                return false;
            }
            if (!count())
                return false;
            memory.push_back({e.ts, e.bytes, std::isnan(e.allocated) ? -1 : e.allocated,
                              std::isnan(e.reserved) ? -1 : e.reserved, static_cast<int>(type),
                              static_cast<int>(id), memory.size()});
            return true;
        }
        const bool profilerStep = startsWith(e.name, "ProfilerStep#");
        const bool named =
            e.cat == "user_annotation" ||
            (e.cat.empty() && e.name.find("::") == std::string::npos && !startsWith(e.name, "["));
        if (e.ph == "X" && (profilerStep || named) && !e.name.empty() && std::isfinite(e.ts) &&
            std::isfinite(e.dur) && e.dur >= 0) {
            if (!count())
                return false;
            ranges.push_back({e.name.substr(0, 200), e.ts, e.ts + e.dur, profilerStep});
        }
        return true;
    }

    bool count() {
        if (++events_ > kChromeTraceMaxEvents) {
            error = "more than " + std::to_string(kChromeTraceMaxEvents) + " memory events and ranges";
            return false;
        }
        return true;
    }
};

MeasuredDevice deviceOf(const MemoryEvent& e) {
    if (e.deviceType == 0)
        return {MeasuredDeviceType::cpu, -1};
    if (e.deviceType == 1)
        return {MeasuredDeviceType::cuda, e.deviceId};
    return {MeasuredDeviceType::other, e.deviceId};
}

// Labels each sample (sorted by time) with the outermost named range open at its time, ProfilerStep#N
// only where no other range is open: ranges nest in time, so one sweep with a stack of open ranges does.
void labelPhases(MeasuredTimeline& t, std::vector<const MemoryEvent*>& events,
                 const std::vector<Range>& ranges) {
    std::vector<std::size_t> order(ranges.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return ranges[a].start < ranges[b].start ||
               (ranges[a].start == ranges[b].start && ranges[a].end > ranges[b].end);
    });
    std::map<std::string, std::int32_t> phaseIndex;
    std::vector<std::size_t> open;
    std::size_t next = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const double ts = events[i]->ts;
        while (next < order.size() && ranges[order[next]].start <= ts) {
            while (!open.empty() && ranges[open.back()].end < ranges[order[next]].start)
                open.pop_back();
            open.push_back(order[next++]);
        }
        while (!open.empty() && ranges[open.back()].end < ts)
            open.pop_back();
        const Range* label = nullptr;
        for (std::size_t r : open) {
            if (ranges[r].end < ts)
                continue; // an outer range that closed while an inner one was still on the stack
            if (!ranges[r].profilerStep) {
                label = &ranges[r];
                break;
            }
            if (!label)
                label = &ranges[r];
        }
        if (!label)
            continue;
        auto [it, added] = phaseIndex.emplace(label->name, static_cast<std::int32_t>(t.phases.size()));
        if (added)
            t.phases.push_back({label->name, 0, 0});
        t.samples[i].phase = it->second;
    }
}

} // namespace

MeasuredRunRead readChromeTrace(std::string_view text, const std::string& label) {
    MeasuredRunRead r;
    TraceSax sax;
    bool parsed = false;
    try {
        parsed = Json::sax_parse(text.begin(), text.end(), &sax);
    } catch (const std::exception& e) { // nlohmann throws on what the SAX interface cannot report
        r.error = label + ": not a Chrome trace: " + e.what();
        return r;
    }
    if (!parsed || !sax.error.empty()) {
        r.error =
            label + ": not a Chrome trace: " + (sax.error.empty() ? std::string("unreadable") : sax.error);
        return r;
    }
    if (sax.memory.empty()) {
        r.error = label +
                  ": no memory events (\"[memory]\"): profile with profile_memory=True, or write the "
                  "trace with scripts/measure-run.py, which adds them where torch's export leaves them out";
        return r;
    }
    MeasuredRun& run = r.run;
    run.format = "torch.profiler Chrome trace";
    run.notModelled = std::move(sax.notModelled);
    run.setupCommand = std::move(sax.setupCommand);
    run.setupScenario = std::move(sax.setupScenario);
    run.hardwareProfile = std::move(sax.hardwareProfile);
    bool computed = false;
    // One timeline per device, in the order devices first appear.
    std::vector<MeasuredDevice> devices;
    std::vector<std::vector<const MemoryEvent*>> perDevice;
    for (const MemoryEvent& e : sax.memory) {
        const MeasuredDevice d = deviceOf(e);
        auto it = std::find(devices.begin(), devices.end(), d);
        if (it == devices.end()) {
            devices.push_back(d);
            perDevice.emplace_back();
            it = devices.end() - 1;
        }
        perDevice[static_cast<std::size_t>(it - devices.begin())].push_back(&e);
    }
    for (std::size_t d = 0; d < devices.size(); ++d) {
        std::vector<const MemoryEvent*>& events = perDevice[d];
        std::stable_sort(events.begin(), events.end(),
                         [](const MemoryEvent* a, const MemoryEvent* b) { return a->ts < b->ts; });
        MeasuredTimeline t;
        t.device = devices[d];
        t.samples.reserve(events.size());
        double running = 0;
        for (const MemoryEvent* e : events) {
            running += e->bytes;
            MeasuredSample s;
            s.timeUs = e->ts;
            s.deltaBytes = e->bytes;
            // The allocator's own total where the trace gives it; else the running sum of the events.
            s.allocatedBytes = e->allocated >= 0 ? e->allocated : running;
            computed = computed || e->allocated < 0;
            // The CPU allocator has no cache: the 0 a trace writes there is no reserved figure.
            s.reservedBytes = t.device.type == MeasuredDeviceType::cpu ? -1 : e->reserved;
            t.samples.push_back(s);
        }
        labelPhases(t, events, sax.ranges);
        finishTimeline(t);
        run.devices.push_back(std::move(t));
    }
    run.ranges.reserve(sax.ranges.size());
    for (const Range& range : sax.ranges)
        run.ranges.push_back({range.name, range.start, range.end});
    run.note = computed
                   ? "allocated: the running sum of the events' Bytes (the trace gives no Total Allocated)"
                   : "allocated: each event's Total Allocated, as the allocator reported it";
    return r;
}

} // namespace napkin
