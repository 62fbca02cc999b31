// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A training run's memory, predicted by the accounting and checked against this machine before a byte is
// allocated: a Cruncher too large for the machine is refused with both figures instead of dying with
// std::bad_alloc (or being killed by the kernel) part-way through allocating.
#include "engine/compute/cruncher_config.h"

#include <string>

namespace napkin {

/// This machine's physical memory in bytes (sysconf); 0 when the system does not say.
double physicalMemoryBytes();

/// Empty when the accounting's bytes for training `config` (parameters, gradients, master weights,
/// optimizer state and activations: the napkin sum, at or above the peak) fit in half of
/// `physicalBytes` (the rule the CPU matmul sweep uses: past it a run swaps rather than measures);
/// otherwise the refusal with both figures. `physicalBytes` of 0 (unknown) refuses nothing.
std::string cpuTrainingMemoryRefusal(const CruncherConfig& config, double physicalBytes);

} // namespace napkin
