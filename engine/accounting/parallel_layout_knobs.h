// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parallel layout's numeric knobs (parallel_layout.h), declared once: the tensor, pipeline, context and
// expert parallel sizes, the micro-batches and the virtual stages. Validation (validateLayout's ranges),
// the scenario file's accounting.parallel, napkin-cli's account options, the command line Napkin prints and
// the Accounting page's Parallelism group read each one's range, words, flag and key here. Sequence
// parallelism is a switch, not a number: each front end places it after the pipeline stages itself.
#include "engine/accounting/number_knob.h"
#include "engine/accounting/parallel_layout.h"

#include <span>

namespace napkin {

/// tp, pp, cp, ep, microbatches, virtual_stages: the order validation checks them in, napkin-cli lists
/// them in and the page shows them in (--sp after pp); findNumberKnob(parallelLayoutKnobs(), "tp") finds one.
std::span<const NumberKnob<ParallelLayout>> parallelLayoutKnobs();

} // namespace napkin
