// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/hf_config.h"

#include "engine/models/hf_config_aliases.h"
#include "engine/models/hf_config_defaults.h"
#include "engine/models/hf_config_families.h"
#include "engine/models/hf_config_keys.h"
#include "engine/models/hf_config_vision.h"
#include "engine/text/json_nesting.h"
#include "engine/text/printable_text.h"
#include "engine/numerics/work_counts.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace napkin {
namespace {

constexpr std::array<std::string_view, 19> kModelTypes{
    "llama", "mistral",     "mixtral",     "qwen2",   "qwen2_moe", "qwen3",    "qwen3_moe",
    "gemma", "gemma2",      "gemma3",      "phi3",    "olmo2",     "gpt_neox", "falcon",
    "gpt2",  "deepseek_v2", "deepseek_v3", "gpt_oss", "llama4"};

std::string typeList() {
    std::string out;
    for (std::string_view t : kModelTypes)
        out += (out.empty() ? "" : ", ") + std::string(t);
    return out;
}

HfConfigResult failure(std::string_view source, const std::string& message) {
    return {std::nullopt, std::string(source) + ": " + message};
}

std::vector<std::string> sorted(const std::set<std::string>& keys) {
    return {keys.begin(), keys.end()};
}

} // namespace

std::span<const std::string_view> hfModelTypes() {
    return kModelTypes;
}

HfConfigResult parseHfConfig(std::string_view text, std::string_view source) {
    ++workCounts().configsParsed;
    if (jsonNestingDepth(text, kMaxHfConfigDepth) > kMaxHfConfigDepth)
        return failure(source, "nested deeper than " + std::to_string(kMaxHfConfigDepth) +
                                   " levels; not a model config.json");
    const nlohmann::json root = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (root.is_discarded())
        return failure(source, "not valid JSON (truncated or damaged?)");
    if (!root.is_object())
        return failure(source, "expected a JSON object, got " + std::string(root.type_name()));
    const auto type = root.find("model_type");
    if (type == root.end())
        return failure(source, "model_type: missing; not a Hugging Face model config.json (a tokenizer or "
                               "generation config?)");
    if (!type->is_string())
        return failure(source, "model_type: expected a string, got " + std::string(type->type_name()));
    HfConfig config;
    config.modelType = type->get<std::string>();
    std::vector<std::string> architectures;
    if (const auto a = root.find("architectures"); a != root.end() && a->is_array())
        for (const nlohmann::json& cls : *a)
            if (cls.is_string())
                architectures.push_back(cls.get<std::string>());
    std::string family = config.modelType;
    if (std::find(kModelTypes.begin(), kModelTypes.end(), family) == kModelTypes.end()) {
        const std::optional<HfFamilyAlias> alias = hfFamilyAlias(family, architectures, kModelTypes);
        if (!alias)
            return failure(source, "model_type: '" + printable(config.modelType) +
                                       "' is not supported; supported: " + typeList() + "; nearest: " +
                                       std::string(nearestHfFamily(config.modelType, kModelTypes)));
        family = alias->family;
        config.notes.push_back(alias->reason);
    }
    config.family = family;
    // Gemma 3's and Llama 4's multimodal files nest the language model under text_config.
    const nlohmann::json* object = &root;
    std::string prefix;
    if ((family == "gemma3" || family == "llama4") && root.contains("text_config")) {
        object = &root["text_config"];
        prefix = "text_config.";
        if (!object->is_object())
            return failure(source,
                           "text_config: expected an object, got " + std::string(object->type_name()));
    }
    HfConfigKeys keys(*object, prefix);
    keys.setDefaults(hfConfigClassDefaults(family));
    try {
        if (!readHfFamily(family, keys, config.model))
            return failure(source, "model_type: '" + printable(config.modelType) +
                                       "' is not supported; supported: " + typeList());
    } catch (const HfConfigKeyError& e) {
        return failure(source, e.what());
    } catch (const nlohmann::json::exception& e) {
        return failure(source, e.what());
    }
    const InputError invalid = validateArchitecture(config.model);
    if (!invalid.ok())
        return failure(source,
                       "the model it describes is invalid: " + invalid.field + ": " + invalid.message);
    std::set<std::string> used = keys.used(), ignored = keys.ignored();
    used.insert("model_type");
    if (object != &root) {
        used.insert("text_config");
        config.notes.emplace_back(
            "the language model (text_config) is counted; the vision tower is not part of it");
        if (const auto v = root.find("vision_config"); v != root.end() && family == "gemma3") {
            config.visionParameters = gemma3VisionParameters(*v, config.model.dModel);
            if (config.visionParameters) {
                used.insert("vision_config");
                config.notes.push_back("vision tower and projector (vision_config): " +
                                       std::to_string(static_cast<long long>(*config.visionParameters)) +
                                       " parameters, counted apart");
            }
        }
        for (auto it = root.begin(); it != root.end(); ++it)
            if (!used.count(it.key()))
                ignored.insert(it.key());
    } else {
        ignored.erase("model_type");
    }
    if (family == "deepseek_v3" || family == "deepseek_v2") {
        const auto mtp = object->find("num_nextn_predict_layers");
        if (mtp != object->end() && mtp->is_number() && mtp->get<double>() > 0)
            config.notes.push_back(
                "the " + mtp->dump() +
                " multi-token-prediction layer(s) (num_nextn_predict_layers) are not counted, "
                "as DeepSeek's model card counts the main model without them");
    }
    if (const auto q = root.find("quantization_config"); q != root.end() && !q->is_null()) {
        try {
            CheckpointFormatRead read = readCheckpointFormat(*q);
            config.checkpointFormat = std::move(read.format);
            if (!read.note.empty())
                config.notes.push_back(read.note);
        } catch (const HfConfigKeyError& e) {
            return failure(source, e.what());
        }
        used.insert("quantization_config");
        ignored.erase("quantization_config");
    }
    if (!keys.defaulted().empty())
        config.notes.push_back("keys the file leaves out take " + std::string(hfConfigClassSource(family)) +
                               "'s defaults");
    config.keysUsed = sorted(used);
    config.keysIgnored = sorted(ignored);
    config.keysDefaulted = sorted(keys.defaulted());
    return {std::move(config), {}};
}

HfConfigResult readHfConfigFile(const std::string& path) {
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        return failure(path, "cannot read: no such file");
    if (!std::filesystem::is_regular_file(status))
        return failure(path, "not a regular file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        return failure(path, "cannot read its size: " + ec.message());
    if (static_cast<double>(size) > kMaxHfConfigBytes)
        return failure(path, std::to_string(size) + " bytes; a config.json is a few kB (limit " +
                                 std::to_string(static_cast<long long>(kMaxHfConfigBytes)) + " bytes)");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return failure(path, "cannot open");
    std::string text;
    text.reserve(size);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (text.size() > kMaxHfConfigBytes) // it grew between the check and the read
        return failure(path, "larger than the limit of " +
                                 std::to_string(static_cast<long long>(kMaxHfConfigBytes)) + " bytes");
    return parseHfConfig(text, path);
}

} // namespace napkin
