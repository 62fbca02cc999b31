// SPDX-License-Identifier: GPL-3.0-or-later
// PyTorch's caching allocator simulated, rule by rule. Every expected layout is worked by hand from
// c10/cuda/CUDACachingAllocator.cpp (pytorch/pytorch at 001074d25084fdb87a799823e395a50f5ec044d3), the function
// named in each row's comment. Layouts: one segment per word group, "S" small pool, "L" large pool, "E" an
// expandable segment's mapped range, its size, then its blocks in address order, "a" allocated, "f" free.
// Events: "a<id>:<bytes>" allocate, "f<id>" free, "e" empty_cache(). MiB = 1048576.
#include "engine/allocator/allocator_config.h"
#include "engine/allocator/caching_allocator_simulation.h"
#include "engine/io/bounded_file_read.h"
#include "engine/measured/memory_snapshot_reader.h"
#include "engine/numerics/work_counts.h"

#include <QTest>

#include <algorithm>

using namespace napkin;

namespace {

constexpr std::uint64_t MiB = 1048576;

std::vector<AllocatorEvent> eventsFrom(const QString& text) {
    std::vector<AllocatorEvent> events;
    for (const QString& word : text.split(' ', Qt::SkipEmptyParts)) {
        if (word == "e") {
            events.push_back({AllocatorAction::emptyCache, 0, 0});
        } else if (word.startsWith('a')) {
            const QStringList parts = word.mid(1).split(':');
            events.push_back({AllocatorAction::allocate, parts[0].toULongLong(), parts[1].toULongLong()});
        } else {
            events.push_back({AllocatorAction::free, word.mid(1).toULongLong(), 0});
        }
    }
    return events;
}

QString layoutText(const std::vector<AllocatorSegment>& segments) {
    QStringList words;
    for (const AllocatorSegment& s : segments) {
        QString w = QString(s.large ? "L" : "S") + (s.expandable ? "E" : "") + QString::number(s.sizeBytes) + "[";
        QStringList blocks;
        for (const AllocatorBlock& b : s.blocks)
            blocks << QString::number(b.sizeBytes) + (b.allocated ? "a" : "f");
        words << w + blocks.join(' ') + "]";
    }
    return words.join(' ');
}

} // namespace

