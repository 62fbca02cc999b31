// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Typed reads of a config.json object that remember which keys were read, so that the import can say
// which keys it used and which it ignored; a wrong type or a missing key throws HfConfigKeyError.
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace napkin {

struct HfConfigKeyError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class HfConfigKeys {
public:
    /// `object` must outlive this; `prefix` ("text_config.") is put before the key names it reports.
    HfConfigKeys(const nlohmann::json& object, std::string prefix);

    /// The family's configuration-class defaults (hf_config_defaults.h): a key absent from the object is
    /// read from `defaults` and reported in defaulted(); a key present as null stays "not set".
    void setDefaults(const nlohmann::json* defaults) { m_defaults = defaults; }

    /// A whole number ≥ 0 (null or absent: nullopt for the optional reads).
    double whole(const char* key);
    std::optional<double> optionalWhole(const char* key);
    std::optional<bool> optionalBool(const char* key);
    std::optional<std::string> optionalString(const char* key);
    /// A list of strings ("layer_types").
    std::optional<std::vector<std::string>> optionalStrings(const char* key);
    /// A list of whole numbers ("moe_layers", "no_rope_layers").
    std::optional<std::vector<double>> optionalWholes(const char* key);
    /// The first of `keys` present (older and newer spellings: n_embd / hidden_size).
    double wholeOf(std::initializer_list<const char*> keys);
    bool has(const char* key) const;
    /// Marks a key read without using its value (it was checked and changes nothing).
    void touch(const char* key);

    const std::set<std::string>& used() const { return m_used; }
    /// Present keys never read, with the prefix.
    std::set<std::string> ignored() const;
    /// Absent keys read from the defaults, with the prefix.
    const std::set<std::string>& defaulted() const { return m_defaulted; }

private:
    const nlohmann::json* value(const char* key);
    [[noreturn]] void wrongType(const char* key, const char* expected, const nlohmann::json& v) const;

    const nlohmann::json& m_object;
    std::string m_prefix;
    const nlohmann::json* m_defaults = nullptr;
    std::set<std::string> m_used, m_defaulted;
};

} // namespace napkin
