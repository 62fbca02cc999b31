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
    if (first == std::string_view::npos || text.substr(first) == "()")
        return shape; // a 0-d tensor
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
