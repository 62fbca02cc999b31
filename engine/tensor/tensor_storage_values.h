// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the storages of a view chain hold: x's storage is filled 0, 1, 2, ... (as in the lecture);
// a copy holds the source's elements, physically rearranged into the copy's layout. This is what makes
// `.contiguous()` visible: x.T.contiguous() of a 2×3 stores 0, 3, 1, 4, 2, 5.
#include "engine/tensor/tensor_layout.h"

#include <vector>

namespace napkin {

/// Storages larger than this are not tracked (the functions return an empty vector).
constexpr int64_t kMaxTrackedStorageElements = 65536;

/// 0, 1, 2, ... for every element of x's storage.
std::vector<double> initialStorageValues(const TensorLayout& x);

/// The storage of `copy` after copying `source` (whose storage holds `sourceValues`) element by element
/// in row-major order. Cells the copy's layout never writes stay 0. Empty when either is untracked.
std::vector<double> copiedStorageValues(const TensorLayout& source, const std::vector<double>& sourceValues,
                                        const TensorLayout& copy);

} // namespace napkin
