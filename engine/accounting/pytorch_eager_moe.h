// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pytorch-eager profile's mixture of experts: Mixtral's sparse MoE block in a Llama-style decoder,
// written as Hugging Face's modeling_mixtral.py eager path (MixtralSparseMoeBlock) writes it: a router
// Linear(d, E) without bias, softmax over the experts in fp32, top-k, renormalised, cast back; a loop over
// the experts that gathers each one's tokens by index (x[None, top_x_list]), runs its SwiGLU, multiplies
// by the token's routing weight and index_add_s the product into the output, skipping an expert no token
// chose. Every row is a tensor torch 1.13 saves (tests/validation/ measures it, expert by expert).
#include "engine/accounting/pytorch_eager_rows.h"

#include <string>

namespace napkin {

/// Why a Llama-style mixture of experts is outside what these rows describe (shared experts, dense-first
/// layers, a router bias: DeepSeek's and Qwen-MoE's refinements), or empty.
std::string moeEagerUnsupported(const ModelSpec& model);

/// The MLP's rows after its norm (whose output the router and every expert's gather read): the router's
/// and the top-k's per-token tensors, then each expert's per routed token slot (Rows::routed).
void mixtralMoeRows(eager::Rows& rows, const ModelSpec& model);

} // namespace napkin
