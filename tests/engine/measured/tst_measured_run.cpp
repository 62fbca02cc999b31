// SPDX-License-Identifier: GPL-3.0-or-later
// The measured-run readers: torch.profiler's Chrome trace and the CUDA memory snapshot as timelines of the
// allocator's bytes, what each refuses with one line (code in a pickle, a cut or deep file, a memo bomb,
// no memory events, another device), and the comparison with a predicted step.
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/io/bounded_file_read.h"
#include "engine/measured/chrome_trace_reader.h"
#include "engine/measured/measured_comparison.h"
#include "engine/measured/measured_overheads.h"
#include "engine/measured/measured_timeline.h"
#include "engine/measured/memory_snapshot_reader.h"
#include "engine/measured/pickle_data.h"

#include <QTest>

using namespace napkin;

namespace {

std::string dataFile(const char* name) {
    const BoundedFileRead r = readBoundedFile(std::string(NAPKIN_MEASURED_DATA) + "/" + name, 1 << 20);
    if (!r.ok())
        qFatal("%s", r.error.c_str());
    return r.bytes;
}

// The setup data/cpu_trace_gpt2_one_layer.json was made with (scripts/measure-run.py --device cpu, torch
// 1.13): --model transformer --d-model 24 --heads 2 --layers 1 --vocab 17 --seq 5 --ffn-dim 40 --batch 2
// --bias on --embeddings tied --dropout off --precision fp32 --optimizer adamw --recompute none
// --attention causal --activations-of pytorch-eager (torch.optim single-tensor, the CPU's default);
// `dModel` other than 24 is another setup.
AccountingInput gpt2OneLayer(double dModel = 24) {
    AccountingInput in;
    in.optimizerImplementation = OptimizerImplementation::singleTensor;
    in.model.kind = ModelKind::transformer;
    in.model.dModel = dModel;
    in.model.heads = 2;
    in.model.layers = 1;
    in.model.vocab = 17;
    in.model.seq = 5;
    in.model.ffnDim = 40;
    in.model.dropout = false;
    in.model.activationsOf = ActivationProfile::pytorchEager;
    in.batch = 2;
    return in;
}

// A Kineto-style trace: two ranges on the CPU thread, memory events on the CPU and on cuda:0.
const char* kTrace = R"({"schemaVersion": 1, "traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 100},
 {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 110, "dur": 30},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 112, "dur": 5},
 {"ph": "X", "cat": "user_annotation", "name": "backward", "pid": 1, "tid": 1, "ts": 150, "dur": 30},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 115,
  "args": {"Total Reserved": 2097152, "Total Allocated": 1536, "Bytes": 512, "Addr": 1, "Device Id": 0, "Device Type": 1}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 105,
  "args": {"Total Reserved": 2097152, "Total Allocated": 1024, "Bytes": 1024, "Addr": 2, "Device Id": 0, "Device Type": 1}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 160,
  "args": {"Total Reserved": 4194304, "Total Allocated": 3584, "Bytes": 2048, "Addr": 3, "Device Id": 0, "Device Type": 1}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 170,
  "args": {"Total Reserved": 4194304, "Total Allocated": 1536, "Bytes": -2048, "Addr": 3, "Device Id": 0, "Device Type": 1}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 120,
  "args": {"Total Reserved": 0, "Total Allocated": 40, "Bytes": 40, "Addr": 4, "Device Id": -1, "Device Type": 0}}
], "napkin_not_modelled": {"the batch": 112}})";

} // namespace

