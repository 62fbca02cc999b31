// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hardware/cpu_facts.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

namespace napkin {
namespace {

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t");
    const auto last = s.find_last_not_of(" \t\r");
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

bool hasFlag(const std::string& flags, const std::string& flag) {
    std::istringstream words(flags);
    std::string word;
    while (words >> word)
        if (word == flag)
            return true;
    return false;
}

std::string formatNumber(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

} // namespace

CpuFacts parseCpuFacts(std::string_view cpuinfo, std::optional<double> cpufreqMaxKhz) {
    CpuFacts f;
    std::istringstream lines{std::string(cpuinfo)};
    std::string line, flags, physicalId = "0";
    std::set<std::pair<std::string, std::string>> cores;
    while (std::getline(lines, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
        if (key == "processor")
            ++f.logicalCpus;
        else if (key == "model name" && f.modelName.empty())
            f.modelName = value;
        else if (key == "flags" && flags.empty())
            flags = value;
        else if (key == "physical id")
            physicalId = value;
        else if (key == "core id")
            cores.emplace(physicalId, value);
    }
    f.physicalCores = cores.empty() ? f.logicalCpus : static_cast<int>(cores.size());
    f.sse2 = hasFlag(flags, "sse2");
    f.avx = hasFlag(flags, "avx");
    f.avx2 = hasFlag(flags, "avx2");
    f.fma = hasFlag(flags, "fma");
    f.avx512f = hasFlag(flags, "avx512f");
    std::smatch match;
    static const std::regex ghz(R"(@\s*([0-9]+(\.[0-9]+)?)\s*GHz)");
    if (cpufreqMaxKhz && *cpufreqMaxKhz > 0) {
        f.maxClockHz = *cpufreqMaxKhz * 1e3;
        f.clockSource = "cpufreq cpuinfo_max_freq";
    } else if (std::regex_search(f.modelName, match, ghz)) {
        f.maxClockHz = std::stod(match[1].str()) * 1e9;
        f.clockSource = "model name";
    } else {
        f.clockSource = "unknown: no cpufreq cpuinfo_max_freq and no \"@ x GHz\" in the model name";
    }
    return f;
}

CpuFacts readCpuFacts() {
    std::ifstream info("/proc/cpuinfo");
    std::stringstream text;
    text << info.rdbuf();
    std::optional<double> khz;
    std::ifstream freq("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    double value = 0;
    if (freq >> value)
        khz = value;
    CpuFacts f = parseCpuFacts(text.str(), khz);
    if (f.physicalCores <= 0)
        f.physicalCores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (f.logicalCpus <= 0)
        f.logicalCpus = f.physicalCores;
    if (f.modelName.empty())
        f.modelName = "unknown CPU";
    return f;
}

int fp32Lanes(const CpuFacts& f) {
    return f.avx512f ? 16 : (f.avx || f.avx2) ? 8 : 4;
}

std::string simdName(const CpuFacts& f) {
    if (f.avx512f)
        return f.fma ? "avx512f+fma" : "avx512f";
    if (f.avx2)
        return f.fma ? "avx2+fma" : "avx2";
    if (f.avx)
        return "avx";
    return "sse2";
}

SpecPeak specFp32Peak(const CpuFacts& f) {
    SpecPeak p;
    const int fmaUnits = f.fma ? 2 : 1;
    if (!f.maxClockHz) {
        p.formula = "unknown (" + f.clockSource + ")";
        return p;
    }
    const double lanes = fp32Lanes(f);
    p.flopsPerSecond = f.physicalCores * lanes * fmaUnits * 2.0 * *f.maxClockHz;
    p.formula = std::to_string(f.physicalCores) + " cores × " + formatNumber(lanes) + " fp32 lanes × " +
                std::to_string(fmaUnits) + " FMA units × 2 × " + formatNumber(*f.maxClockHz / 1e9) +
                " GHz (" + f.clockSource + ") = " + formatNumber(*p.flopsPerSecond) + " FLOP/s";
    return p;
}

} // namespace napkin
