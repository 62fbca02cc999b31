// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every page as the napkin-cli line that reproduces it: what the app's Edit ▸ Copy as command puts on the
// clipboard and what `command` holds in the JSON both front ends write. Written once here so that the
// CLI's echo of its own input and the app's line are the same text.
#include "engine/accounting/accounting.h"
#include "engine/inference/inference_accounting.h"
#include "engine/compute/bench_dtype.h"
#include "engine/compute/cpu_backend_kind.h"
#include "engine/compute/cruncher_config.h"
#include "engine/numerics/storage_type.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// `text` as one shell word: unchanged when it holds only safe characters, else in single quotes.
std::string shellQuoted(std::string_view text);

/// A number as the CLI reads it back exactly: "8", "15e12", "0.5", "1.25e-05".
std::string commandNumber(double value);

/// A model the caller names its own way ("--config", "path/config.json"), and the model those words give.
struct CommandModelBase {
    std::vector<std::string> words;
    ModelSpec model;
    /// The config has a quantization_config Napkin models: infer's line then names --weights always.
    bool checkpointFormatted = false;
};

/// `napkin-cli account … --json` for `input`: --preset ID when it is exactly a setup preset; otherwise
/// the model (by `model`'s words when given; else --model-preset ID for the published or shipped model
/// that needs the fewest flags on top; else --model and its sizes) plus the fields that differ, and every
/// setting that differs from the CLI's defaults.
std::string accountCommandLine(const AccountingInput& input, const CommandModelBase* model = nullptr);

/// `napkin-cli infer … --json` for `input`, the model named as accountCommandLine names it.
std::string inferCommandLine(const InferenceInput& input, const CommandModelBase* model = nullptr);

/// `line` (an account or infer line ending in " --json") with `--gpu-catalog PATH` before --json: the
/// file that holds the part its --gpu names when the built-in catalog does not.
std::string withGpuCatalogOption(std::string_view line, std::string_view path);

/// `napkin-cli roofline --gpu ID --dtype D --json`, or `--device cpu` for "cpu".
std::string rooflineCommandLine(std::string_view device, ComputeType dtype);

/// `napkin-cli dtype VALUE [--saturate] --json`: how the five formats store `value`.
std::string dtypeCommandLine(double value, bool saturate);

/// `napkin-cli tensor --shape S --dtype D 'EXPRESSION' --json`.
std::string tensorCommandLine(std::string_view shape, std::string_view dtype, std::string_view expression);

/// Where a benchmark runs: `--device D` unless "cpu", `--backend B` for a CPU library other than the default.
struct BenchCommandDevice {
    std::string device = "cpu";
    std::optional<CpuBackendKind> cpuBackend;
};

/// `napkin-cli bench matmul --dtype D --sizes S … --json`: one type's sweep with the default timing.
std::string benchMatmulCommandLine(const BenchCommandDevice& where, BenchDtype dtype, std::string_view sizes);

/// `napkin-cli bench train --dim D --layers L --batch B --steps S --optimizer O --precision P … --json`, at
/// the optimizer's default learning rate and the default seeds.
std::string benchTrainCommandLine(const BenchCommandDevice& where, const CruncherConfig& config, long steps);

/// The Training page's lessons as `napkin-cli lesson …` lines, each with the settings the panel ran.
/// `lesson init --dim D --layers L --seed S --json` (16 input rows, the panel's and the CLI's default).
std::string lessonInitCommandLine(long dim, long layers, std::uint64_t seed);
/// Two runs of the fp32 Cruncher that differ only in their seeds: run a's, then run b's.
struct DeterminismSeeds {
    std::uint64_t task = 2, initA = 0, dataA = 1, initB = 0, dataB = 2;
};
/// `lesson determinism --steps S --seed-task T --seed-init … --b-seed-data … --json`.
std::string lessonDeterminismCommandLine(long steps, const DeterminismSeeds& seeds);
/// `lesson data --file F --dtype T --batch B --context L --batches N --seed S --json`: draws from the file
/// the page drew from (a demo file is named by its path on this machine).
std::string lessonDataCommandLine(std::string_view file, std::string_view tokenType, long batch, long context,
                                  long batches, std::uint64_t seed);
/// `lesson mixed-precision --steps S --json`: the five recipes on the default Cruncher.
std::string lessonMixedPrecisionCommandLine(long steps);

} // namespace napkin
