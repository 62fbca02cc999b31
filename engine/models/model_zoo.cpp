// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/model_zoo.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

namespace napkin {

extern const std::pair<std::string_view, std::string_view> kModelZooJson[];
extern const int kModelZooJsonCount;

namespace {

std::string_view jsonOf(std::string_view id) {
    for (int i = 0; i < kModelZooJsonCount; ++i)
        if (kModelZooJson[i].first == id)
            return kModelZooJson[i].second;
    return {};
}

// Parameter counts derived by hand from each config.json; the derivations are in
// tests/engine/accounting/tst_model_zoo.cpp beside the rows that check them.
struct Entry {
    std::string_view id, family, name;
    double parameters;
};
constexpr std::array<Entry, 20> kEntries{{
    {"gpt2", "GPT-2 / GPT-3", "GPT-2 (124M)", 124439808},
    {"gpt-neox-20b", "GPT-NeoX", "GPT-NeoX-20B", 20554567680},
    {"falcon-7b", "Falcon", "Falcon 7B", 6921720704},
    {"llama-2-7b", "Llama", "Llama 2 7B", 6738415616},
    {"mistral-7b-v0.1", "Mistral / Mixtral", "Mistral 7B v0.1", 7241732096},
    {"mixtral-8x7b-v0.1", "Mistral / Mixtral", "Mixtral 8x7B v0.1", 46702792704},
    {"phi-3-mini-4k", "Phi", "Phi-3 mini 4k", 3821079552},
    {"qwen2.5-7b", "Qwen", "Qwen2.5 7B", 7615616512},
    {"qwen1.5-moe-a2.7b", "Qwen", "Qwen1.5-MoE-A2.7B", 14315784192},
    {"qwen3-8b", "Qwen", "Qwen3 8B", 8190735360},
    {"qwen3-30b-a3b", "Qwen", "Qwen3 30B-A3B", 30532122624},
    {"gemma-7b", "Gemma", "Gemma 7B", 8537680896},
    {"gemma-2-9b", "Gemma", "Gemma 2 9B", 9241705984},
    {"olmo-2-7b", "OLMo", "OLMo 2 7B (1124)", 7298617344},
    {"deepseek-v3", "DeepSeek", "DeepSeek-V3 (without MTP)", 671026419200},
    {"gemma-3-4b-it", "Gemma", "Gemma 3 4B (language model)", 3880263168},
    {"gpt-oss-20b", "gpt-oss", "gpt-oss-20b", 20914757184},
    {"gpt-oss-120b", "gpt-oss", "gpt-oss-120b", 116829156672},
    {"llama-4-maverick-17b-128e", "Llama", "Llama 4 Maverick (language model)", 400711848960},
    {"kimi-k2-instruct", "Kimi", "Kimi K2 Instruct", 1026408232448},
}};

const std::array<ZooModel, kEntries.size()>& table() {
    static const std::array<ZooModel, kEntries.size()> models = [] {
        std::array<ZooModel, kEntries.size()> out{};
        for (std::size_t i = 0; i < kEntries.size(); ++i)
            out[i] = {kEntries[i].id, kEntries[i].family, kEntries[i].name, kEntries[i].parameters,
                      jsonOf(kEntries[i].id)};
        return out;
    }();
    return models;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

std::span<const ZooModel> zooModels() {
    return table();
}

const ZooModel* findZooModel(std::string_view id) {
    for (const ZooModel& m : table())
        if (equalsIgnoringCase(m.id, id))
            return &m;
    return nullptr;
}

std::string zooModelIds() {
    std::string ids;
    for (const ZooModel& m : table())
        ids += (ids.empty() ? "" : ", ") + std::string(m.id);
    return ids;
}

const HfConfigResult& zooModelConfig(const ZooModel& model) {
    // Read once per process: the texts are compiled in. Copy as command reads every zoo model to name the
    // nearest one, on every slider tick, and parsing twenty JSON documents cost more than the accounting.
    using Key = std::tuple<const char*, std::size_t, std::string_view>;
    static std::mutex mutex;
    static std::map<Key, HfConfigResult> parsed; // a node's address never moves
    const Key key{model.configJson.data(), model.configJson.size(), model.id};
    const std::lock_guard lock(mutex);
    auto it = parsed.find(key);
    if (it == parsed.end())
        it = parsed
                 .emplace(key, parseHfConfig(model.configJson,
                                             "resources/models/" + std::string(model.id) + ".json"))
                 .first;
    return it->second;
}

} // namespace napkin
