// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The accounting's answers must be numbers a reader can use: an input whose training time would overflow
// a double (a vanishing MFU) is refused with the reason, never answered with inf or a JSON null.
#include "engine/accounting/accounting.h"

namespace napkin {

/// Largest training time, in seconds, that the accounting answers with (1e300 s; days and GPU-days stay
/// finite below it).
inline constexpr double kMaxAnsweredSeconds = 1e300;

/// Checks that `input`'s training time, model FLOPs / (MFU · peak · GPUs) as account() computes it, stays
/// within kMaxAnsweredSeconds. Precondition: the rest of validate() passed and `gpu` is the input's GPU.
InputError checkFiniteAnswers(const AccountingInput& input, const GpuSpec& gpu);

} // namespace napkin
