// SPDX-License-Identifier: GPL-3.0-or-later
// The evaluator half of tensor_expression.h: runs parsed calls through tensor_ops.h.
#include "engine/tensor/tensor_expression.h"

#include "engine/tensor/tensor_ops.h"

#include <algorithm>

namespace napkin {
namespace {

// x[...]: ints select, slices slice, None unsqueezes, `...` skips the dimensions nobody named —
// the order in which torch/csrc/autograd/python_variable_indexing.cpp applies them.
TensorOpResult applyIndexing(const TensorLayout& x, const std::vector<TensorIndex>& indices) {
    int specified = 0;
    for (const TensorIndex& item : indices)
        if (item.kind == TensorIndex::Kind::integer || item.kind == TensorIndex::Kind::slice)
            ++specified;
    if (specified > x.dim()) {
        // A lone x[i] or x[a:b] of a 0-d tensor goes straight to select() or slice(), which refuse it
        // in their own words; a tuple meets the count check first (x[None, 0]: "too many indices").
        if (indices.size() == 1 && indices[0].kind == TensorIndex::Kind::integer)
            return indexSelect(x, 0, indices[0].integer, 0);
        if (indices.size() == 1)
            return slice(x, 0, indices[0].start, indices[0].stop, indices[0].step);
        TensorOpResult r;
        r.error = "too many indices for tensor of dimension " + std::to_string(x.dim());
        return r;
    }
    TensorOpResult current;
    current.layout = x;
    int dim = 0;
    for (std::size_t position = 0; position < indices.size(); ++position) {
        const TensorIndex& item = indices[position];
        switch (item.kind) {
        case TensorIndex::Kind::integer:
            current = indexSelect(current.layout, dim, item.integer, static_cast<int>(position));
            break;
        case TensorIndex::Kind::slice:
            current = slice(current.layout, dim, item.start, item.stop, item.step);
            ++dim;
            break;
        case TensorIndex::Kind::none:
            current = unsqueeze(current.layout, dim);
            ++dim;
            break;
        case TensorIndex::Kind::ellipsis:
            dim += x.dim() - specified;
            break;
        }
        if (!current.ok())
            return current;
    }
    return current;
}

TensorOpResult apply(const TensorLayout& t, const TensorOpCall& call, int newStorageId) {
    const auto& a = call.args;
    switch (call.kind) {
    case TensorOpKind::index:
        return applyIndexing(t, call.indices);
    case TensorOpKind::view:
        return view(t, call.sizes);
    case TensorOpKind::reshape:
        return reshape(t, call.sizes, newStorageId);
    case TensorOpKind::expand:
        return expand(t, call.sizes);
    case TensorOpKind::permute:
        return permute(t, call.sizes);
    case TensorOpKind::transpose:
        return transpose(t, *a[0], *a[1]);
    case TensorOpKind::t:
        return transpose2d(t);
    case TensorOpKind::T:
        return reverseDims(t);
    case TensorOpKind::mT:
        return matrixTranspose(t);
    case TensorOpKind::contiguous:
        return contiguous(t, newStorageId);
    case TensorOpKind::clone:
        return clone(t, newStorageId);
    case TensorOpKind::unsqueeze:
        return unsqueeze(t, *a[0]);
    case TensorOpKind::squeeze:
        return a[0] ? squeeze(t, *a[0]) : squeeze(t);
    case TensorOpKind::flatten:
        return flatten(t, *a[0], *a[1], newStorageId);
    case TensorOpKind::narrow:
        return narrow(t, *a[0], *a[1], *a[2]);
    case TensorOpKind::select:
        return select(t, *a[0], *a[1]);
    case TensorOpKind::unfold:
        return unfold(t, *a[0], *a[1], *a[2]);
    case TensorOpKind::diagonal:
        return diagonal(t, *a[0], *a[1], *a[2]);
    }
    TensorOpResult r;
    r.error = "unsupported operation";
    return r;
}

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

} // namespace

TensorEvaluation evaluateTensorExpression(std::string_view text, const std::vector<int64_t>& shape,
                                          int64_t elementBytes) {
    TensorEvaluation out;
    TensorStep x;
    x.expr = "x";
    x.layout = freshTensor(shape, elementBytes, 0);
    x.isView = false; // x owns its storage: allocated here, nothing copied into it
    x.bytesAllocated = x.layout.storageBytes();
    out.steps.push_back(x);

    const ParsedTensorExpression parsed = parseTensorExpression(text);
    int nextStorageId = 1;
    for (const TensorOpCall& call : parsed.calls) {
        const TensorLayout& input = out.steps.back().layout;
        const TensorOpResult r = apply(input, call, nextStorageId);
        if (!r.ok()) {
            out.error = TensorExpressionError{static_cast<int>(out.steps.size()), r.error, std::nullopt};
            return out;
        }
        TensorStep step;
        step.expr = trimmed(text.substr(0, call.end));
        step.layout = r.layout;
        step.isView = !r.copied;
        if (r.copied) {
            ++nextStorageId;
            step.bytesAllocated = r.layout.storageBytes();
            step.bytesCopied = r.layout.numel() * r.layout.elementBytes;
        }
        out.steps.push_back(std::move(step));
    }
    if (!parsed.ok())
        out.error = TensorExpressionError{static_cast<int>(out.steps.size()),
                                          "position " + std::to_string(parsed.errorAt) + ": " + parsed.error,
                                          parsed.errorAt};
    return out;
}

} // namespace napkin
