// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/checkpoint_format.h"

#include "engine/models/hf_config_keys.h"

#include <nlohmann/json.hpp>

namespace napkin {
namespace {

constexpr const char* kPrefix = "quantization_config.";

std::string methodOf(const nlohmann::json& q) {
    const auto m = q.find("quant_method");
    if (m == q.end())
        throw HfConfigKeyError(std::string(kPrefix) + "quant_method: required, missing");
    if (!m->is_string())
        throw HfConfigKeyError(std::string(kPrefix) + "quant_method: expected a string, got " +
                               std::string(m->type_name()));
    return m->get<std::string>();
}

CheckpointFormatRead notModelled(const std::string& what) {
    return {std::nullopt, "quantization_config: " + what +
                              " is not modelled; the weights are priced 16-bit "
                              "unless --weights picks a format"};
}

// True when modules_to_not_convert leaves attention out of the conversion (gpt-oss:
// "model.layers.*.self_attn").
bool attentionUnconverted(const nlohmann::json& q) {
    const auto skip = q.find("modules_to_not_convert");
    if (skip == q.end() || skip->is_null())
        return false;
    if (!skip->is_array())
        throw HfConfigKeyError(std::string(kPrefix) + "modules_to_not_convert: expected a list of strings");
    for (const nlohmann::json& module : *skip) {
        if (!module.is_string())
            throw HfConfigKeyError(std::string(kPrefix) +
                                   "modules_to_not_convert: expected a list of strings");
        if (module.get<std::string>().find("self_attn") != std::string::npos)
            return true;
    }
    return false;
}

} // namespace

std::string trainingAssumption(const CheckpointFormat& format, bool qlora) {
    const std::string name(weightFormatName(format.weights));
    if (qlora)
        return "the checkpoint ships in " + name +
               "; QLoRA's frozen base is accounted in NF4 (re-quantized at "
               "load), its embeddings, head and norms in the recipe's 16-bit dtype";
    return "the checkpoint ships in " + name +
           "; training accounts every weight in the precision recipe's "
           "dtype (the checkpoint dequantized once at load), not in " +
           name;
}

CheckpointFormatRead readCheckpointFormat(const nlohmann::json& q) {
    if (!q.is_object())
        throw HfConfigKeyError("quantization_config: expected an object, got " + std::string(q.type_name()));
    HfConfigKeys keys(q, kPrefix);
    const std::string method = methodOf(q);
    CheckpointFormat f;
    if (method == "fp8") {
        const auto block = q.find("weight_block_size");
        if (block == q.end() || block->is_null()) {
            f.weights = WeightFormat::fp8;
            f.description = "fp8, one scale per tensor (quantization_config: quant_method fp8)";
            return {f, {}};
        }
        if (!block->is_array() || block->size() != 2 || !(*block)[0].is_number() || !(*block)[1].is_number())
            throw HfConfigKeyError(std::string(kPrefix) + "weight_block_size: expected two whole numbers");
        if ((*block)[0].get<double>() != 128 || (*block)[1].get<double>() != 128)
            return notModelled("fp8 with weight_block_size " + block->dump() + " (only [128, 128] is)");
        f.weights = WeightFormat::fp8Block128;
        f.description = "fp8 (e4m3) with one fp32 scale per 128×128 block (quantization_config: quant_method "
                        "fp8, weight_block_size [128, 128]); embeddings, head, norms and router 16-bit";
        return {f, {}};
    }
    if (method == "mxfp4") {
        f.weights = WeightFormat::mxfp4;
        f.expertsOnly = attentionUnconverted(q);
        f.description =
            std::string("MXFP4: 4-bit values with one 8-bit exponent per 32 (quantization_config: "
                        "quant_method mxfp4)") +
            (f.expertsOnly ? "; the routed experts only, attention, router, embeddings and head "
                             "16-bit (modules_to_not_convert)"
                           : "");
        return {f, {}};
    }
    if (method == "bitsandbytes") {
        const bool four = keys.optionalBool("load_in_4bit").value_or(false);
        const bool eight = keys.optionalBool("load_in_8bit").value_or(false);
        if (four) {
            const std::string type = keys.optionalString("bnb_4bit_quant_type").value_or("fp4");
            const bool doubleQuant = keys.optionalBool("bnb_4bit_use_double_quant").value_or(false);
            if (type != "nf4" || !doubleQuant)
                return notModelled("bitsandbytes 4-bit " + type +
                                   (doubleQuant ? "" : " without double quantization") +
                                   " (only nf4 with double quantization is)");
            f.weights = WeightFormat::nf4;
            f.description =
                "bitsandbytes NF4 with double quantization, 4.127 bits a weight (quantization_config)";
            return {f, {}};
        }
        if (eight)
            return notModelled("bitsandbytes LLM.int8 (one fp32 scale per row)");
        return notModelled("bitsandbytes without load_in_4bit or load_in_8bit");
    }
    if (method == "gptq" || method == "awq") {
        const auto group = q.find("group_size");
        if (group != q.end() && group->is_number() && group->get<double>() == -1)
            return notModelled(method + " with group_size -1 (one scale per output channel)");
        const double bits = keys.whole("bits");
        const double size = keys.whole("group_size");
        if ((bits != 4 && bits != 8) || size < 1)
            return notModelled(method + " with bits " + std::to_string(static_cast<long long>(bits)) +
                               " and group_size " + std::to_string(static_cast<long long>(size)));
        f.weights = bits == 4 ? WeightFormat::int4 : WeightFormat::int8;
        f.groupSize = size;
        f.description =
            method + " int" + std::to_string(static_cast<long long>(bits)) + " with one fp16 scale per " +
            std::to_string(static_cast<long long>(size)) +
            " weights (quantization_config); the packed zero points (4 bits a group) are not counted";
        return {f, {}};
    }
    return notModelled("quant_method '" + method + "'");
}

} // namespace napkin
