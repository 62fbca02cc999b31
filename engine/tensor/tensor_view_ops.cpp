// SPDX-License-Identifier: GPL-3.0-or-later
// The view-or-copy half of tensor_ops.h: infer_size, computeStride, view, reshape, contiguous,
// clone and flatten — the operations whose answer depends on whether the strides allow a view.
#include "engine/tensor/tensor_ops.h"

#include "engine/tensor/tensor_ops_detail.h"

#include <algorithm>
#include <numeric>

namespace napkin {

using namespace detail;

std::optional<std::vector<int64_t>> inferSize(const std::vector<int64_t>& sizes, int64_t numel,
                                              std::string* error) {
    std::optional<std::size_t> inferred;
    int64_t known = 1;
    // Even with a zero size (no elements), the other sizes must multiply to something representable:
    // strides are products of sizes. 2^50 keeps every byte count exact too.
    int64_t nonzero = 1;
    for (int64_t size : sizes)
        if (size > 0 && (__builtin_mul_overflow(nonzero, size, &nonzero) || nonzero > (int64_t{1} << 50))) {
            *error =
                "shape '" + formatShape(sizes) + "' is invalid for input of size " + std::to_string(numel);
            return std::nullopt;
        }
    for (std::size_t d = 0; d < sizes.size(); ++d) {
        if (sizes[d] == -1) {
            if (inferred) {
                *error = "only one dimension can be inferred";
                return std::nullopt;
            }
            inferred = d;
        } else if (sizes[d] >= 0) {
            if (__builtin_mul_overflow(known, sizes[d], &known)) { // found by fuzzing: view(2424, 24244, ...)
                *error = "shape '" + formatShape(sizes) + "' is invalid for input of size " +
                         std::to_string(numel);
                return std::nullopt;
            }
        } else {
            *error = "invalid shape dimension " + std::to_string(sizes[d]);
            return std::nullopt;
        }
    }
    std::vector<int64_t> result = sizes;
    if (numel == known || (inferred && known > 0 && numel % known == 0)) {
        if (inferred) {
            if (known == 0) { // the -1 could be anything when the other sizes give no elements
                *error = "cannot reshape tensor of 0 elements into shape " + formatShape(sizes) +
                         " because the unspecified dimension size -1 can be any value and is ambiguous";
                return std::nullopt;
            }
            result[*inferred] = numel / known;
        }
        return result;
    }
    *error = "shape '" + formatShape(sizes) + "' is invalid for input of size " + std::to_string(numel);
    return std::nullopt;
}

std::optional<std::vector<int64_t>> viewStrides(const std::vector<int64_t>& oldShape,
                                                const std::vector<int64_t>& oldStride,
                                                const std::vector<int64_t>& newShape) {
    if (oldShape.empty())
        return std::vector<int64_t>(newShape.size(), 1);
    const int64_t numel = std::accumulate(oldShape.begin(), oldShape.end(), int64_t{1}, std::multiplies<>());
    if (numel == 0) {
        if (oldShape == newShape)
            return oldStride; // NumPy keeps the strides of an empty tensor whose shape is unchanged
        return contiguousStrides(newShape);
    }
    // Walk the old dimensions from the innermost outwards, grouping them into "chunks": runs of
    // dimensions that are contiguous with each other (stride[d-1] == size[d]·stride[d]). Each
    // chunk behaves like one flat dimension with stride `chunkBase`, and the new dimensions must
    // split every chunk exactly: a new dimension may not straddle two chunks.
    std::vector<int64_t> newStride(newShape.size(), 0);
    int viewD = static_cast<int>(newShape.size()) - 1;
    int64_t chunkBase = oldStride.back();
    int64_t chunkNumel = 1;
    int64_t viewNumel = 1;
    for (int d = static_cast<int>(oldShape.size()) - 1; d >= 0; --d) {
        chunkNumel *= oldShape[d];
        const bool chunkEnds = d == 0 || (oldShape[d - 1] != 1 && oldStride[d - 1] != chunkNumel * chunkBase);
        if (!chunkEnds)
            continue;
        while (viewD >= 0 && (viewNumel < chunkNumel || newShape[viewD] == 1)) {
            newStride[viewD] = viewNumel * chunkBase;
            viewNumel *= newShape[viewD];
            --viewD;
        }
        if (viewNumel != chunkNumel)
            return std::nullopt;
        if (d > 0) {
            chunkBase = oldStride[d - 1];
            chunkNumel = 1;
            viewNumel = 1;
        }
    }
    if (viewD != -1)
        return std::nullopt;
    return newStride;
}

TensorOpResult view(const TensorLayout& t, const std::vector<int64_t>& sizes) {
    std::string error;
    const auto shape = inferSize(sizes, t.numel(), &error);
    if (!shape)
        return fail(error);
    const auto stride = viewStrides(t.shape, t.stride, *shape);
    if (!stride)
        return fail("view size is not compatible with input tensor's size and stride (at least one dimension "
                    "spans across two contiguous subspaces). Use .reshape(...) instead.");
    TensorLayout out = t;
    out.shape = *shape;
    out.stride = *stride;
    return viewOf(out);
}

TensorOpResult reshape(const TensorLayout& t, const std::vector<int64_t>& sizes, int newStorageId) {
    std::string error;
    const auto shape = inferSize(sizes, t.numel(), &error);
    if (!shape)
        return fail(error);
    if (const auto stride = viewStrides(t.shape, t.stride, *shape)) {
        TensorLayout out = t;
        out.shape = *shape;
        out.stride = *stride;
        return viewOf(out);
    }
    // ATen: _unsafe_view(self.clone(at::MemoryFormat::Contiguous), shape)
    TensorOpResult r = copyOf(t, contiguousStrides(*shape), newStorageId);
    r.layout.shape = *shape;
    return r;
}

TensorOpResult contiguous(const TensorLayout& t, int newStorageId) {
    if (isContiguous(t))
        return viewOf(t);
    return copyOf(t, contiguousStrides(t.shape), newStorageId);
}

TensorOpResult clone(const TensorLayout& t, int newStorageId) {
    // ATen's clone(memory_format=preserve_format) allocates with empty_like's strides.
    return copyOf(t, preserveFormatStrides(t), newStorageId);
}

TensorOpResult flatten(const TensorLayout& t, int64_t startDim, int64_t endDim, int newStorageId) {
    std::string error;
    const auto s = wrapDim(startDim, t.dim(), &error);
    if (!s)
        return fail(error);
    const auto e = wrapDim(endDim, t.dim(), &error);
    if (!e)
        return fail(error);
    if (*s > *e)
        return fail("flatten() has invalid args: start_dim cannot come after end_dim");
    if (t.dim() == 0)
        return reshape(t, {1}, newStorageId);
    if (*s == *e)
        return viewOf(t);
    std::vector<int64_t> shape(t.shape.begin(), t.shape.begin() + *s);
    int64_t merged = 1;
    for (int d = *s; d <= *e; ++d)
        merged *= t.shape[d];
    shape.push_back(merged);
    shape.insert(shape.end(), t.shape.begin() + *e + 1, t.shape.end());
    return reshape(t, shape, newStorageId);
}

} // namespace napkin
