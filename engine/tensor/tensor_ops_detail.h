// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers shared by the tensor_ops*.cpp files; not part of the engine's interface.
#include "engine/tensor/tensor_ops.h"

namespace napkin::detail {

inline TensorOpResult fail(std::string message) {
    TensorOpResult r;
    r.error = std::move(message);
    return r;
}

inline TensorOpResult viewOf(TensorLayout layout) {
    TensorOpResult r;
    r.layout = std::move(layout);
    return r;
}

// A copy of `t`'s elements into fresh storage laid out with `stride`.
inline TensorOpResult copyOf(const TensorLayout& t, std::vector<int64_t> stride, int newStorageId) {
    TensorOpResult r;
    r.layout = t;
    r.layout.stride = std::move(stride);
    r.layout.offset = 0;
    r.layout.storageId = newStorageId;
    r.layout.storageElements = t.numel();
    r.copied = true;
    return r;
}

inline void eraseDim(TensorLayout& t, int d) {
    t.shape.erase(t.shape.begin() + d);
    t.stride.erase(t.stride.begin() + d);
}

} // namespace napkin::detail
