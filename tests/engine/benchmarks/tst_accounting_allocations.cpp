// SPDX-License-Identifier: GPL-3.0-or-later
// The heap allocations one account() makes, counted (as tst_accounting_work counts its evaluations and
// spelled numbers): allocation and free were a fifth of a recompute's time, and most of them were
// formulas built with +, regrowing their string piece by piece. Joined with concat() (text_concat.h) each
// formula allocates once; a formula written back with + chains, or a formula spelled and thrown away,
// raises the count past its budget on every machine, where the timed 20 µs would pass or fail with the
// load. This binary replaces the global operator new to count this thread's allocations.
#include "engine/accounting/accounting.h"
#include "engine/accounting/setup_presets.h"
#include "engine/benchmarks/accounting_benchmark.h"
#include "engine/text/text_concat.h"

#include <QTest>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

thread_local std::int64_t t_allocations = 0;

// Every form of new and delete goes through malloc and free, so that the sanitizers see one pair.
void* allocate(std::size_t size, std::size_t alignment = 0) {
    ++t_allocations;
    if (size == 0)
        size = 1;
    if (alignment > alignof(std::max_align_t))
        return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    return std::malloc(size);
}

void* allocateOrThrow(std::size_t size, std::size_t alignment = 0) {
    if (void* p = allocate(size, alignment))
        return p;
    throw std::bad_alloc();
}

} // namespace

void* operator new(std::size_t size) {
    return allocateOrThrow(size);
}
void* operator new[](std::size_t size) {
    return allocateOrThrow(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    return allocate(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    return allocate(size);
}
void* operator new(std::size_t size, std::align_val_t a) {
    return allocateOrThrow(size, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t size, std::align_val_t a) {
    return allocateOrThrow(size, static_cast<std::size_t>(a));
}
void* operator new(std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate(size, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate(size, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
    std::free(p);
}

using namespace napkin;

class TestAccountingAllocations : public QObject {
    Q_OBJECT
private slots:
    void theCounterCountsThisThreadsAllocations();
    void concatAllocatesOnce();
    void oneRecomputeStaysWithinItsAllocations_data();
    void oneRecomputeStaysWithinItsAllocations();
};

namespace {

AccountingInput setupInput(const QString& id) {
    const std::optional<AccountingBenchmarkSetup> setup = accountingBenchmarkSetup(id.toStdString());
    if (!setup)
        qFatal("unknown setup %s", qPrintable(id));
    return setup->input;
}

// The fewest allocations of one account() over a few calls, once its caches (the activation ledgers,
// the spelled numbers) are warm.
std::int64_t allocationsOfOneAccount(const AccountingInput& in) {
    const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
    double sink = account(in, gpu).memory.total.value;
    std::int64_t fewest = -1;
    for (int i = 0; i < 3; ++i) {
        const std::int64_t before = t_allocations;
        sink += account(in, gpu).memory.total.value;
        const std::int64_t made = t_allocations - before;
        fewest = fewest < 0 ? made : std::min(fewest, made);
    }
    if (sink < 0) // never: keeps the calls
        return -1;
    return fewest;
}

} // namespace

void TestAccountingAllocations::theCounterCountsThisThreadsAllocations() {
    const std::int64_t before = t_allocations;
    auto* one = new std::string(100, 'x'); // the string object, then its 100 characters
    delete one;
    QCOMPARE(t_allocations - before, 2);
}

void TestAccountingAllocations::concatAllocatesOnce() {
    const std::string number(40, '7'); // longer than the short-string buffer, as most formulas are
    const std::int64_t before = t_allocations;
    const std::string joined =
        concat({"peak ", number, " B at backward layer 12 + overheads ", number, " B"});
    QCOMPARE(t_allocations - before, 1);
    std::string grown = "gradient reduce-scatter: ";
    const std::int64_t beforeAppend = t_allocations;
    concatTo(grown, {number, " B; / ", number, " B/s = ", number, " s"});
    QCOMPARE(t_allocations - beforeAppend, 1);
    QCOMPARE(joined, "peak " + number + " B at backward layer 12 + overheads " + number + " B");
    QCOMPARE(grown, "gradient reduce-scatter: " + number + " B; / " + number + " B/s = " + number + " s");
}

// Budgets with a little room over what each setup allocates today (the comment: today's fewest over three
// warm calls, then the mean per call under callgrind when the formulas were joined with +). Putting the
// communication ledger's formulas back to + alone adds 11 to GPT-2 small's count and 12 to GPT-3's.
void TestAccountingAllocations::oneRecomputeStaysWithinItsAllocations_data() {
    QTest::addColumn<QString>("setup");
    QTest::addColumn<int>("maxAllocations");
    QTest::newRow("gpt2-small") << "gpt2-small" << 176;                     // 169; 270 before
    QTest::newRow("deepseek-v3") << "deepseek-v3" << 290;                   // 278; 371 before
    QTest::newRow("gpt3-175b") << "gpt3-175b" << 172;                       // 164; 272 before
    QTest::newRow("llama3-70b") << "llama3-70b" << 275;                     // 263; 410 before
    QTest::newRow("llama3-8b-qlora-24gb") << "llama3-8b-qlora-24gb" << 770; // 740; 820 before
}

void TestAccountingAllocations::oneRecomputeStaysWithinItsAllocations() {
    QFETCH(QString, setup);
    QFETCH(int, maxAllocations);
    const std::int64_t made = allocationsOfOneAccount(setupInput(setup));
    qInfo("%s: %lld allocations", qPrintable(setup), static_cast<long long>(made));
    QVERIFY2(made <= maxAllocations, qPrintable(QStringLiteral("%1 allocations").arg(made)));
}

QTEST_GUILESS_MAIN(TestAccountingAllocations)
#include "tst_accounting_allocations.moc"
