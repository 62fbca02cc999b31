// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/memory_timeline_data.h"

#include <algorithm>

double MeasuredRunCurve::peakAllocated() const {
    return allocated.isEmpty() ? 0.0 : *std::max_element(allocated.begin(), allocated.end());
}

double MemoryTimelineChartData::totalAt(int event) const {
    double total = 0;
    if (event >= 0 && event < bytes.size())
        for (double b : bytes[event])
            total += b;
    return total;
}

int MemoryTimelineChartData::peakIndex() const {
    int peak = -1;
    for (int i = 0; i < events.size(); ++i)
        if (peak < 0 || totalAt(i) > totalAt(peak))
            peak = i;
    return peak;
}

double MemoryTimelineChartData::sumBytes() const {
    double total = 0;
    for (double b : sum)
        total += b;
    return total;
}

QVector<int> timelineEventsToDraw(const MemoryTimelineChartData& data, int most) {
    const int n = static_cast<int>(data.events.size());
    QVector<int> drawn;
    if (n <= most) {
        for (int i = 0; i < n; ++i)
            drawn.push_back(i);
        return drawn;
    }
    const int run = (n + most - 1) / most;
    for (int from = 0; from < n; from += run) {
        int best = from;
        for (int i = from + 1; i < std::min(n, from + run); ++i)
            if (data.totalAt(i) > data.totalAt(best))
                best = i;
        drawn.push_back(best);
    }
    if (drawn.front() != 0)
        drawn.prepend(0);
    if (drawn.back() != n - 1)
        drawn.push_back(n - 1);
    return drawn;
}
