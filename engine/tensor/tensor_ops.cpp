// SPDX-License-Identifier: GPL-3.0-or-later
// The shape-only half of tensor_ops.h: transpose, permute, (un)squeeze, expand, narrow, select,
// slicing, unfold and diagonal — always views, only shape, stride and offset change.
#include "engine/tensor/tensor_ops.h"

#include "engine/tensor/tensor_ops_detail.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace napkin {
namespace {
// offset += a·b without signed overflow. Empty tensors can carry sizes near int64's limit (fuzzing
// found them), so an index times a stride may not fit; such a layout is refused rather than wrapped.
bool addScaled(int64_t& offset, int64_t a, int64_t b) {
    int64_t product = 0;
    return !__builtin_mul_overflow(a, b, &product) && !__builtin_add_overflow(offset, product, &offset);
}
const char* const kOffsetOverflow = "the storage offset would overflow int64";
} // namespace
using namespace detail;

std::optional<int> wrapDim(int64_t dim, int ndim, std::string* error) {
    const int64_t n = std::max(ndim, 1); // a 0-d tensor behaves as 1-d for dim arguments
    if (dim < -n || dim > n - 1) {
        if (error)
            *error = "Dimension out of range (expected to be in range of [" + std::to_string(-n) + ", " +
                     std::to_string(n - 1) + "], but got " + std::to_string(dim) + ")";
        return std::nullopt;
    }
    return static_cast<int>(dim < 0 ? dim + n : dim);
}

TensorOpResult transpose(const TensorLayout& t, int64_t dim0, int64_t dim1) {
    std::string error;
    const auto a = wrapDim(dim0, t.dim(), &error);
    if (!a)
        return fail(error);
    const auto b = wrapDim(dim1, t.dim(), &error);
    if (!b)
        return fail(error);
    TensorLayout out = t;
    if (t.dim() > 0) {
        std::swap(out.shape[*a], out.shape[*b]);
        std::swap(out.stride[*a], out.stride[*b]);
    }
    return viewOf(out);
}

TensorOpResult transpose2d(const TensorLayout& t) {
    if (t.dim() > 2)
        return fail("t() expects a tensor with <= 2 dimensions, but self is " + std::to_string(t.dim()) +
                    "D");
    if (t.dim() < 2)
        return viewOf(t);
    return transpose(t, 0, 1);
}

TensorOpResult reverseDims(const TensorLayout& t) {
    TensorLayout out = t;
    std::reverse(out.shape.begin(), out.shape.end());
    std::reverse(out.stride.begin(), out.stride.end());
    return viewOf(out);
}

TensorOpResult matrixTranspose(const TensorLayout& t) {
    // ATen's _adjoint: a 0-d tensor is returned as is; only 1-D is refused.
    if (t.dim() == 0)
        return viewOf(t);
    if (t.dim() == 1)
        return fail("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.");
    return transpose(t, -2, -1);
}

TensorOpResult permute(const TensorLayout& t, const std::vector<int64_t>& dims) {
    if (static_cast<int>(dims.size()) != t.dim())
        return fail(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of "
            "the desired ordering of dimensions i.e. input.dim() = " +
            std::to_string(t.dim()) + " is not equal to len(dims) = " + std::to_string(dims.size()));
    TensorLayout out = t;
    std::vector<bool> seen(dims.size(), false);
    for (std::size_t i = 0; i < dims.size(); ++i) {
        std::string error;
        const auto d = wrapDim(dims[i], t.dim(), &error);
        if (!d)
            return fail(error);
        if (seen[*d])
            return fail("permute(): duplicate dims are not allowed.");
        seen[*d] = true;
        out.shape[i] = t.shape[*d];
        out.stride[i] = t.stride[*d];
    }
    return viewOf(out);
}

TensorOpResult unsqueeze(const TensorLayout& t, int64_t dim) {
    std::string error;
    const auto d = wrapDim(dim, t.dim() + 1, &error);
    if (!d)
        return fail(error);
    // The new size-1 dimension gets the stride it would have in a contiguous tensor of its place.
    // Empty tensors may carry sizes whose product passes int64 (fuzzing); a size-1 stride is never used
    // to address an element, so saturating it is harmless.
    int64_t stride = 1;
    if (*d < t.dim() && __builtin_mul_overflow(t.shape[*d], t.stride[*d], &stride))
        stride = std::numeric_limits<int64_t>::max();
    TensorLayout out = t;
    out.shape.insert(out.shape.begin() + *d, 1);
    out.stride.insert(out.stride.begin() + *d, stride);
    return viewOf(out);
}

TensorOpResult squeeze(const TensorLayout& t) {
    TensorLayout out = t;
    for (int d = out.dim() - 1; d >= 0; --d)
        if (out.shape[d] == 1)
            eraseDim(out, d);
    return viewOf(out);
}

