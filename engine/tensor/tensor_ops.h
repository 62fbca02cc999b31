// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PyTorch's view and copy operations on a TensorLayout, with ATen's rules and error messages.
// Each operation either makes a view (same storage, new shape/stride/offset) or a copy (new storage
// with `newStorageId`). Dimensions may be negative; sizes may be -1 where PyTorch allows it.
#include "engine/tensor/tensor_layout.h"

#include <optional>
#include <string>
#include <vector>

namespace napkin {

struct TensorOpResult {
    TensorLayout layout;
    bool copied = false; ///< true: the elements were copied into new storage (layout.storageId)
    std::string error;   ///< PyTorch's message when the operation is impossible
    bool ok() const { return error.empty(); }
};

/// maybe_wrap_dim: a dim in [-n, n-1] (a 0-d tensor accepts [-1, 0]); nullopt and PyTorch's
/// "Dimension out of range (expected to be in range of [-2, 1], but got 2)" otherwise.
std::optional<int> wrapDim(int64_t dim, int ndim, std::string* error);

/// infer_size: replaces one -1 by numel / Π(other sizes); errors as PyTorch's
/// "shape '[2, 4]' is invalid for input of size 6".
std::optional<std::vector<int64_t>> inferSize(const std::vector<int64_t>& sizes, int64_t numel,
                                              std::string* error);

/// ATen's computeStride: strides that make `newShape` a view of (oldShape, oldStride), or nullopt
/// when a new dimension would span two non-contiguous chunks of the old one.
std::optional<std::vector<int64_t>> viewStrides(const std::vector<int64_t>& oldShape,
                                                const std::vector<int64_t>& oldStride,
                                                const std::vector<int64_t>& newShape);

TensorOpResult view(const TensorLayout& t, const std::vector<int64_t>& sizes);
/// A view when view() would succeed, otherwise a contiguous copy reshaped.
TensorOpResult reshape(const TensorLayout& t, const std::vector<int64_t>& sizes, int newStorageId);
/// Itself when isContiguous(t), otherwise a contiguous copy.
TensorOpResult contiguous(const TensorLayout& t, int newStorageId);
/// Always a copy, laid out as preserve_format lays it out (preserveFormatStrides): t's strides when
/// t is non-overlapping and dense, else dense strides in t's stride order (denseStridesLike).
TensorOpResult clone(const TensorLayout& t, int newStorageId);
TensorOpResult transpose(const TensorLayout& t, int64_t dim0, int64_t dim1);
/// t(): transpose(0, 1) for 2-D, itself for 0-D and 1-D, an error above.
TensorOpResult transpose2d(const TensorLayout& t);
/// .T: all dimensions reversed.
TensorOpResult reverseDims(const TensorLayout& t);
/// .mT: the last two dimensions swapped; a 0-d tensor unchanged, a 1-D one an error.
TensorOpResult matrixTranspose(const TensorLayout& t);
TensorOpResult permute(const TensorLayout& t, const std::vector<int64_t>& dims);
TensorOpResult unsqueeze(const TensorLayout& t, int64_t dim);
/// squeeze(): every size-1 dimension removed.
TensorOpResult squeeze(const TensorLayout& t);
/// squeeze(dim): that dimension removed if its size is 1, otherwise unchanged.
TensorOpResult squeeze(const TensorLayout& t, int64_t dim);
/// Size-1 dimensions broadcast with stride 0; -1 keeps a size; new leading dimensions allowed. A 0-d
/// tensor expands with every stride 0, even for a size of 1 (ATen's inferExpandGeometry).
TensorOpResult expand(const TensorLayout& t, const std::vector<int64_t>& sizes);
/// flatten(start, end): reshape that merges dimensions start..end (a view when possible).
TensorOpResult flatten(const TensorLayout& t, int64_t startDim, int64_t endDim, int newStorageId);
TensorOpResult narrow(const TensorLayout& t, int64_t dim, int64_t start, int64_t length);
/// select(dim, index): the dimension removed, offset += index·stride[dim]; index may be negative.
TensorOpResult select(const TensorLayout& t, int64_t dim, int64_t index);
/// x[i] on dimension `dim`: select() with indexing's messages ("index 5 is out of bounds ..."). Those
/// name the item's `position` in the index as its dimension, as PyTorch does: x[None, 5] of a 2×3
/// tensor fails "for dimension 1 with size 2".
TensorOpResult indexSelect(const TensorLayout& t, int dim, int64_t index, int position);
/// Python slice start:stop:step on `dim` (step > 0), clamped as Python clamps.
TensorOpResult slice(const TensorLayout& t, int dim, std::optional<int64_t> start,
                     std::optional<int64_t> stop, int64_t step);
/// unfold(dim, size, step): dim becomes (n - size)/step + 1 with stride step·s, and a new last
/// dimension of `size` with stride s.
TensorOpResult unfold(const TensorLayout& t, int64_t dim, int64_t size, int64_t step);
/// diagonal(offset, dim1, dim2): both dims removed, a last dimension with stride s1 + s2 appended.
TensorOpResult diagonal(const TensorLayout& t, int64_t offset, int64_t dim1, int64_t dim2);

} // namespace napkin
