// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/tensor/tensor_layout.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace napkin {

std::optional<TensorDType> tensorDTypeFromName(std::string_view name) {
    struct Entry {
        std::string_view name;
        int64_t bytes;
    };
    static constexpr Entry kTable[] = {
        {"fp32", 4},  {"fp16", 2},  {"bf16", 2},  {"fp8", 1},  {"fp8-e4m3", 1}, {"fp8-e5m2", 1}, {"fp64", 8},
        {"int64", 8}, {"int32", 4}, {"int16", 2}, {"int8", 1}, {"uint8", 1},    {"bool", 1},
    };
    for (const Entry& e : kTable)
        if (e.name == name)
            return TensorDType{std::string(e.name), e.bytes};
    return std::nullopt;
}

std::vector<std::string> tensorDTypeNames() {
    return {"fp32",  "fp16",  "bf16",  "fp8",  "fp8-e4m3", "fp8-e5m2", "fp64",
            "int64", "int32", "int16", "int8", "uint8",    "bool"};
}

int64_t TensorLayout::numel() const {
    // A zero anywhere means no elements, even when the other sizes multiply past int64 (fuzzing found
    // views of empty tensors with such sizes); non-empty shapes are bounded by the operations.
    if (std::find(shape.begin(), shape.end(), 0) != shape.end())
        return 0;
    int64_t n = 1;
    for (int64_t size : shape)
        if (__builtin_mul_overflow(n, size, &n))
            return std::numeric_limits<int64_t>::max();
    return n;
}

std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& shape) {
    std::vector<int64_t> stride(shape.size(), 1);
    int64_t running = 1;
    bool saturated = false; // only reachable for empty tensors, whose strides address nothing
    for (std::size_t d = shape.size(); d-- > 0;) {
        stride[d] = saturated ? std::numeric_limits<int64_t>::max() : running;
        if (!saturated && __builtin_mul_overflow(running, std::max<int64_t>(shape[d], 1), &running))
            saturated = true;
    }
    return stride;
}

TensorLayout freshTensor(const std::vector<int64_t>& shape, int64_t elementBytes, int storageId) {
    TensorLayout t;
    t.shape = shape;
    t.stride = contiguousStrides(shape);
    t.elementBytes = elementBytes;
    t.storageId = storageId;
    t.storageElements = t.numel();
    return t;
}

bool isContiguous(const TensorLayout& t) {
    if (t.numel() == 0)
        return true;
    int64_t expected = 1;
    for (int d = t.dim() - 1; d >= 0; --d) {
        if (t.shape[d] == 1)
            continue; // a size-1 dimension is never stepped along, so its stride is irrelevant
        if (t.stride[d] != expected)
            return false;
        expected *= t.shape[d];
    }
    return true;
}

bool isNonOverlappingAndDense(const TensorLayout& t) {
    if (isContiguous(t))
        return true; // as TensorImpl: is_contiguous || compute_non_overlapping_and_dense
    const int n = t.dim();
    if (n == 1)
        return t.shape[0] < 2 || t.stride[0] == 1;
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    // Innermost first; size-0/1 dimensions go last because their strides do not matter.
    std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) {
        if (t.shape[a] < 2)
            return false;
        if (t.shape[b] < 2)
            return true;
        return t.stride[a] < t.stride[b];
    });
    int64_t required = 1;
    for (int d : perm) {
        if (t.shape[d] < 2)
            return true;
        if (t.stride[d] != required)
            return false;
        required *= t.shape[d];
    }
    return true;
}

std::vector<int64_t> denseStridesLike(const std::vector<int64_t>& shape, const std::vector<int64_t>& stride) {
    const std::size_t n = shape.size();
    if (n == 0)
        return {};
    if (n == 1)
        return {1};
    // Mirrors ATen's infer_dense_strides, which sorts as TensorIterator does so that every op that
    // allocates "like" its input agrees. The order matters to the last tie, so this is its insertion
    // sort, not std::sort: `order` lists dimensions innermost first, starting from row-major.
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = n - 1 - i;
    // +1: a must lie outside b; -1: inside; 0: no opinion (a stride 0, or equal strides and a is not
    // the larger). "No opinion" does not stop the scan: the moving dimension may still swap with one
    // further in, jumping over the undecided ones, which is how a stride-0 dimension keeps its place.
    auto compare = [&](std::size_t a, std::size_t b) {
        if (stride[a] == 0 || stride[b] == 0)
            return 0;
        if (stride[a] != stride[b])
            return stride[a] < stride[b] ? -1 : 1;
        return shape[a] > shape[b] ? 1 : 0;
    };
    for (std::size_t i = 1; i < n; ++i) {
        std::size_t moving = i;
        for (std::size_t k = i; k-- > 0;) {
            const int c = compare(order[k], order[moving]);
            if (c < 0)
                break;
            if (c > 0) {
                std::swap(order[k], order[moving]);
                moving = k;
            }
        }
    }
    std::vector<int64_t> dense(n, 1);
    int64_t running = 1;
    for (std::size_t d : order) {
        dense[d] = running;
        // Only empty tensors can carry sizes whose product passes int64; their strides address nothing.
        if (shape[d] > 1 && __builtin_mul_overflow(running, shape[d], &running))
            running = std::numeric_limits<int64_t>::max();
    }
    return dense;
}

