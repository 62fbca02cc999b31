// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/tensor/tensor_storage_values.h"

namespace napkin {

std::vector<double> initialStorageValues(const TensorLayout& x) {
    if (x.storageElements > kMaxTrackedStorageElements)
        return {};
    std::vector<double> values(static_cast<std::size_t>(x.storageElements));
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<double>(i);
    return values;
}

std::vector<double> copiedStorageValues(const TensorLayout& source, const std::vector<double>& sourceValues,
                                        const TensorLayout& copy) {
    const auto from = elementOffsets(source, kMaxTrackedStorageElements);
    const auto to = elementOffsets(copy, kMaxTrackedStorageElements);
    if (sourceValues.empty() || !from || !to || from->size() != to->size() ||
        copy.storageElements > kMaxTrackedStorageElements)
        return {};
    std::vector<double> values(static_cast<std::size_t>(copy.storageElements), 0.0);
    for (std::size_t j = 0; j < from->size(); ++j) {
        const auto in = static_cast<std::size_t>((*from)[j]);
        const auto out = static_cast<std::size_t>((*to)[j]);
        if (in < sourceValues.size() && out < values.size())
            values[out] = sourceValues[in];
    }
    return values;
}

} // namespace napkin