TensorOpResult squeeze(const TensorLayout& t, int64_t dim) {
    std::string error;
    const auto d = wrapDim(dim, t.dim(), &error);
    if (!d)
        return fail(error);
    TensorLayout out = t;
    if (t.dim() > 0 && t.shape[*d] == 1)
        eraseDim(out, *d);
    return viewOf(out);
}

TensorOpResult expand(const TensorLayout& t, const std::vector<int64_t>& sizes) {
    const int n = static_cast<int>(sizes.size());
    if (n < t.dim())
        return fail("expand: the number of sizes provided (" + std::to_string(n) +
                    ") must be greater or equal to the number of dimensions in the tensor (" +
                    std::to_string(t.dim()) + ")");
    // The result must still count its elements in 64 bits (PyTorch's numel is int64 too).
    int64_t elements = 1;
    for (int i = 0; i < n; ++i) {
        const int d = t.dim() - (n - i);
        const int64_t target = sizes[i] == -1 && d >= 0 ? t.shape[d] : sizes[i];
        // 2^50 elements keeps every byte count (× up to 8 bytes) exact in int64 and in a double.
        if (target > 0 &&
            (__builtin_mul_overflow(elements, target, &elements) || elements > (int64_t{1} << 50)))
            return fail("expand: the expanded tensor " + formatShape(sizes) +
                        " would have more than 2^50 elements, Napkin's limit");
    }
    TensorLayout out = t;
    out.shape.assign(n, 0);
    out.stride.assign(n, 0);
    for (int i = n - 1; i >= 0; --i) {
        const int d = t.dim() - (n - i); // the matching input dimension, counted from the right
        int64_t size = d >= 0 ? t.shape[d] : 1;
        // A new leading dimension strides over the block that follows it, except that ATen's
        // inferExpandGeometry gives a 0-d input every stride 0, sizes of 1 too. When the block's size
        // overflows, the new size is 1 or broadcast (stride 0), so that stride is never used.
        int64_t stride = 1;
        if (d >= 0)
            stride = t.stride[d];
        else if (t.dim() == 0 || __builtin_mul_overflow(out.shape[i + 1], out.stride[i + 1], &stride))
            stride = 0;
        int64_t target = sizes[i];
        if (target == -1) {
            if (d < 0)
                return fail("The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                            "dimension " +
                            std::to_string(i));
            target = size;
        }
        if (target < 0)
            return fail("Trying to create tensor with negative dimension " + std::to_string(target) + ": " +
                        formatShape(sizes));
        if (size != target) {
            if (size != 1)
                return fail("The expanded size of the tensor (" + std::to_string(target) +
                            ") must match the existing size (" + std::to_string(size) +
                            ") at non-singleton dimension " + std::to_string(i) + ".  Target sizes: " +
                            formatShape(sizes) + ".  Tensor sizes: " + formatShape(t.shape));
            size = target;
            stride = 0; // every index along a broadcast dimension reads the same element
        }
        out.shape[i] = size;
        out.stride[i] = stride;
    }
    return viewOf(out);
}

TensorOpResult narrow(const TensorLayout& t, int64_t dim, int64_t start, int64_t length) {
    if (t.dim() == 0)
        return fail("narrow() cannot be applied to a 0-dim tensor.");
    if (length < 0)
        return fail("narrow(): length must be non-negative.");
    std::string error;
    const auto d = wrapDim(dim, t.dim(), &error);
    if (!d)
        return fail(error);
    const int64_t size = t.shape[*d];
    if (start < -size || start > size)
        return fail("start out of range (expected to be in range of [" + std::to_string(-size) + ", " +
                    std::to_string(size) + "], but got " + std::to_string(start) + ")");
    if (start < 0)
        start += size;
    if (start > size - length)
        return fail("start (" + std::to_string(start) + ") + length (" + std::to_string(length) +
                    ") exceeds dimension size (" + std::to_string(size) + ").");
    return slice(t, *d, start, start + length, 1);
}

TensorOpResult select(const TensorLayout& t, int64_t dim, int64_t index) {
    if (t.dim() == 0)
        return fail("select() cannot be applied to a 0-dim tensor.");
    std::string error;
    const auto d = wrapDim(dim, t.dim(), &error);
    if (!d)
        return fail(error);
    const int64_t size = t.shape[*d];
    if (index < -size || index >= size)
        return fail("select(): index " + std::to_string(index) + " out of range for tensor of size " +
                    formatShape(t.shape) + " at dimension " + std::to_string(*d));
    return indexSelect(t, *d, index, *d);
}

