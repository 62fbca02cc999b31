// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/preset_groups.h"

#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/accounting/setup_presets.h"

#include <algorithm>
#include <array>
#include <utility>

namespace napkin {
namespace {

constexpr std::array<std::string_view, 13> kFamilies{
    "Lecture questions", "GPT-2 / GPT-3", "GPT-NeoX", "Falcon", "Llama",
    "Mistral / Mixtral", "Phi",           "Qwen",     "Gemma",  "OLMo",
    "DeepSeek",          "Kimi",          "gpt-oss"};

// The family of each setup and published preset; a shipped config carries its own (model_zoo.cpp).
// tst_preset_groups holds every id to a row here; one missing would be shown under "Other".
constexpr std::pair<std::string_view, std::string_view> kPresetFamilies[] = {
    {"70b-15t-1024-h100", "Lecture questions"},
    {"largest-8-h100", "Lecture questions"},
    {"cruncher", "Lecture questions"},
    {"gpt2-small", "GPT-2 / GPT-3"},
    {"gpt2-medium", "GPT-2 / GPT-3"},
    {"gpt2-large", "GPT-2 / GPT-3"},
    {"gpt2-xl", "GPT-2 / GPT-3"},
    {"gpt3-175b", "GPT-2 / GPT-3"},
    {"llama3-8b", "Llama"},
    {"llama3-70b", "Llama"},
    {"llama3-405b", "Llama"},
    {"llama3-8b-qlora-24gb", "Llama"},
    {"llama3-8b-lora-h100", "Llama"},
    {"mixtral-8x7b", "Mistral / Mixtral"},
};

constexpr std::string_view kOther = "Other";

std::string_view familyOf(std::string_view id) {
    for (const auto& [presetId, family] : kPresetFamilies)
        if (presetId == id)
            return family;
    return kOther;
}

std::vector<PresetGroup> grouped(const std::vector<std::pair<std::string_view, PresetEntry>>& entries) {
    std::vector<PresetGroup> groups;
    for (std::string_view family : kFamilies) {
        PresetGroup group{family, {}};
        for (const auto& [entryFamily, entry] : entries)
            if (entryFamily == family)
                group.entries.push_back(entry);
        if (!group.entries.empty())
            groups.push_back(std::move(group));
    }
    // A family missing from the list is shown last rather than left out of the box.
    PresetGroup other{kOther, {}};
    for (const auto& [entryFamily, entry] : entries)
        if (std::find(kFamilies.begin(), kFamilies.end(), entryFamily) == kFamilies.end())
            other.entries.push_back(entry);
    if (!other.entries.empty())
        groups.push_back(std::move(other));
    return groups;
}

void addZoo(std::vector<std::pair<std::string_view, PresetEntry>>& entries) {
    for (const ZooModel& z : zooModels())
        entries.push_back({z.family, {z.id, z.name, PresetSource::zoo}});
}

} // namespace

std::span<const std::string_view> presetFamilies() {
    return kFamilies;
}

std::vector<PresetGroup> accountingPresetGroups() {
    std::vector<std::pair<std::string_view, PresetEntry>> entries;
    for (const SetupPreset& p : setupPresets())
        entries.push_back({familyOf(p.id), {p.id, p.name, PresetSource::setup}});
    addZoo(entries);
    return grouped(entries);
}

std::vector<PresetGroup> inferencePresetGroups() {
    std::vector<std::pair<std::string_view, PresetEntry>> entries;
    for (const ModelPreset& p : modelPresets())
        entries.push_back({familyOf(p.id), {p.id, p.name, PresetSource::published}});
    addZoo(entries);
    return grouped(entries);
}

std::optional<ModelSpec> namedModel(std::string_view id) {
    if (const ModelPreset* p = findModelPreset(id))
        return p->model;
    if (const ZooModel* z = findZooModel(id))
        if (const HfConfigResult& read = zooModelConfig(*z); read.ok())
            return read.config->model;
    return std::nullopt;
}

} // namespace napkin