std::vector<int64_t> preserveFormatStrides(const TensorLayout& t) {
    // at::empty_like(preserve_format): a non-overlapping and dense input is copied stride for stride
    // (empty_strided); any other strided input gets infer_dense_strides. Its suggest_memory_format
    // (channels_last) branch is only for tensors that are not strided, which Napkin has none of.
    if (isNonOverlappingAndDense(t))
        return t.stride;
    return denseStridesLike(t.shape, t.stride);
}

int64_t storageOffsetOf(const TensorLayout& t, const std::vector<int64_t>& index) {
    int64_t at = t.offset;
    for (std::size_t d = 0; d < index.size() && d < t.stride.size(); ++d)
        at += index[d] * t.stride[d];
    return at;
}

std::optional<std::vector<int64_t>> elementOffsets(const TensorLayout& t, int64_t limit) {
    const int64_t count = t.numel();
    if (count > limit)
        return std::nullopt;
    std::vector<int64_t> offsets;
    offsets.reserve(static_cast<std::size_t>(count));
    if (count == 0)
        return offsets;
    std::vector<int64_t> index(t.shape.size(), 0);
    for (int64_t i = 0; i < count; ++i) {
        offsets.push_back(storageOffsetOf(t, index));
        for (int d = t.dim() - 1; d >= 0; --d) { // odometer: last index fastest
            if (++index[d] < t.shape[d])
                break;
            index[d] = 0;
        }
    }
    return offsets;
}

std::string storageOffsetFormula(const TensorLayout& t, const std::vector<int64_t>& index) {
    std::string text;
    if (t.offset != 0)
        text = std::to_string(t.offset);
    for (std::size_t d = 0; d < index.size() && d < t.stride.size(); ++d) {
        if (!text.empty())
            text += " + ";
        text += std::to_string(index[d]) + "·" + std::to_string(t.stride[d]);
    }
    if (text.empty())
        text = "0";
    return text + " = " + std::to_string(storageOffsetOf(t, index));
}

std::optional<std::vector<int64_t>> parseShapeText(std::string_view text, std::string* error) {
    std::vector<int64_t> shape;
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
        // A blank shape is far more often a script's empty variable than a wish for a scalar.
        *error = "the shape is blank; write () for a 0-d tensor";
        return std::nullopt;
    }
    const std::string_view trimmed = text.substr(first, text.find_last_not_of(" \t") - first + 1);
    if (trimmed.front() == '(' && trimmed.back() == ')' &&
        trimmed.substr(1, trimmed.size() - 2).find_first_not_of(" \t") == std::string_view::npos)
        return shape; // "()" or "( )": a 0-d tensor
    double elements = 1;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        std::string_view part = text.substr(start, comma - start);
        while (!part.empty() && part.front() == ' ')
            part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ')
            part.remove_suffix(1);
        int64_t value = 0;
        bool ok = !part.empty() && part.size() <= 15;
        for (char c : part) {
            ok = ok && c >= '0' && c <= '9';
            if (!ok)
                break; // found by fuzzing: "value * 10" ran on for parts longer than 15 digits
            value = value * 10 + (c - '0');
        }
        if (!ok) {
            *error = "expected sizes as non-negative integers separated by commas (2,3), got '" +
                     std::string(text) + "'";
            return std::nullopt;
        }
        shape.push_back(value);
        elements *= static_cast<double>(std::max<int64_t>(value, 1)); // a zero size still has strides
        start = comma + 1;
    }
    if (elements > 1e15) {
        *error = "more than 1e15 elements";
        return std::nullopt;
    }
    return shape;
}

std::string formatShape(const std::vector<int64_t>& values) {
    std::string text = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i)
            text += ", ";
        text += std::to_string(values[i]);
    }
    return text + "]";
}

} // namespace napkin