class TstMeasuredRun : public QObject {
    Q_OBJECT
private slots:
    void traceTimelinePerDevice() {
        const MeasuredRunRead r = readChromeTrace(kTrace, "t.json");
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.run.devices.size(), std::size_t{2});
        const MeasuredTimeline* cuda = r.run.find({MeasuredDeviceType::cuda, 0});
        QVERIFY(cuda);
        // In time order, whatever the file's order; the allocator's totals as written.
        QCOMPARE(cuda->samples.size(), std::size_t{4});
        QCOMPARE(cuda->samples[0].timeUs, 105.0);
        QCOMPARE(cuda->samples[0].allocatedBytes, 1024.0);
        QCOMPARE(cuda->peakAllocatedBytes, 3584.0);
        QCOMPARE(cuda->peakIndex, std::size_t{2});
        QVERIFY(cuda->hasReserved);
        QCOMPARE(cuda->peakReservedBytes, 4194304.0);
        // The outermost named range; ProfilerStep only where no other is open; aten ops are no phase.
        QCOMPARE(cuda->peakPhase, std::string("backward"));
        QCOMPARE(cuda->phases[static_cast<std::size_t>(cuda->samples[0].phase)].name,
                 std::string("ProfilerStep#1"));
        QCOMPARE(cuda->phases[static_cast<std::size_t>(cuda->samples[1].phase)].name, std::string("forward"));
        const MeasuredTimeline* cpu = r.run.find({MeasuredDeviceType::cpu, -1});
        QVERIFY(cpu);
        QCOMPARE(cpu->peakAllocatedBytes, 40.0);
        QVERIFY(!cpu->hasReserved); // the CPU allocator's 0 is no reserved figure
        QCOMPARE(r.run.notModelled.size(), std::size_t{1});
        QCOMPARE(r.run.notModelled[0].bytes, 112.0);
        std::string error;
        QCOMPARE(chooseDevice(r.run, std::nullopt, error), cuda); // the GPU when there is one
        QVERIFY(!chooseDevice(r.run, MeasuredDevice{MeasuredDeviceType::cuda, 1}, error));
        QCOMPARE(error, std::string("no memory events on cuda:1 (the run has cuda:0, cpu)"));
    }

    void traceWithoutTotalsSumsBytes() {
        // A bare array (the legacy export's form) without Total Allocated: the running sum of Bytes.
        const char* text =
            R"([{"name": "[memory]", "ph": "i", "ts": 1, "args": {"Bytes": 100, "Device Type": 0}},
            {"name": "[memory]", "ph": "i", "ts": 2, "args": {"Bytes": 28, "Device Type": 0}},
            {"name": "[memory]", "ph": "i", "ts": 3, "args": {"Bytes": -100, "Device Type": 0}}])";
        const MeasuredRunRead r = readChromeTrace(text, "t.json");
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.run.devices[0].peakAllocatedBytes, 128.0);
        QCOMPARE(r.run.devices[0].samples.back().allocatedBytes, 28.0);
    }

    void traceRefusals_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("no memory events")
            << R"([{"name": "aten::mm", "ph": "X", "ts": 1, "dur": 2}])"
            << "t.json: no memory events (\"[memory]\"): profile with profile_memory=True, or write the "
               "trace with "
               "scripts/measure-run.py, which adds them where torch's export leaves them out";
        QTest::newRow("cut short")
            << R"({"traceEvents": [{"name": "[memory]")"
            << "t.json: not a Chrome trace: not JSON at byte 37: syntax error while parsing "
               "object - unexpected end of input; expected '}'";
        QTest::newRow("no Bytes") << R"([{"name": "[memory]", "ph": "i", "ts": 1, "args": {}}])"
                                  << "t.json: not a Chrome trace: a [memory] event has no Bytes";
        QTest::newRow("fractional bytes")
            << R"([{"name": "[memory]", "ph": "i", "ts": 1, "args": {"Bytes": 1.5}}])"
            << "t.json: not a Chrome trace: a [memory] event's Bytes, Total Allocated or "
               "Total Reserved is not a whole byte count";
        QTest::newRow("deep") << QString(40, '[') + QString(40, ']')
                              << "t.json: not a Chrome trace: nested more than 32 deep";
        QTest::newRow("not JSON") << "\x01\x02"
                                  << "t.json: not a Chrome trace: not JSON at byte 1: syntax error "
                                     "while parsing value - invalid literal; last read: '<U+0001>'";
    }
    void traceRefusals() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const MeasuredRunRead r = readChromeTrace(text.toStdString(), "t.json");
        QCOMPARE(QString::fromStdString(r.error), error);
    }

    void snapshotTimeline() {
        for (const char* file : {"snapshot.pickle", "snapshot_protocol2.pickle"}) {
            const MeasuredRunRead r = readMemorySnapshot(dataFile(file), file);
            QVERIFY2(r.ok(), r.error.c_str());
            QCOMPARE(r.run.devices.size(), std::size_t{1}); // cuda:1's history is empty
            const MeasuredTimeline& t = r.run.devices[0];
            QCOMPARE(measuredDeviceName(t.device), std::string("cuda:0"));
            // segment_alloc, alloc 512, alloc 1024, free_requested 512 (free_completed changes nothing):
            // the snapshot holds 1024 allocated in a 2 MiB segment, so the history starts from 0 and 0.
            QCOMPARE(t.samples.size(), std::size_t{4});
            QCOMPARE(t.samples[0].allocatedBytes, 0.0);
            QCOMPARE(t.samples[0].reservedBytes, 2097152.0);
            QCOMPARE(t.samples[2].allocatedBytes, 1536.0);
            QCOMPARE(t.samples[3].allocatedBytes, 1024.0);
            QCOMPARE(t.peakAllocatedBytes, 1536.0);
            QCOMPARE(t.peakReservedBytes, 2097152.0);
        }
    }

    void snapshotRefusals_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("error");
        QTest::newRow("REDUCE")
            << "snapshot_reduce.pickle"
            << "snapshot_reduce.pickle: not a memory snapshot: refused opcode STACK_GLOBAL (0x93) at byte "
               "44: it would name or run Python code, and a memory snapshot is data only";
        QTest::newRow("GLOBAL")
            << "snapshot_global.pickle"
            << "snapshot_global.pickle: not a memory snapshot: refused opcode GLOBAL (0x63) at byte 2: "
               "it would name or run Python code, and a memory snapshot is data only";
        QTest::newRow("cut")
            << "snapshot_cut.pickle"
            << "snapshot_cut.pickle: not a memory snapshot: cut short: a length of 13 bytes at byte 266";
        QTest::newRow("deep")
            << "snapshot_deep.pickle"
            << "snapshot_deep.pickle: not a memory snapshot: nested more than 32 deep at byte 258";
        QTest::newRow("no history")
            << "snapshot_no_history.pickle"
            << "snapshot_no_history.pickle: no memory events: the snapshot has no allocation "
               "history (call torch.cuda.memory._record_memory_history() before the step, or "
               "use scripts/measure-run.py)";
        QTest::newRow("memo bomb") << "snapshot_memo_bomb.pickle"
                                   << "snapshot_memo_bomb.pickle: too many elements to walk";
    }
    void snapshotRefusals() {
        QFETCH(QString, file);
        QFETCH(QString, error);
        PickleLimits limits;
        limits.maxValues = 100'000; // the bomb builds a few values and walks 4e8
        const MeasuredRunRead r =
            readMemorySnapshot(dataFile(file.toUtf8().constData()), file.toStdString(), limits);
        QCOMPARE(QString::fromStdString(r.error), error);
    }

    void readsEitherFormatFromDisk() {
        // The GUI's one entry: a pickle is a snapshot, anything else a trace; a file's refusal names it.
        const std::string dir = NAPKIN_MEASURED_DATA;
        const MeasuredRunRead snapshot = readMeasuredRun(dir + "/snapshot.pickle");
        QVERIFY2(snapshot.ok(), snapshot.error.c_str());
        QCOMPARE(snapshot.run.format, std::string("CUDA memory snapshot"));
        const MeasuredRunRead trace = readMeasuredRun(dir + "/trace_kineto.json");
        QVERIFY2(trace.ok(), trace.error.c_str());
        QCOMPARE(trace.run.format, std::string("torch.profiler Chrome trace"));
        QCOMPARE(readMeasuredRun(dir + "/trace_no_memory.json")
                     .error.rfind(dir + "/trace_no_memory.json: no memory", 0),
                 std::size_t{0});
        QCOMPARE(readMeasuredRun(dir).error, dir + " is not a regular file");
    }

    void pickleValues() {
        const std::string bytes = dataFile("snapshot.pickle");
        const PickleData d = readPickleData(bytes);
        QVERIFY2(d.ok(), d.error.c_str());
        const auto segments = d.find(d.root, "segments");
        QVERIFY(segments);
        QCOMPARE(d.at(*segments).items.size(), std::size_t{1});
        const auto device = d.find(d.at(*segments).items[0], "address");
        QVERIFY(device);
        QCOMPARE(d.at(*device).integer, std::int64_t{139'000'000'000}); // LONG1, 5 bytes
        // Values beyond the limits are refused, not truncated silently.
        PickleLimits small;
        small.maxValues = 10;
        QVERIFY(readPickleData(bytes, small).error.find("more than 10 values") != std::string::npos);
        QCOMPARE(readPickleData("").error,
                 std::string("not a pickle of protocol 2 to 5 (it does not start with PROTO)"));
        QCOMPARE(readPickleData(std::string("\x80\x01N.", 4)).error,
                 std::string("protocol 1 (2 to 5 are read) at byte 0"));
        // A list appended to itself through the memo grows deeper at each append, and is refused.
        const std::string self("\x80\x04]\x94"
                               "h\x00"
                               "a"
                               "h\x00"
                               "a"
                               "h\x00"
                               "a.",
                               14);
        QVERIFY(readPickleData(self).ok()); // three levels deep
        std::string many("\x80\x04]\x94", 4);
        for (int i = 0; i < 40; ++i)
            many += std::string("h\x00"
                                "a",
                                3);
        many += ".";
        QVERIFY(readPickleData(many).error.find("nested more than 32 deep") != std::string::npos);
    }

    void comparisonAttributesAndAligns() {
        // The lecture's Cruncher: D = 4, 2 layers, batch 2, AdaGrad, fp32: the steady step peaks at 464 B.
        AccountingInput in;
        in.model.kind = ModelKind::cruncher;
        in.model.dim = 4;
        in.model.layers = 2;
        in.batch = 2;
        in.optimizer = OptimizerKind::adagrad;
        const GpuCatalog catalog = GpuCatalog::builtIn();
        const GpuSpec& gpu = *catalog.find(in.gpu);
        const MemoryTimeline predicted = memoryTimeline(in, account(in, gpu));
        QCOMPARE(predicted.peakBytes, 464.0);
        const MeasuredRunRead r = readChromeTrace(kTrace, "t.json");
        const MeasuredTimeline& cuda = *r.run.find({MeasuredDeviceType::cuda, 0});
        const MeasuredOverhead lines[] = {{"cuBLAS workspace", 1000, OverheadScope::allocated, "cited"},
                                          {"allocator cache", 5000, OverheadScope::reserved, "cited"},
                                          {"CUDA context", 9e8, OverheadScope::device, "cited"}};
        const MeasuredComparison c = compareWithMeasured(predicted, r.run, cuda, lines);
        QCOMPARE(c.predictedPeakBytes, 464.0);
        QCOMPARE(c.predictedPeakEvent, std::string("backward layer 2"));
        QCOMPARE(c.measuredPeakBytes, 3584.0);
        QCOMPARE(c.differenceBytes, 3120.0);
        QCOMPARE(c.attributed.size(), std::size_t{2}); // the run's batch and the workspace; not the context
        QCOMPARE(c.unexplainedBytes, 3120.0 - 112 - 1000);
        QCOMPARE(c.predictedReservedBytes, 464.0 + 112 + 1000 + 5000);
        QCOMPARE(c.unexplainedReservedBytes, 4194304.0 - 6576);
        QCOMPARE(c.phases.size(), std::size_t{4});
        QCOMPARE(c.phases[0].name, std::string("forward"));
        QCOMPARE(*c.phases[0].measuredPeakBytes, 1536.0);
        QCOMPARE(c.phases[1].predictedPeakBytes, 464.0);
        QCOMPARE(*c.phases[1].measuredPeakBytes, 3584.0);
        QVERIFY(!c.phases[2].measuredPeakBytes); // no optimizer range in this trace
        // Aligned: forward's one sample at the middle of its events, backward's two across its span.
        const std::vector<AlignedSample> aligned = alignToPredicted(predicted, cuda);
        QCOMPARE(aligned.size(), std::size_t{3});
        QCOMPARE(aligned[0].x, 2.0); // forward layer 1 … forward head are events 1–3: the middle of 0.5–3.5
        QCOMPARE(aligned[1].x, 3.5); // backward loss … backward layer 1 are events 4–7
        QCOMPARE(aligned[2].x, 7.5);
    }

    // data/cpu_trace_gpt2_one_layer.json: scripts/measure-run.py --device cpu (torch 1.13 on the CPU) with
    // gpt2OneLayer()'s flags, two AdamW steps; kept are its memory events and named ranges (the op ranges,
    // which no reader keeps, were left out to keep the file small). The measured step's peak less the bytes
    // the run names (the tokens, the model's buffers, AdamW's step counters) is napkin's peak to the byte,
    // and so is the curve the chart draws over the prediction.
    void cpuTraceMadeByTorchMatchesToTheByte() {
        const AccountingInput in = gpt2OneLayer(); // the run's own flags
        const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
        const AccountingResult result = account(in, gpu);
        const MemoryTimeline predicted = memoryTimeline(in, result);
        const MeasuredRunRead r =
            readMeasuredRun(std::string(NAPKIN_MEASURED_DATA) + "/cpu_trace_gpt2_one_layer.json");
        QVERIFY2(r.ok(), r.error.c_str());
        std::string error;
        const MeasuredTimeline* cpu = chooseDevice(r.run, std::nullopt, error);
        QVERIFY(cpu);
        QVERIFY(measuredOverheadsOf(result.overheads, cpu->device).empty()); // no CUDA overhead on the CPU
        const MeasuredComparison c = compareWithMeasured(predicted, r.run, *cpu);
        QCOMPARE(c.predictedPeakBytes, 94828.0);
        QCOMPARE(c.measuredPeakBytes, 95152.0);
        QCOMPARE(c.attributed.size(), std::size_t{3}); // 160 + 100 + 64 B named by the run
        QCOMPARE(c.unexplainedBytes, 0.0);
        // The step starts with what persists across steps, as predicted: the setups agree. To 4 B: the run
        // holds one 4-byte allocation more at its step's start than the prediction (and none more at the
        // peak, which agrees to the byte), far inside the tolerance.
        QVERIFY(c.measuredStartBytes);
        QCOMPARE(c.predictedStartBytes, 60672.0);
        QCOMPARE(*c.measuredStartBytes, 60676.0);
        QVERIFY(!c.setupDifferenceBytes);
        double overlayPeak = 0;
        for (const AlignedSample& s : alignToPredicted(predicted, *cpu))
            overlayPeak = std::max(overlayPeak, s.allocatedBytes);
        QCOMPARE(overlayPeak - 324, c.predictedPeakBytes);
    }

    // The same trace against another setup (d_model 48 rather than 24, as a page left on its own preset
    // would be): the step's starting memory is not the prediction's persistent bytes, so the comparison
    // says the setup probably differs, and by how much, rather than calling the whole gap unexplained.
    void differentSetupIsSaidAsSuch() {
        const AccountingInput in = gpt2OneLayer(48);
        const AccountingResult result = account(in, *GpuCatalog::builtIn().find(in.gpu));
        const MemoryTimeline predicted = memoryTimeline(in, result);
        const MeasuredRunRead r =
            readMeasuredRun(std::string(NAPKIN_MEASURED_DATA) + "/cpu_trace_gpt2_one_layer.json");
        QVERIFY2(r.ok(), r.error.c_str());
        std::string error;
        const MeasuredTimeline* cpu = chooseDevice(r.run, std::nullopt, error);
        QVERIFY(cpu);
        const MeasuredComparison c = compareWithMeasured(predicted, r.run, *cpu);
        QVERIFY(c.measuredStartBytes);
        QCOMPARE(c.predictedStartBytes, predicted.events.front().bytes.total());
        QVERIFY(c.setupDifferenceBytes);
        QCOMPARE(*c.setupDifferenceBytes, *c.measuredStartBytes - c.predictedStartBytes);
        QVERIFY(*c.setupDifferenceBytes < 0); // the run's model is the smaller one
        QVERIFY(c.unexplainedBytes < 0);
    }

    // scripts/measure-run.py writes the napkin command the run was made with under "napkin_setup"; the reader
    // keeps it (a run without one says nothing).
    void traceBringsItsSetup() {
        const std::string command = "napkin-cli account --model transformer --d-model 24 --heads 2";
        const std::string events = R"([{"ph": "i", "name": "[memory]", "ts": 1,
                                        "args": {"Bytes": 512, "Total Allocated": 512, "Device Type": 0}}])";
        const MeasuredRunRead with = readChromeTrace(
            R"({"traceEvents": )" + events + R"(, "napkin_setup": ")" + command + R"("})", "with.json");
        QVERIFY2(with.ok(), with.error.c_str());
        QCOMPARE(with.run.setupCommand, command);
        const MeasuredRunRead without = readChromeTrace(R"({"traceEvents": )" + events + "}", "without.json");
        QVERIFY2(without.ok(), without.error.c_str());
        QVERIFY(without.run.setupCommand.empty());
        QVERIFY(without.run.setupScenario.empty());

        // ... and the same setup as a scenario file's text under "napkin_scenario" (a JSON string holding the
        // file), kept as written; a text longer than a scenario file may be is not kept.
        const std::string scenario = R"({\"format\": \"napkin-scenario\", \"version\": 2})";
        const MeasuredRunRead withScenario = readChromeTrace(
            R"({"napkin_scenario": ")" + scenario + R"(", "traceEvents": )" + events + "}", "scenario.json");
        QVERIFY2(withScenario.ok(), withScenario.error.c_str());
        QCOMPARE(withScenario.run.setupScenario,
                 std::string(R"({"format": "napkin-scenario", "version": 2})"));
        const std::string huge(std::size_t{1} << 21, 'x');
        const MeasuredRunRead tooLong = readChromeTrace(
            R"({"napkin_scenario": ")" + huge + R"(", "traceEvents": )" + events + "}", "huge.json");
        QVERIFY2(tooLong.ok(), tooLong.error.c_str());
        QVERIFY(tooLong.run.setupScenario.empty());
    }

    void overheadScopesOnCuda() {
        // On a GPU, in the usable basis: workspaces inside allocated, the context outside the allocator.
        AccountingInput in;
        in.model.kind = ModelKind::dense;
        in.model.parameters = 1e9;
        in.overheads.fragmentation = 0.1;
        const AccountingResult result = account(in, *GpuCatalog::builtIn().find(in.gpu));
        const std::vector<MeasuredOverhead> lines =
            measuredOverheadsOf(result.overheads, {MeasuredDeviceType::cuda, 0});
        QVERIFY(!lines.empty());
        bool workspace = false, fragmentation = false;
        for (const MeasuredOverhead& l : lines) {
            if (l.name.find("cuBLAS") != std::string::npos)
                workspace = workspace || l.scope == OverheadScope::allocated;
            if (l.name.find("ragmentation") != std::string::npos)
                fragmentation = l.scope == OverheadScope::reserved;
            QVERIFY(l.name.find("CUDA context") == std::string::npos || l.scope == OverheadScope::device);
        }
        QVERIFY(workspace);
        QVERIFY(fragmentation);
    }

    void sniffsMeasuredRuns_data() {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<bool>("measured");
        QTest::newRow("pickle") << QByteArray("\x80\x04}", 3) << true;
        QTest::newRow("trace object") << QByteArray(R"({"schemaVersion": 1, "traceEvents": [)") << true;
        QTest::newRow("event array") << QByteArray("\n [{\"ph\": \"X\"") << true;
        QTest::newRow("config.json") << QByteArray(R"({"model_type": "gpt2", "n_embd": 768})") << false;
        QTest::newRow("scenario") << QByteArray(R"({"format": "napkin-scenario", "version": 1})") << false;
        QTest::newRow("empty") << QByteArray() << false;
    }
    void sniffsMeasuredRuns() {
        QFETCH(QByteArray, head);
        QFETCH(bool, measured);
        QCOMPARE(
            looksLikeMeasuredRun(std::string_view(head.constData(), static_cast<std::size_t>(head.size()))),
            measured);
    }

    void phaseNames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("phase"); // −1: none
        QTest::newRow("forward") << "forward" << int(StepPhase::forward);
        QTest::newRow("nn.Module") << "## forward ##" << int(StepPhase::forward);
        QTest::newRow("backward") << "backward" << int(StepPhase::backward);
        QTest::newRow("torch.optim") << "Optimizer.step#AdamW.step" << int(StepPhase::optimizer);
        QTest::newRow("helper") << "optimizer step" << int(StepPhase::optimizer);
        QTest::newRow("zero_grad") << "Optimizer.zero_grad#AdamW.zero_grad" << int(StepPhase::zeroGrad);
        QTest::newRow("step") << "ProfilerStep#3" << -1;
    }
    void phaseNames() {
        QFETCH(QString, name);
        QFETCH(int, phase);
        const auto p = phaseOfRangeName(name.toStdString());
        QCOMPARE(p ? int(*p) : -1, phase);
    }

    void devices_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("ok");
        QTest::newRow("cpu") << "cpu" << true;
        QTest::newRow("cuda") << "cuda" << true;
        QTest::newRow("cuda:3") << "cuda:3" << true;
        QTest::newRow("cuda:") << "cuda:" << false;
        QTest::newRow("cuda:-1") << "cuda:-1" << false;
        QTest::newRow("gpu") << "gpu" << false;
    }
    void devices() {
        QFETCH(QString, name);
        QFETCH(bool, ok);
        QCOMPARE(measuredDeviceFromName(name.toStdString()).has_value(), ok);
    }
};

QTEST_APPLESS_MAIN(TstMeasuredRun)
#include "tst_measured_run.moc"