class TestCachingAllocatorSimulation : public QObject {
    Q_OBJECT
private slots:
    void layouts_data() {
        QTest::addColumn<QString>("conf");
        QTest::addColumn<qulonglong>("capacity");
        QTest::addColumn<QString>("events");
        QTest::addColumn<QString>("layout");
        QTest::addColumn<qulonglong>("reserved");
        QTest::addColumn<qulonglong>("allocated");
        // round_size(): below 512 B, 512; else a multiple of 512. get_pool(): ≤ 1 MiB is the small pool;
        // get_allocation_size(): a small segment is 2 MiB. should_split() (small pool): any remainder ≥ 512.
        QTest::newRow("512-byte rounding, small segment")
            << "" << 0ull << "a1:1 a2:513" << "S2097152[512a 1024a 2095616f]" << 2097152ull << 1536ull;
        // kSmallSize = 1 MiB exactly is small: the segment's other half stays free.
        QTest::newRow("1 MiB is small") << "" << 0ull << "a1:1048576" << "S2097152[1048576a 1048576f]"
                                        << 2097152ull << 1048576ull;
        // should_split() in the small pool: a remainder of exactly kMinBlockSize (512) is split off, and a
        // 512-byte request then takes it (best fit).
        QTest::newRow("small remainder of 512 split")
            << "" << 0ull << "a1:1048576 a2:1048064 a3:512" << "S2097152[1048576a 1048064a 512a]" << 2097152ull
            << 2097152ull;
        // 1 MiB + 1 rounds to 1049088: large pool; below kMinLargeAlloc (10 MiB) the segment is kLargeBuffer
        // (20 MiB); the remainder 19922432 > kSmallSize is split off.
        QTest::newRow("1 MiB + 1 is large: a 20 MiB segment")
            << "" << 0ull << "a1:1048577" << "L20971520[1049088a 19922432f]" << 20971520ull << 1049088ull;
        // 10 MiB is not below kMinLargeAlloc: its own segment, rounded to kRoundLarge (2 MiB): 10 MiB, no rest.
        QTest::newRow("10 MiB: a segment of its own") << "" << 0ull << "a1:10485760" << "L10485760[10485760a]"
                                                      << 10485760ull << 10485760ull;
        // 10 MiB + 1 → 10486272 → a 12 MiB segment; remainder 2096640 > 1 MiB: split.
        QTest::newRow("10 MiB + 1: 12 MiB segment, split")
            << "" << 0ull << "a1:10485761" << "L12582912[10486272a 2096640f]" << 12582912ull << 10486272ull;
        // should_split() (large pool): a remainder of exactly 1 MiB is not > kSmallSize, so the block keeps the
        // whole 12 MiB segment, and memory_allocated() counts all of it.
        QTest::newRow("large remainder of 1 MiB not split")
            << "" << 0ull << "a1:11534336" << "L12582912[12582912a]" << 12582912ull << 12582912ull;
        // get_free_block(): best fit by size. 4 MiB, 4 MiB, 2 MiB split a 20 MiB segment; freeing the first
        // leaves free blocks of 4 and 10 MiB; 3 MiB takes the 4 MiB one whole (its remainder, 1 MiB, is not
        // split off).
        QTest::newRow("best fit by size")
            << "" << 0ull << "a1:4194304 a2:4194304 a3:2097152 f1 a4:3145728"
            << "L20971520[4194304a 4194304a 2097152a 10485760f]" << 20971520ull << 10485760ull;
        // BlockComparatorSize: equal sizes by address; the segment made first (lower address here) is taken.
        QTest::newRow("equal sizes by address")
            << "" << 0ull << "a1:12582912 a2:12582912 f2 f1 a3:12582912"
            << "L12582912[12582912a] L12582912[12582912f]" << 25165824ull << 12582912ull;
        // free_block() → try_merge_blocks(): a freed block absorbs free neighbours on both sides; the segment
        // is kept (reserved does not fall).
        QTest::newRow("coalescing on free")
            << "" << 0ull << "a1:4194304 a2:4194304 a3:2097152 f2 f3" << "L20971520[4194304a 16777216f]"
            << 20971520ull << 4194304ull;
        QTest::newRow("coalescing to a whole segment")
            << "" << 0ull << "a1:4194304 a2:4194304 a3:2097152 f2 f3 f1" << "L20971520[20971520f]" << 20971520ull
            << 0ull;
        // Without max_split_size a free 40 MiB block serves 30 MiB and is split (remainder 10 MiB).
        QTest::newRow("no max_split_size: big block split")
            << "" << 0ull << "a1:41943040 f1 a2:31457280" << "L41943040[31457280a 10485760f]" << 41943040ull
            << 31457280ull;
        // get_free_block(): "Do not return an oversized block for a large request": 30 MiB < max_split
        // (32 MiB) cannot take the free 40 MiB block: a new segment.
        QTest::newRow("max_split_size: oversize block not taken")
            << "max_split_size_mb:32" << 0ull << "a1:41943040 f1 a2:31457280"
            << "L41943040[41943040f] L31457280[31457280a]" << 73400320ull << 31457280ull;
        // A request ≥ max_split takes an oversize block under size + kLargeBuffer (36 + 20 > 40), whole:
        // should_split() refuses a request ≥ max_split.
        QTest::newRow("max_split_size: oversize within 20 MiB, not split")
            << "max_split_size_mb:32" << 0ull << "a1:41943040 f1 a2:37748736" << "L41943040[41943040a]"
            << 41943040ull << 41943040ull;
        // …but not one of size + kLargeBuffer or more (64 ≥ 40 + 20): a new 40 MiB segment.
        QTest::newRow("max_split_size: oversize beyond 20 MiB")
            << "max_split_size_mb:32" << 0ull << "a1:67108864 f1 a2:41943040"
            << "L67108864[67108864f] L41943040[41943040a]" << 109051904ull << 41943040ull;
        // malloc(): cudaMalloc of 40 MiB fails under a 100 MiB capacity (64 held); release_available_cached_
        // blocks() frees the smallest oversize block ≥ 40 MiB (the 64 MiB one) and the retry succeeds.
        QTest::newRow("out of memory: oversize block released")
            << "max_split_size_mb:32" << 104857600ull << "a1:67108864 f1 a2:41943040" << "L41943040[41943040a]"
            << 41943040ull << 41943040ull;
        // Without max_split_size that step does nothing; release_cached_blocks() frees every unsplit cached
        // segment (the free 12 MiB) before the retry.
        QTest::newRow("out of memory: cache emptied")
            << "" << 26214400ull << "a1:12582912 f1 a2:14680064" << "L14680064[14680064a]" << 14680064ull
            << 14680064ull;
        // emptyCache() → release_cached_blocks(): unsplit free segments are freed (the 12 MiB one, and the
        // 20 MiB one whose blocks merged back into one); a segment with a live block stays.
        QTest::newRow("empty_cache")
            << "" << 0ull << "a1:1000 a2:4194304 a3:12582912 f3 f2 e" << "S2097152[1024a 2096128f]" << 2097152ull
            << 1024ull;
        QTest::newRow("empty_cache keeps a split segment")
            << "" << 0ull << "a1:4194304 a2:4194304 f1 e" << "L20971520[4194304f 4194304a 12582912f]"
            << 20971520ull << 4194304ull;
        // roundup_power2_divisions:4 — round_size(): 5000 > 512·4, so roundup_power2_next_division(5000, 4):
        // between 4096 and 8192 in steps of 1024: 5120. 1200 is not above 2048: 512-rounded to 1536.
        QTest::newRow("roundup_power2_divisions small")
            << "roundup_power2_divisions:4" << 0ull << "a1:5000 a2:1200" << "S2097152[5120a 1536a 2090496f]"
            << 2097152ull << 6656ull;
        // 1.5 MiB + 1 lies between 1 and 2 MiB, steps of 256 KiB: 1835008; a power of two stays as it is.
        QTest::newRow("roundup_power2_divisions large")
            << "roundup_power2_divisions:4" << 0ull << "a1:1572865 a2:4194304"
            << "L20971520[1835008a 4194304a 14942208f]" << 20971520ull << 6029312ull;
        // expandable_segments: try_allocate_expandable_block() maps 20 MiB pages of the large pool's one
        // segment; should_split() splits any remainder ≥ 512. 30 MiB then grows the free tail (16 MiB) by
        // one more page (map_block merges it): one 40 MiB mapped range, where cudaMalloc would hold 50 MiB.
        QTest::newRow("expandable: one growing segment")
            << "expandable_segments:True" << 0ull << "a1:4194304 a2:31457280"
            << "LE41943040[4194304a 31457280a 6291456f]" << 41943040ull << 35651584ull;
        QTest::newRow("same without expandable segments")
            << "" << 0ull << "a1:4194304 a2:31457280" << "L20971520[4194304a 16777216f] L31457280[31457280a]"
            << 52428800ull << 35651584ull;
        // The small pool's expandable segment maps 2 MiB pages.
        QTest::newRow("expandable: small pool pages")
            << "expandable_segments:True" << 0ull << "a1:1000" << "SE2097152[1024a 2096128f]" << 2097152ull
            << 1024ull;
        // release_blocks() → unmap_block(): the whole pages inside a free block are unmapped; the free block
        // [4 MiB, 40 MiB) keeps [4, 20) mapped and gives back the page [20, 40).
        QTest::newRow("expandable: empty_cache unmaps whole pages")
            << "expandable_segments:True" << 0ull << "a1:4194304 a2:31457280 f2 e"
            << "LE20971520[4194304a 16777216f]" << 20971520ull << 4194304ull;
        // A request of 0 bytes allocates nothing, and its free is a no-op.
        QTest::newRow("zero bytes") << "" << 0ull << "a1:0 f1" << "" << 0ull << 0ull;
    }
    void layouts() {
        QFETCH(QString, conf);
        QFETCH(qulonglong, capacity);
        QFETCH(QString, events);
        QFETCH(QString, layout);
        QFETCH(qulonglong, reserved);
        QFETCH(qulonglong, allocated);
        const AllocatorConfigParse c = parseAllocatorConfig(conf.toStdString());
        QVERIFY2(c.config, c.error.c_str());
        const AllocatorReplay r = replayAllocator(eventsFrom(events), *c.config, capacity);
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(layoutText(r.segments), layout);
        QCOMPARE(r.reservedBytes.empty() ? 0 : r.reservedBytes.back(), std::uint64_t{reserved});
        QCOMPARE(r.allocatedBytes.empty() ? 0 : r.allocatedBytes.back(), std::uint64_t{allocated});
    }

