// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario's "training" section: the Training tab's four lesson panels and the lesson in front.
// The ranges are the panels' own (control_ranges.h), so a loaded file never shows a clamped value.
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_section.h"

#include "engine/lessons/token_dataset.h"
#include "engine/text/name_table.h"

#include <bit>
#include <initializer_list>

namespace napkin {
namespace scenario_detail {
namespace {

// The file holds the canonical name; the lessons' short aliases ("u16") are for the command line.
std::optional<std::string> tokenTypeFromScenarioName(std::string_view name) {
    if (const std::optional<TokenType> type = tokenTypeFromName(name); type && tokenTypeName(*type) == name)
        return std::string(name);
    return std::nullopt;
}

void readInit(const Section& s, TrainingScenario::Init& init) {
    s.expectKeys({"dim", "layers", "seed"});
    s.whole("dim", init.dim, ranges::training::initDim);
    // The slider moves in powers of two; anything between would be shown as a neighbour.
    if (!std::has_single_bit(static_cast<unsigned long>(init.dim)))
        s.refuse("dim", "must be a power of two from 4 to 2048");
    s.whole("layers", init.layers, ranges::training::initLayers);
    s.whole("seed", init.seed, ranges::seed);
}

void readRun(const Section& s, TrainingScenario::Determinism& d, int run) {
    s.expectKeys({"init_seed", "data_seed"});
    s.whole("init_seed", d.initSeed[run], ranges::seed);
    s.whole("data_seed", d.dataSeed[run], ranges::seed);
}

void readDeterminism(const Section& s, TrainingScenario::Determinism& d) {
    s.expectKeys({"dataset_seed", "steps", "run_a", "run_b"});
    s.whole("dataset_seed", d.datasetSeed, ranges::seed);
    s.whole("steps", d.steps, ranges::training::determinismSteps);
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
    s.whole("demo_megabytes", d.demoMegabytes, ranges::training::demoMegabytes);
    s.whole("batch", d.batch, ranges::training::dataBatch);
    s.whole("context", d.context, ranges::training::dataContext);
    s.whole("batches", d.batches, ranges::training::dataBatches);
    s.whole("seed", d.seed, ranges::seed);
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
        mixed->whole("steps", t.mixedPrecision.steps, ranges::training::mixedPrecisionSteps);
    }
}

} // namespace scenario_detail

namespace {
constexpr NameTable<TrainingLesson, 4> kLessonNames{{{TrainingLesson::init, "init"},
                                                     {TrainingLesson::determinism, "determinism"},
                                                     {TrainingLesson::data, "data"},
                                                     {TrainingLesson::mixedPrecision, "mixed_precision"}}};
} // namespace

std::string_view trainingLessonName(TrainingLesson lesson) {
    return nameIn(kLessonNames, lesson);
}

std::optional<TrainingLesson> trainingLessonFromName(std::string_view name) {
    return valueIn(kLessonNames, name);
}

} // namespace napkin
