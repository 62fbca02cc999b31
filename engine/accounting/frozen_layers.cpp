// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/frozen_layers.h"

#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <charconv>

namespace napkin {
namespace {

// A whole number of decimal digits only, in 1..max; nullopt otherwise.
std::optional<long> layerNumber(std::string_view text, long max) {
    long v = 0;
    const char* end = text.data() + text.size();
    if (text.empty() || text.front() == '+' || text.front() == '-')
        return std::nullopt;
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc() || ptr != end || v < 1 || v > max)
        return std::nullopt;
    return v;
}

} // namespace

bool layerTrains(std::span<const long> frozen, long layer) {
    return std::find(frozen.begin(), frozen.end(), layer) == frozen.end();
}

long lowestTrainingLayer(std::span<const long> frozen, long layers) {
    for (long l = 1; l <= layers; ++l)
        if (layerTrains(frozen, l))
            return l;
    return layers + 1;
}

bool computesInputGradient(std::span<const long> frozen, long layers, long layer) {
    return layer > lowestTrainingLayer(frozen, layers);
}

bool outputKept(std::span<const long> frozen, long layers, long layer) {
    return layer == layers || layerTrains(frozen, layer + 1);
}

long keptOutputs(std::span<const long> frozen, long layers) {
    long kept = 0;
    for (long l = 1; l <= layers; ++l)
        kept += outputKept(frozen, layers, l) ? 1 : 0;
    return kept;
}

double frozenLayerParameters(const ModelSpec& m, std::span<const long> frozen) {
    return static_cast<double>(frozen.size()) * m.dim * m.dim;
}

ActivationMemory cruncherActivations(const ModelSpec& m, double batch, StorageType type,
                                     std::span<const long> frozen) {
    const double elementBytes = bytesPerElement(type);
    const auto layers = static_cast<long>(m.layers);
    ActivationMemory memory;
    if (frozen.empty()) {
        memory.bytesPerSample = m.dim * m.layers * elementBytes;
        memory.bytes = batch * memory.bytesPerSample;
        memory.formula = "B·D·L × " + formatNumber(elementBytes) + " B = " + formatNumber(batch) + " × " +
                         formatNumber(m.dim) + " × " + formatNumber(m.layers) + " × " +
                         formatNumber(elementBytes) + " = " + formatNumber(memory.bytes) + " B";
        return memory;
    }
    const auto kept = static_cast<double>(keptOutputs(frozen, layers));
    memory.bytesPerSample = m.dim * kept * elementBytes;
    memory.bytes = batch * memory.bytesPerSample;
    memory.formula = "B·D·(outputs feeding a trained layer or the head) × " + formatNumber(elementBytes) +
                     " B = " + formatNumber(batch) + " × " + formatNumber(m.dim) + " × " +
                     formatNumber(kept) + " × " + formatNumber(elementBytes) + " = " +
                     formatNumber(memory.bytes) + " B (layers " + frozenLayersText(frozen) + " frozen)";
    return memory;
}

std::optional<std::vector<long>> frozenLayersFromText(std::string_view text, long layers) {
    std::vector<long> out;
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view part = text.substr(0, comma);
        const std::size_t dash = part.find('-');
        const auto from = layerNumber(part.substr(0, dash), layers);
        const auto to = dash == std::string_view::npos ? from : layerNumber(part.substr(dash + 1), layers);
        if (!from || !to || *to < *from)
            return std::nullopt;
        for (long l = *from; l <= *to; ++l) {
            if (!layerTrains(out, l))
                return std::nullopt; // named twice
            out.push_back(l);
        }
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string frozenLayersText(std::span<const long> frozen) {
    std::string text;
    for (std::size_t i = 0; i < frozen.size();) {
        std::size_t j = i;
        while (j + 1 < frozen.size() && frozen[j + 1] == frozen[j] + 1)
            ++j;
        text += (text.empty() ? "" : ",") + std::to_string(frozen[i]);
        if (j > i)
            text += "-" + std::to_string(frozen[j]);
        i = j + 1;
    }
    return text;
}

} // namespace napkin
