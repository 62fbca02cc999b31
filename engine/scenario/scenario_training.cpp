// The scenario's "training" section: the Training tab's four lesson panels and the lesson in front.
// The ranges are the panels' own, so a loaded file never shows a clamped value.
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_section.h"

#include <bit>
#include <initializer_list>

namespace napkin {
namespace scenario_detail {
namespace {

// The panels' seed boxes all go to a million.
constexpr long kMaxSeed = 1000000;

std::optional<std::string> tokenTypeFromScenarioName(std::string_view name) {
    if (name == "uint16" || name == "int32")
        return std::string(name);
    return std::nullopt;
}

void readInit(const Section& s, TrainingScenario::Init& init) {
    s.expectKeys({"dim", "layers", "seed"});
    s.whole("dim", init.dim, 4, 2048);
    // The slider moves in powers of two; anything between would be shown as a neighbour.
    if (!std::has_single_bit(static_cast<unsigned long>(init.dim)))
        s.refuse("dim", "must be a power of two from 4 to 2048");
    s.whole("layers", init.layers, 1, 64);
    s.whole("seed", init.seed, 0, kMaxSeed);
}

void readRun(const Section& s, TrainingScenario::Determinism& d, int run) {
    s.expectKeys({"init_seed", "data_seed"});
    s.whole("init_seed", d.initSeed[run], 0, kMaxSeed);
    s.whole("data_seed", d.dataSeed[run], 0, kMaxSeed);
}

void readDeterminism(const Section& s, TrainingScenario::Determinism& d) {
    s.expectKeys({"dataset_seed", "steps", "run_a", "run_b"});
    s.whole("dataset_seed", d.datasetSeed, 0, kMaxSeed);
    s.whole("steps", d.steps, 10, 2000);
    if (const auto run = s.child("run_a"))
        readRun(*run, d, 0);
    if (const auto run = s.child("run_b"))
        readRun(*run, d, 1);
}

// A path that does not exist here is not refused: the app warns when it applies the scenario.
void readData(const Section& s, TrainingScenario::Data& d) {
    s.expectKeys({"path", "token_type", "demo_megabytes", "batch", "context", "batches", "seed"});
    s.text("path", d.path);
    s.name("token_type", d.tokenType, tokenTypeFromScenarioName);
    s.whole("demo_megabytes", d.demoMegabytes, 1, 4000);
    s.whole("batch", d.batch, 1, 512);
    s.whole("context", d.context, 1, 8192);
    s.whole("batches", d.batches, 1, 10000);
    s.whole("seed", d.seed, 0, kMaxSeed);
}

} // namespace

void readTraining(const Section& s, TrainingScenario& t) {
    s.expectKeys({"lesson", "init", "determinism", "data", "mixed_precision"});
    s.name("lesson", t.lesson, trainingLessonFromName);
    if (const auto init = s.child("init"))
        readInit(*init, t.init);
    if (const auto determinism = s.child("determinism"))
        readDeterminism(*determinism, t.determinism);
    if (const auto data = s.child("data"))
        readData(*data, t.data);
    if (const auto mixed = s.child("mixed_precision")) {
        mixed->expectKeys({"steps"});
        mixed->whole("steps", t.mixedPrecision.steps, 10, 5000);
    }
}

} // namespace scenario_detail

std::string_view trainingLessonName(TrainingLesson lesson) {
    switch (lesson) {
    case TrainingLesson::init:
        return "init";
    case TrainingLesson::determinism:
        return "determinism";
    case TrainingLesson::data:
        return "data";
    case TrainingLesson::mixedPrecision:
        return "mixed_precision";
    }
    return "init";
}

std::optional<TrainingLesson> trainingLessonFromName(std::string_view name) {
    for (TrainingLesson l : {TrainingLesson::init, TrainingLesson::determinism, TrainingLesson::data,
                             TrainingLesson::mixedPrecision})
        if (trainingLessonName(l) == name)
            return l;
    return std::nullopt;
}

} // namespace napkin