    // The peaks follow the events: 12 MiB then 14 MiB in their own segments, the first freed in between.
    void peaks() {
        const AllocatorReplay r = replayAllocator(eventsFrom("a1:12582912 f1 a2:14680064"));
        QCOMPARE(r.peakReservedBytes, 27262976ull);
        QCOMPARE(r.peakAllocatedBytes, 14680064ull);
        QCOMPARE(r.reservedBytes, (std::vector<std::uint64_t>{12582912, 12582912, 27262976}));
    }

    void refusals_data() {
        QTest::addColumn<QString>("conf");
        QTest::addColumn<QString>("events");
        QTest::addColumn<qulonglong>("capacity");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown id") << "" << "a1:512 f7" << 0ull << "event 2: allocation 7 is not live";
        QTest::newRow("live id") << "" << "a1:512 a1:512" << 0ull << "event 2: allocation 1 is already live";
        // 8 MiB held in a 20 MiB segment, which cannot be released; 12 MiB + 1 (12583424) does not fit its
        // free 12 MiB, and a 14 MiB segment would pass 30 MiB.
        QTest::newRow("out of memory") << "" << "a1:8388608 a2:12582913" << 31457280ull
                                       << "event 2: out of memory: 12583424 B with 20971520 B reserved of "
                                          "31457280 B";
        // An expandable segment's address space is 1 1/8 of the device's memory (find_expandable_block()):
        // 10 MiB of memory give one 20 MiB page of room, not 30 MiB.
        QTest::newRow("expandable: beyond the address space")
            << "expandable_segments:True" << "a1:31457280" << 10485760ull
            << "event 1: out of memory: 31457280 B with 0 B reserved of 10485760 B";
        QTest::newRow("beyond a terabyte") << "" << "a1:1099511627777" << 0ull
                                           << "event 1: a request of 1099511627777 B: above the 1099511627776 B "
                                              "the simulation takes";
    }
    void refusals() {
        QFETCH(QString, conf);
        QFETCH(QString, events);
        QFETCH(qulonglong, capacity);
        QFETCH(QString, error);
        const AllocatorReplay r = replayAllocator(eventsFrom(events), *parseAllocatorConfig(conf.toStdString()).config,
                                                  capacity);
        QCOMPARE(QString::fromStdString(r.error), error);
    }

