// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PyTorch's Python spelling of view/copy chains, starting from `x`:
//   x.transpose(1,0).contiguous().view(2,3)    x[:, 1:3].T    x[..., None]    x.flatten(start_dim=1)
// parseTensorExpression() turns the text into calls (or a precise error with position);
// evaluateTensorExpression() runs them on a fresh contiguous tensor and records every step.
#include "engine/tensor/tensor_layout.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

enum class TensorOpKind {
    index,
    view,
    reshape,
    expand,
    permute,
    transpose,
    t,
    T,
    mT,
    contiguous,
    clone,
    unsqueeze,
    squeeze,
    flatten,
    narrow,
    select,
    unfold,
    diagonal
};

/// One item inside x[...]: an integer, a slice start:stop:step, `...` or `None`.
struct TensorIndex {
    enum class Kind { integer, slice, ellipsis, none } kind = Kind::integer;
    int64_t integer = 0;
    std::optional<int64_t> start, stop;
    int64_t step = 1;
};

/// One operation in the chain, with its arguments bound to the method's parameters.
struct TensorOpCall {
    TensorOpKind kind = TensorOpKind::index;
    std::vector<int64_t> sizes;               ///< view/reshape/expand sizes, permute dims
    std::vector<std::optional<int64_t>> args; ///< named parameters in declaration order (defaults filled)
    std::vector<TensorIndex> indices;         ///< for TensorOpKind::index
    std::size_t begin = 0, end = 0;           ///< the call's characters in the source: [begin, end)
};

struct ParsedTensorExpression {
    std::vector<TensorOpCall> calls; ///< on error: the calls parsed before it
    std::string error;               ///< empty when the whole text parsed
    std::size_t errorAt = 0;         ///< 0-based character position of the problem
    bool ok() const { return error.empty(); }
};

/// Parses "x" followed by method calls, properties (T, mT) and indexing. Integers only; keyword
/// arguments by PyTorch's parameter names (dim=, start_dim=, ...).
ParsedTensorExpression parseTensorExpression(std::string_view text);

/// One row of the chain: the expression so far and the tensor it denotes.
struct TensorStep {
    std::string expr; ///< "x", "x.transpose(1,0)", ...
    TensorLayout layout;
    bool isView = true;         ///< false: new storage was allocated (and, after steps[0], filled)
    int64_t bytesAllocated = 0; ///< bytes of new storage this step allocated (0 for a view)
    int64_t bytesCopied = 0;    ///< bytes this step copied (numel · element bytes for a copy)
};

struct TensorExpressionError {
    int step = 0;                        ///< index the failing operation would have had in steps
    std::string message;                 ///< PyTorch's message, or the parse error's reason
    std::optional<std::size_t> position; ///< character position, for parse errors
};

struct TensorEvaluation {
    std::vector<TensorStep> steps;              ///< steps[0] is x itself
    std::optional<TensorExpressionError> error; ///< the first failure; the steps before it are kept
};

/// Runs `text` on x = a fresh contiguous tensor of `shape` with `elementBytes` per element
/// (storage id 0; each copy takes the next id).
TensorEvaluation evaluateTensorExpression(std::string_view text, const std::vector<int64_t>& shape,
                                          int64_t elementBytes);

} // namespace napkin
