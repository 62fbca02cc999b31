// SPDX-License-Identifier: GPL-3.0-or-later
// `napkin-cli lesson data`: a token file memory-mapped, a batch drawn as the lecture's get_batch does,
// and what that cost in resident memory (mincore), next to the file's size.
#include "cli/lesson_subcommands.h"
#include "cli/number_option.h"
#include "cli/option_policy.h"
#include "engine/lessons/batch_sampler.h"
#include "engine/lessons/token_file_generator.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"
#include "engine/report/lesson_report.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <ostream>

namespace napkin::cli {
namespace {

struct DataOptions {
    bool json = false;
    std::string file, dtype = "uint16", batch = "8", context = "16", batches = "1", generate;
    std::uint64_t seed = 0;
};

// The lecture: "you don't want to load the entire data into memory at once (LLaMA data is 2.8TB)".
constexpr double kLectureDatasetBytes = 2.8e12;

int runData(const DataOptions& o, std::ostream& out) {
    if (o.file.empty())
        throw UsageError("--file is required");
    const auto type = tokenTypeFromName(o.dtype);
    if (!type)
        throw UsageError("--dtype: unknown '" + o.dtype + "' (uint16, int32)");
    const long B = wholeNumberOption("--batch", o.batch, 1, 4096);
    const long L = wholeNumberOption("--context", o.context, 1, 1 << 20);
    const long batches = wholeNumberOption("--batches", o.batches, 1, 100000);
    // The batch is printed in full: keep the document readable and the copy small.
    if (static_cast<double>(B) * static_cast<double>(L) > 1048576.0)
        throw UsageError("--batch × --context: " + std::to_string(B) + "×" + std::to_string(L) +
                         " tokens is more than the 2^20 this command prints");
    std::optional<double> generated;
    if (!o.generate.empty()) {
        // A demo file of a few hundred MB at most: the lesson's terabytes are sized, not written.
        const double bytes = wholeNumberOption("--generate", o.generate, 1, 4e9);
        const auto tokens = static_cast<std::uint64_t>(bytes) / tokenBytes(*type);
        if (tokens == 0)
            throw UsageError("--generate: " + o.generate + " bytes hold no " +
                             std::string(tokenTypeName(*type)) + " token");
        try {
            writeDemoTokenFile(o.file, tokens, *type, o.seed);
        } catch (const std::runtime_error& e) {
            throw UsageError(std::string("--generate: ") + e.what());
        }
        generated = static_cast<double>(tokens * tokenBytes(*type));
    }
    std::optional<TokenDataset> dataset;
    try {
        dataset.emplace(o.file, *type);
    } catch (const std::runtime_error& e) {
        throw UsageError(std::string("--file: ") + e.what());
    }
    const std::uint64_t residentBefore = dataset->residentBytes();
    std::optional<BatchSampler> sampler;
    try {
        sampler.emplace(*dataset, B, L, o.seed);
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--context: ") + e.what());
    }
    TokenBatch batch;
    for (long i = 0; i < batches; ++i)
        batch = sampler->next();
    const std::uint64_t residentAfter = dataset->residentBytes();
    const double page = static_cast<double>(TokenDataset::pageBytes());
    const DatasetSizing here = sizeDataset(static_cast<double>(dataset->fileBytes()), *type, B, L, page);
    if (o.json) {
        nlohmann::json rows = nlohmann::json::array();
        for (long b = 0; b < B; ++b)
            rows.push_back(
                std::vector<std::int32_t>(batch.tokens.begin() + b * L, batch.tokens.begin() + (b + 1) * L));
        const nlohmann::json doc = {
            {"lesson", "data"},
            {"file", o.file},
            {"dtype", tokenTypeName(*type)},
            {"generated_bytes", generated ? jsonNumber(*generated) : nlohmann::json(nullptr)},
            {"file_bytes", jsonNumber(static_cast<double>(dataset->fileBytes()))},
            {"tokens", jsonNumber(static_cast<double>(dataset->tokens()))},
            {"page_bytes", jsonNumber(page)},
            {"resident_bytes_before", jsonNumber(static_cast<double>(residentBefore))},
            {"resident_bytes_after", jsonNumber(static_cast<double>(residentAfter))},
            {"resident_note",
             "mincore over the mapping: pages of the file in memory (the page cache), whoever read them"},
            {"batches_drawn", batches},
            {"batch", {{"batch", B}, {"context", L}, {"offsets", batch.offsets}, {"tokens", rows}}},
            {"sizing", datasetSizingJson(here)},
            {"lecture_example",
             datasetSizingJson(sizeDataset(kLectureDatasetBytes, TokenType::int32, B, L, page))}};
        out << jsonText(doc);
        return 0;
    }
    out << o.file << ": " << formatBytes(static_cast<double>(dataset->fileBytes())) << ", "
        << dataset->tokens() << " " << tokenTypeName(*type) << " tokens; resident "
        << formatBytes(static_cast<double>(residentAfter)) << " after " << batches << " batch(es) of " << B
        << "x" << L << "\n";
    return 0;
}

} // namespace

Command addLessonDataCommand(CLI::App& lesson) {
    auto o = std::make_shared<DataOptions>();
    CLI::App* cmd =
        lesson.add_subcommand("data", "Memory-map a token file and draw B random windows of L tokens");
    cmd->add_option("--file", o->file, "flat binary token file (required)");
    cmd->add_option("--dtype", o->dtype, "uint16 or int32 (default uint16)");
    cmd->add_option("--batch", o->batch, "windows per batch B (default 8)");
    cmd->add_option("--context", o->context, "tokens per window L (default 16)");
    cmd->add_option("--batches", o->batches, "batches to draw; the last is printed (default 1)");
    addSeedOption(*cmd, "--seed", o->seed, "seed of the sampler (and of a generated file)");
    cmd->add_option("--generate", o->generate,
                    "first write a demo file of this many bytes (e.g. 300M) to --file");
    cmd->add_flag("--json", o->json, "print one JSON document");
    return {cmd, [o](std::ostream& out, std::ostream&) { return runData(*o, out); }};
}

} // namespace napkin::cli