    // An enormous list is refused before any work; a long one costs one counted call per event.
    void bounded() {
        const std::vector<AllocatorEvent> huge(kAllocatorMaxEvents + 1, {AllocatorAction::allocate, 1, 512});
        const WorkCounter counter;
        QVERIFY(!replayAllocator(huge).error.empty());
        QCOMPARE(counter.counted().allocatorEvents, 0);
        std::vector<AllocatorEvent> many;
        for (std::uint64_t i = 0; i < 1000; ++i)
            many.push_back({AllocatorAction::allocate, i, 512 * (i + 1)});
        const WorkCounter counted;
        QVERIFY(replayAllocator(many).error.empty());
        QCOMPARE(counted.counted().allocatorEvents, 1000);
    }

    // A snapshot's history replayed: each alloc its request, each free the newest live block of its size;
    // memory_reserved() after every one of them is the snapshot's (data/make_snapshot.py: hand-built from
    // the rules until a GPU is lent; the reader, engine/measured, is the app's).
    void snapshotReplay() {
        const BoundedFileRead file =
            readBoundedFile(std::string(NAPKIN_ALLOCATOR_DATA) + "/allocator_rules.pickle", 1 << 20);
        QVERIFY2(file.ok(), file.error.c_str());
        const MeasuredRunRead read = readMemorySnapshot(file.bytes, "allocator_rules.pickle");
        QVERIFY2(read.ok(), read.error.c_str());
        QCOMPARE(read.run.devices.size(), std::size_t{1});
        std::vector<AllocatorEvent> events;
        std::vector<double> measured;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> live; // id, bytes
        std::uint64_t id = 0;
        for (const MeasuredSample& sample : read.run.devices[0].samples) {
            if (sample.deltaBytes > 0) {
                live.emplace_back(++id, static_cast<std::uint64_t>(sample.deltaBytes));
                events.push_back({AllocatorAction::allocate, id, live.back().second});
            } else if (sample.deltaBytes < 0) {
                const auto bytes = static_cast<std::uint64_t>(-sample.deltaBytes);
                auto it = std::find_if(live.rbegin(), live.rend(), [&](const auto& l) { return l.second == bytes; });
                QVERIFY(it != live.rend());
                events.push_back({AllocatorAction::free, it->first, 0});
                live.erase(std::next(it).base());
            } else {
                continue; // a segment's own entry
            }
            measured.push_back(sample.reservedBytes);
        }
        QCOMPARE(events.size(), std::size_t{8});
        const AllocatorReplay r = replayAllocator(events);
        QVERIFY2(r.error.empty(), r.error.c_str());
        for (std::size_t i = 0; i < events.size(); ++i)
            QCOMPARE(static_cast<double>(r.reservedBytes[i]), measured[i]);
        QCOMPARE(r.peakReservedBytes, std::uint64_t{38 * MiB});
        // the snapshot's segments, as make_snapshot.py lists them
        QCOMPARE(layoutText(r.segments), QString("L20971520[4194304a 2097152a 14680064f] L16777216[16777216a] "
                                                 "S2097152[1024a 2096128f]"));
    }