TensorOpResult indexSelect(const TensorLayout& t, int dim, int64_t index, int position) {
    if (t.dim() == 0 && index == 0)
        return fail(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
            "to convert a 0-dim tensor to a number");
    // Any other index of a 0-d tensor fails the bounds check, which PyTorch reports with size 0.
    const int64_t size = t.dim() == 0 ? 0 : t.shape[dim];
    if (index < -size || index >= size)
        return fail("index " + std::to_string(index) + " is out of bounds for dimension " +
                    std::to_string(position) + " with size " + std::to_string(size));
    if (index < 0)
        index += size;
    TensorLayout out = t;
    if (!addScaled(out.offset, index, t.stride[dim]))
        return fail(kOffsetOverflow);
    eraseDim(out, dim);
    return viewOf(out);
}

TensorOpResult slice(const TensorLayout& t, int dim, std::optional<int64_t> start,
                     std::optional<int64_t> stop, int64_t step) {
    if (step <= 0)
        return fail(step == 0 ? "slice step cannot be zero" : "step must be greater than zero");
    if (t.dim() == 0)
        return fail("slice() cannot be applied to a 0-dim tensor.");
    const int64_t size = t.shape[dim];
    // Python's clamping for a positive step: negatives count from the end, then clamp to [0, size].
    auto clampIndex = [size](int64_t i) {
        if (i < 0)
            i += size;
        return std::clamp<int64_t>(i, 0, size);
    };
    const int64_t from = start ? clampIndex(*start) : 0;
    const int64_t to = std::max(from, stop ? clampIndex(*stop) : size);
    TensorLayout out = t;
    if (!addScaled(out.offset, from, t.stride[dim]))
        return fail(kOffsetOverflow);
    out.shape[dim] = to == from ? 0 : (to - from - 1) / step + 1; // no overflow for any step (fuzzing)
    if (__builtin_mul_overflow(t.stride[dim], step, &out.stride[dim]))
        return fail("slice step " + std::to_string(step) + " is too large: stride × step overflows int64");
    return viewOf(out);
}

TensorOpResult unfold(const TensorLayout& t, int64_t dim, int64_t size, int64_t step) {
    std::string error;
    const auto d = wrapDim(dim, t.dim(), &error);
    if (!d)
        return fail(error);
    const int64_t maxSize = t.dim() == 0 ? 1 : t.shape[*d];
    if (size > maxSize)
        return fail("maximum size for tensor at dimension " + std::to_string(*d) + " is " +
                    std::to_string(maxSize) + " but size is " + std::to_string(size));
    if (size < 0)
        return fail("size is " + std::to_string(size) + " but must be >= 0");
    if (step <= 0)
        return fail("step is " + std::to_string(step) + " but must be > 0");
    TensorLayout out = t;
    if (t.dim() == 0) {
        out.shape = {size};
        out.stride = {1};
        return viewOf(out);
    }
    out.shape[*d] = (t.shape[*d] - size) / step + 1;
    if (__builtin_mul_overflow(step, t.stride[*d], &out.stride[*d]))
        return fail("unfold step " + std::to_string(step) + " is too large: step × stride overflows int64");
    out.shape.push_back(size);
    out.stride.push_back(t.stride[*d]);
    return viewOf(out);
}

TensorOpResult diagonal(const TensorLayout& t, int64_t offset, int64_t dim1, int64_t dim2) {
    std::string error;
    const auto a = wrapDim(dim1, t.dim(), &error);
    if (!a)
        return fail(error);
    const auto b = wrapDim(dim2, t.dim(), &error);
    if (!b)
        return fail(error);
    if (*a == *b)
        return fail("diagonal dimensions cannot be identical " + std::to_string(dim1) + ", " +
                    std::to_string(dim2));
    if (t.dim() < 2)
        return fail("Dimension out of range (expected to be in range of [-1, 0], but got 1)");
    TensorLayout out = t;
    int64_t length = 0;
    if (offset >= 0) {
        length = std::max<int64_t>(std::min(t.shape[*a], t.shape[*b] - offset), 0);
        if (length > 0)
            if (!addScaled(out.offset, offset, t.stride[*b]))
                return fail(kOffsetOverflow);
    } else {
        length = std::max<int64_t>(std::min(t.shape[*a] + offset, t.shape[*b]), 0);
        if (length > 0)
            if (!addScaled(out.offset, -offset, t.stride[*a]))
                return fail(kOffsetOverflow);
    }
    int64_t stride = 0;
    if (__builtin_add_overflow(t.stride[*a], t.stride[*b], &stride))
        return fail("the diagonal's stride would overflow int64");
    eraseDim(out, std::max(*a, *b));
    eraseDim(out, std::min(*a, *b));
    out.shape.push_back(length);
    out.stride.push_back(stride);
    return viewOf(out);
}

} // namespace napkin
