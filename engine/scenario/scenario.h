// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A scenario: every control of every page as plain values, and its versioned JSON file format.
// Qt-free so that the loader can be fuzzed and tested without a GUI; the app maps it to its widgets.
#include "engine/accounting/accounting.h"
#include "engine/inference/inference_accounting.h"
#include "engine/accounting/optimizer_kind.h"
#include "engine/compute/bench_dtype.h"
#include "engine/compute/cpu_backend_kind.h"
#include "engine/numerics/float_format.h"
#include "engine/numerics/storage_type.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// The format version this build writes. Files with a higher version are refused; lower ones migrate.
/// History: 1 = the accounting page only, with the flat keys of the app's settings ("params", "dModel",
/// "tokens": 0 for "no totals", "units": 0|1); 2 = one object per page, the model as a nested object.
/// The "training" section was added within version 2: it only adds keys (a file without it opens with
/// a fresh Training tab, and an older build opening a file with it warns "training: unknown key,
/// ignored" and keeps its own), so no number changed. The transformer's architecture keys
/// (accounting.model.kv_heads, ffn_dim, mlp, norm, bias, embeddings, position, experts, top_k, dropout,
/// attention_impl) and accounting.parallel {tp, pp, sp, cp, ep, microbatches} were added the same way:
/// absent, they are GPT-2 on data parallelism alone, which is what an older file meant. The "inference"
/// section and the page name "inference" were added the same way (absent: a fresh Inference tab; an
/// older build warns "inference: unknown key, ignored", but refuses a file whose "page" is "inference").
/// The "roofline" section {device, dtype} and the page name "roofline" were added the same way: absent,
/// the Roofline tab opens on H100-SXM bf16 (an older build warns "roofline: unknown key, ignored"; only a
/// file saved with the Roofline tab in front names a page it does not know). The knobs of today's
/// families (issue 26) were added the same way, under accounting.model and in a new inference.model:
/// head_dim, qkv_bias, out_bias, mlp_bias, norm_bias ("on", "off", or "default": follows bias),
/// norm_placement, qk_norm, sliding_window, global_every, windowed_layers (a config's per-layer pattern,
/// one letter a layer: "w" windowed, "g" global; "" none), q_lora_rank, kv_lora_rank, qk_nope_head_dim,
/// qk_rope_head_dim, v_head_dim, expert_ffn_dim, shared_ffn_dim, shared_expert_gate, dense_layers,
/// router_bias, attention_sinks (scenario_model.cpp). Absent, each keeps its default (off, or following the older keys), so
/// an older file opens with every number it had; inference.model absent is the preset's model.
/// accounting.overheads {basis, switches, fragmentation, cuda_major, cuda_context_bytes, nccl_channels,
/// nccl_buffsize_bytes} (the overhead ledger, issue 38) was added the same way, except that absent it is
/// the datasheet basis (what every older file's answers meant), while a fresh page uses the usable basis.
/// "gpus" (the user's own GPUs, in the GPU catalog's format) was added the same way: written only when a
/// page may name one, absent it is none; an older build warns "gpus: unknown key, ignored" and refuses
/// the page that names such a GPU.
inline constexpr int kScenarioFormatVersion = 2;
/// Larger files are refused before parsing: a real scenario is about 2 KB.
inline constexpr std::size_t kScenarioMaxBytes = 1 << 20;
/// Deeper nesting of arrays and objects is refused before parsing: a real scenario nests 4 deep, and a
/// list nested 60,000 deep once overflowed the stack of the code that printed it.
inline constexpr int kScenarioMaxDepth = 32;

/// The page in front.
enum class ScenarioPage { accounting, formats, tensor, benchmarks, training, inference, roofline };

/// What a fresh accounting page shows: GPT-2 small's transformer sizes and the lecture's Cruncher are
/// filled in for when the user switches kind; a dense 1e9-parameter model on 20e9 tokens is selected.
AccountingInput freshAccountingInput();

struct AccountingScenario {
    /// Every control, including the sizes of the model kinds not selected (the page keeps them for
    /// when the user switches back) and `seq` as its field shows it even for non-transformers.
    AccountingInput input = freshAccountingInput();
    double tokensShown = 20e9; ///< the training-tokens field, also while "count totals" is off
    bool binaryUnits = false;  ///< GiB (2^30) instead of GB (1e9)
    std::string preset;        ///< id of the preset shown in the preset box; empty for none
    bool operator==(const AccountingScenario&) const = default;
};

/// What a fresh Inference tab shows: Llama 3 8B in bf16 on one H100-SXM, 8192 tokens of context, batch 1.
InferenceInput freshInferenceInput();

/// The Inference tab: a model served on GPUs. Keys use napkin-cli infer's spelling. `input.model` is
/// written as "model": the preset's, or that model with its architecture edited, or a config.json's.
struct InferenceScenario {
    /// The model box's entry: a published model (model_presets.h) or a shipped config (model_zoo.h) id;
    /// empty for a model of the user's own (a config.json opened in the app).
    std::string preset = "llama3-8b";
    InferenceInput input = freshInferenceInput();
    double promptShown = 8192; ///< the prompt field, also while "prompt = context" is on (input.prompt unset)
    bool operator==(const InferenceScenario&) const = default;
};

struct FormatsScenario {
    double value = 0.1;    ///< the value typed (inf and NaN allowed; written as "inf", "nan")
    bool saturate = false; ///< fp8 saturates instead of overflowing to NaN / inf
    std::string tensorShape = "49152, 12288";
    std::optional<FloatFormat> pinnedFormat; ///< a bit pattern the user made by flipping a bit
    std::uint32_t pinnedBits = 0;
    bool operator==(const FormatsScenario&) const = default;
};