    // Seeded random sequences under each setting, checked against what must hold after every call: the
    // segments add up to memory_reserved() and their allocated blocks to memory_allocated(), each segment's
    // blocks to its size, no two free blocks sit side by side in a segment (free_block() and map_block() merge
    // them; an expandable segment's mapped ranges are listed apart), and a capacity is never passed.
    void invariantsHoldOnRandomSequences_data() {
        QTest::addColumn<QString>("conf");
        QTest::addColumn<qulonglong>("capacity");
        QTest::newRow("defaults") << "" << 0ull;
        QTest::newRow("max_split_size") << "max_split_size_mb:24" << 0ull;
        QTest::newRow("divisions") << "roundup_power2_divisions:8" << 0ull;
        QTest::newRow("expandable") << "expandable_segments:True" << 0ull;
        QTest::newRow("near capacity") << "max_split_size_mb:24" << 200ull * MiB;
        QTest::newRow("expandable near capacity") << "expandable_segments:True" << 200ull * MiB;
    }
    void invariantsHoldOnRandomSequences() {
        QFETCH(QString, conf);
        QFETCH(qulonglong, capacity);
        CachingAllocatorSimulation sim(*parseAllocatorConfig(conf.toStdString()).config, capacity);
        std::uint64_t state = 12345;
        const auto next = [&state] { // a 64-bit LCG (Knuth's MMIX constants): the same sequence everywhere
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            return state >> 33;
        };
        std::vector<std::uint64_t> live;
        std::uint64_t id = 0;
        for (int step = 0; step < 3000; ++step) {
            const std::uint64_t r = next() % 100;
            if (r < 2) {
                sim.emptyCache();
            } else if (r < 45 && !live.empty()) {
                const std::size_t k = next() % live.size();
                QCOMPARE(QString::fromStdString(sim.free(live[k])), QString());
                live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
            } else {
                // sizes from 1 B to 48 MiB, most of them small, as a step's tensors are
                const std::uint64_t shift = next() % 26;
                const std::uint64_t bytes = 1 + next() % (1ull << shift);
                const std::string error = sim.allocate(++id, bytes);
                if (error.empty())
                    live.push_back(id);
                else
                    QVERIFY2(capacity > 0 && error.rfind("out of memory", 0) == 0, error.c_str());
            }
            std::uint64_t reserved = 0, allocated = 0;
            for (const AllocatorSegment& seg : sim.segments()) {
                std::uint64_t sum = 0;
                bool previousFree = false;
                for (const AllocatorBlock& b : seg.blocks) {
                    sum += b.sizeBytes;
                    allocated += b.allocated ? b.sizeBytes : 0;
                    QVERIFY2(b.allocated || !previousFree, qPrintable(QString("step %1: two free blocks").arg(step)));
                    previousFree = !b.allocated;
                }
                QCOMPARE(sum, seg.sizeBytes);
                reserved += seg.sizeBytes;
            }
            QCOMPARE(reserved, sim.reservedBytes());
            QCOMPARE(allocated, sim.allocatedBytes());
            QVERIFY(sim.reservedBytes() >= sim.allocatedBytes());
            QVERIFY(capacity == 0 || sim.reservedBytes() <= capacity);
            QVERIFY(sim.peakReservedBytes() >= sim.reservedBytes());
        }
    }

