// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The op-by-op step's events against torch's: each event of memoryTimeline() named as torch's profiler
// ranges were, and its bytes equal to the largest running sum torch's allocations reached inside it, to
// the byte (the figures in each test's rows come from tests/validation/check_memory_timeline.py).
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "tests/support/accounting_inputs.h"

#include <QtTest>

#include <algorithm>
#include <utility>
#include <vector>

namespace napkin::test {

/// Each event's name and torch's high-water mark inside it, in the step's order.
using TorchStepEvents = std::vector<std::pair<const char*, double>>;

/// QVERIFYs that `input`'s timeline has `measured`'s events, each at torch's bytes, and its peak (and the
/// searches' peakBytes) at the largest of them, wherever it falls.
inline void verifyEventsAreTorchs(const AccountingInput& input, const TorchStepEvents& measured) {
    const AccountingResult r = accountValid(input);
    const MemoryTimeline t = memoryTimeline(input, r);
    QCOMPARE(t.events.size(), measured.size());
    double largest = 0;
    for (std::size_t i = 0; i < measured.size(); ++i) {
        const std::string name = stepEventName(t.events[i].event);
        QCOMPARE(QString::fromStdString(name), QString::fromUtf8(measured[i].first));
        QVERIFY2(t.events[i].bytes.total() == measured[i].second,
                 qPrintable(QStringLiteral("%1: napkin %2 B, torch %3 B")
                                .arg(QString::fromStdString(name))
                                .arg(t.events[i].bytes.total(), 0, 'f', 0)
                                .arg(measured[i].second, 0, 'f', 0)));
        largest = std::max(largest, measured[i].second);
    }
    QVERIFY2(t.peakBytes == largest, qPrintable(QStringLiteral("peak %1, torch %2").arg(t.peakBytes).arg(largest)));
    const double probe = memoryTimelinePeakBytes(input, r);
    QVERIFY2(probe == largest, qPrintable(QStringLiteral("peakBytes %1, torch %2").arg(probe).arg(largest)));
}

} // namespace napkin::test
