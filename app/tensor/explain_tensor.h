// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "How is this computed?" for the Tensor layout page: where an element lives in storage
// (offset + Σ index·stride), when a tensor is contiguous, and why a view fails, with the shown step's
// numbers substituted.
#include "engine/tensor/tensor_expression.h"

#include <QString>

#include <vector>

/// The element the explanation works through: index[d] = min(d + 1, size[d] − 1), so a 4×4 tensor
/// gives (1, 2) as in the lecture. Empty when the tensor has no elements.
std::vector<int64_t> exampleIndex(const napkin::TensorLayout& layout);
/// HTML for step `row` of `evaluation` (and its error, if the chain failed).
QString explainTensorStep(const napkin::TensorEvaluation& evaluation, int row);