struct TensorScenario {
    std::string shape = "2,3";
    std::string dtype = "fp32";
    std::string expression = "x.transpose(1, 0).contiguous().view(2, 3)";
    int step = -1; ///< step shown; -1 for the last
    bool operator==(const TensorScenario&) const = default;
};

struct BenchmarksScenario {
    std::string device = "cpu";
    /// The CPU's GEMM library (key "cpuBackend"); unset: the faster one present (a file written before the
    /// choice existed, or by a page that kept the default).
    std::optional<CpuBackendKind> cpuBackend;
    std::vector<BenchDtype> dtypes{BenchDtype::fp32, BenchDtype::fp64};
    std::string sizes = "128,256,512,1024";
    long dim = 256, layers = 4, batch = 64, steps = 50; ///< Cruncher training run
    OptimizerKind optimizer = OptimizerKind::adagrad;
    PrecisionRecipe precision = PrecisionRecipe::fp32; ///< the training run's: fp32 or mixed-bf16
    bool operator==(const BenchmarksScenario&) const = default;
};

/// The Roofline tab: whose roof is drawn. Measured points and the inference point are results, not
/// controls, and are not saved.
struct RooflineScenario {
    std::string device = "H100-SXM"; ///< a GPU catalog id (the datasheet roof), or "cpu" (this CPU, measured)
    ComputeType dtype = ComputeType::bf16; ///< the roof's arithmetic: fp32, tf32, fp16, bf16, fp8
    bool operator==(const RooflineScenario&) const = default;
};

/// The Training tab's lesson in front.
enum class TrainingLesson { init, determinism, data, mixedPrecision };

/// The Training tab. The ranges are those of the panels' controls (app/*_panel.cpp).
struct TrainingScenario {
    TrainingLesson lesson = TrainingLesson::init;
    struct Init {
        long dim = 256; ///< D, a power of two from 4 to 2048 (the slider's steps)
        long layers = 10;
        long seed = 0;
        bool operator==(const Init&) const = default;
    } init;
    struct Determinism {
        long datasetSeed = 2; ///< shared by both runs
        long steps = 200;
        long initSeed[2] = {0, 0}; ///< run a, run b
        long dataSeed[2] = {1, 2}; ///< b differs from a in the data order only
        bool operator==(const Determinism&) const = default;
    } determinism;
    struct Data {
        /// The token file; empty for the demo file in the cache folder (the panel's default, which is
        /// a different path on every machine, so a scenario saved with it opens anywhere).
        std::string path;
        std::string tokenType = "uint16"; ///< "uint16" or "int32" (engine/lessons/token_dataset.h)
        long demoMegabytes = 300;
        long batch = 8, context = 16, batches = 1, seed = 0;
        bool operator==(const Data&) const = default;
    } data;
    struct MixedPrecision {
        long steps = 300;
        bool operator==(const MixedPrecision&) const = default;
    } mixedPrecision;
    bool operator==(const TrainingScenario&) const = default;
};

/// GPUs of the user's own that a scenario carries. Equal when they write the same catalog JSON (the
/// one lossless serialization, gpu_catalog_writer.h).
struct ScenarioGpus {
    std::vector<GpuSpec> parts;
    bool operator==(const ScenarioGpus& other) const;
};

struct Scenario {
    ScenarioPage page = ScenarioPage::accounting; ///< the page in front
    AccountingScenario accounting;
    FormatsScenario formats;
    TensorScenario tensor;
    BenchmarksScenario benchmarks;
    RooflineScenario roofline;
    TrainingScenario training;
    InferenceScenario inference;
    /// The user's own GPUs (the app's "Custom GPU…"), which the pages may name: written as "gpus" in the
    /// GPU catalog's format when there are any, and known to every page while the file is read.
    ScenarioGpus gpus;
    bool operator==(const Scenario&) const = default;
};

/// A loaded scenario, or why not: `error` says what and where ("accounting.mfu: must be in (0, 1]").
struct ScenarioParse {
    std::optional<Scenario> scenario;
    std::string error;                 ///< empty on success
    int fileVersion = 0;               ///< the version the file declared (0 when unreadable)
    std::vector<std::string> warnings; ///< kept going: unknown keys ignored, ...
    bool ok() const { return scenario.has_value(); }
};

/// Parses and validates a scenario file's text; migrates older versions. Never throws. Sections and
/// fields left out keep the defaults of a fresh window; a present field of the wrong type or out of
/// range refuses the whole file.
ScenarioParse parseScenario(std::string_view text);

/// Reads the file at `path` with the engine's bounded reader (a regular file of at most
/// kScenarioMaxBytes, checked before a byte is read: a FIFO, a folder or /dev/zero is refused at once)
/// and parses it as parseScenario does. Every error names the file ("PATH: why"). Never throws.
ScenarioParse readScenarioFile(const std::string& path);

/// The scenario as JSON text (version kScenarioFormatVersion, two-space indent, ends in a newline).
std::string writeScenario(const Scenario& scenario);

std::string_view scenarioPageName(ScenarioPage page);
std::optional<ScenarioPage> scenarioPageFromName(std::string_view name);
std::string_view trainingLessonName(TrainingLesson lesson);
std::optional<TrainingLesson> trainingLessonFromName(std::string_view name);

} // namespace napkin