    void configs_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical"); // allocatorConfigText() of the parse, or the error
        QTest::newRow("defaults") << "" << "";
        QTest::newRow("all three") << "expandable_segments:True,max_split_size_mb:128,roundup_power2_divisions:4"
                                   << "expandable_segments:True,max_split_size_mb:128,roundup_power2_divisions:4";
        QTest::newRow("spaces") << " max_split_size_mb : 20 , expandable_segments:False"
                                << "max_split_size_mb:20";
        // AcceleratorAllocatorConfig::parseMaxSplitSize: "must be >= 20" (kLargeBuffer / kMB)
        QTest::newRow("split too small")
            << "max_split_size_mb:19" << "error: max_split_size_mb: must be at least 20 (PyTorch refuses a smaller "
                                         "one), got 19";
        QTest::newRow("split not a number")
            << "max_split_size_mb:big" << "error: max_split_size_mb: must be a whole number of MiB, got 'big'";
        QTest::newRow("divisions not a power of two")
            << "roundup_power2_divisions:3" << "error: roundup_power2_divisions: must be a power of two, got '3'";
        QTest::newRow("divisions list")
            << "roundup_power2_divisions:[256:1,>:4]"
            << "error: roundup_power2_divisions: the per-size list form is not simulated; give one number";
        QTest::newRow("bool") << "expandable_segments:yes"
                              << "error: expandable_segments: must be True or False, got 'yes'";
        QTest::newRow("unknown") << "max_split:3"
                                 << "error: 'max_split': unknown key (expandable_segments, max_split_size_mb, "
                                    "roundup_power2_divisions)";
        QTest::newRow("not simulated")
            << "garbage_collection_threshold:0.6"
            << "error: garbage_collection_threshold: not simulated (expandable_segments, max_split_size_mb and "
               "roundup_power2_divisions are)";
        QTest::newRow("no colon") << "expandable_segments" << "error: 'expandable_segments': expected key:value, "
                                                               "e.g. expandable_segments:True";
        QTest::newRow("twice") << "max_split_size_mb:30,max_split_size_mb:40"
                               << "error: max_split_size_mb: given twice";
    }
    void configs() {
        QFETCH(QString, text);
        QFETCH(QString, canonical);
        const AllocatorConfigParse c = parseAllocatorConfig(text.toStdString());
        const std::string got = c.config ? allocatorConfigText(*c.config) : "error: " + c.error;
        QCOMPARE(QString::fromStdString(got), canonical);
    }
};

QTEST_APPLESS_MAIN(TestCachingAllocatorSimulation)
#include "tst_caching_allocator_simulation.moc"
