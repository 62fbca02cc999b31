// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/hf_config_keys.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace napkin {

HfConfigKeys::HfConfigKeys(const nlohmann::json& object, std::string prefix)
    : m_object(object), m_prefix(std::move(prefix)) {}

bool HfConfigKeys::has(const char* key) const {
    const auto it = m_object.find(key);
    return it != m_object.end() && !it->is_null();
}

void HfConfigKeys::touch(const char* key) {
    if (m_object.contains(key))
        m_used.insert(m_prefix + key);
}

const nlohmann::json* HfConfigKeys::value(const char* key) {
    const auto it = m_object.find(key);
    if (it == m_object.end()) {
        if (!m_defaults)
            return nullptr;
        const auto d = m_defaults->find(key);
        if (d == m_defaults->end() || d->is_null())
            return nullptr;
        m_defaulted.insert(m_prefix + key);
        return &*d;
    }
    m_used.insert(m_prefix + key);
    return it->is_null() ? nullptr : &*it; // null: "not set" (sliding_window, q_lora_rank, n_inner)
}

void HfConfigKeys::wrongType(const char* key, const char* expected, const nlohmann::json& v) const {
    throw HfConfigKeyError(m_prefix + key + ": expected " + expected + ", got " +
                           (v.is_number() ? v.dump() : std::string(v.type_name())));
}

std::optional<double> HfConfigKeys::optionalWhole(const char* key) {
    const nlohmann::json* v = value(key);
    if (!v)
        return std::nullopt;
    if (!v->is_number())
        wrongType(key, "a whole number", *v);
    const double d = v->get<double>();
    if (!std::isfinite(d) || d < 0 || d != std::floor(d) || d > 1e12)
        wrongType(key, "a whole number", *v);
    return d;
}

double HfConfigKeys::whole(const char* key) {
    const std::optional<double> v = optionalWhole(key);
    if (!v)
        throw HfConfigKeyError(m_prefix + key + ": required, missing");
    return *v;
}

double HfConfigKeys::wholeOf(std::initializer_list<const char*> keys) {
    for (const char* key : keys)
        if (has(key))
            return whole(key);
    return whole(*keys.begin()); // reports the first spelling missing
}

std::optional<bool> HfConfigKeys::optionalBool(const char* key) {
    const nlohmann::json* v = value(key);
    if (!v)
        return std::nullopt;
    if (!v->is_boolean())
        wrongType(key, "true or false", *v);
    return v->get<bool>();
}

std::optional<std::string> HfConfigKeys::optionalString(const char* key) {
    const nlohmann::json* v = value(key);
    if (!v)
        return std::nullopt;
    if (!v->is_string())
        wrongType(key, "a string", *v);
    return v->get<std::string>();
}

std::optional<std::vector<std::string>> HfConfigKeys::optionalStrings(const char* key) {
    const nlohmann::json* v = value(key);
    if (!v)
        return std::nullopt;
    if (!v->is_array())
        wrongType(key, "a list of strings", *v);
    std::vector<std::string> out;
    for (const nlohmann::json& item : *v) {
        if (!item.is_string())
            wrongType(key, "a list of strings", *v);
        out.push_back(item.get<std::string>());
    }
    return out;
}

std::optional<std::vector<double>> HfConfigKeys::optionalWholes(const char* key) {
    const nlohmann::json* v = value(key);
    if (!v)
        return std::nullopt;
    if (!v->is_array())
        wrongType(key, "a list of whole numbers", *v);
    std::vector<double> out;
    for (const nlohmann::json& item : *v) {
        const double d = item.is_number() ? item.get<double>() : -1;
        if (!std::isfinite(d) || d < 0 || d != std::floor(d) || d > 1e12)
            wrongType(key, "a list of whole numbers", *v);
        out.push_back(d);
    }
    return out;
}

std::set<std::string> HfConfigKeys::ignored() const {
    std::set<std::string> out;
    for (auto it = m_object.begin(); it != m_object.end(); ++it)
        if (!m_used.count(m_prefix + it.key()))
            out.insert(m_prefix + it.key());
    return out;
}

} // namespace napkin
