// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli infer`: serving a transformer: weights, KV cache, prefill and decode on the roofline.
#include "cli/command.h"

namespace napkin::cli {

Command addInferCommand(CLI::App& parent);

} // namespace napkin::cli
