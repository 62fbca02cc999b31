// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Cruncher checkpoint: one format and one loader for every backend, so a run can move between them.
// Layout (version 2): magic "NAPKCRU2"; int64 dim, layers, batch, optimizer, step; uint64 payload bytes;
// uint32 CRC-32 of the payload, uint32 0. The payload: every tensor the optimizer needs, per layer then
// the head (parameters, state 1, state 2; empty states left out) as raw little-endian floats; then the
// data generator's std::mt19937_64 state as text (its standard stream form) after an int64 length. Since
// the trainers draw their data from the counter-based generator (counter_normal.h), whose stream is a
// function of the seed and the step alone, that field holds cruncherCheckpointGenerator(config) and no
// trainer reads it back: the layout stays version 2's, so files written before still load.
// Version 1 ("NAPKCRU1": the same without payload size and checksum) is refused by name.
#include "engine/compute/cruncher_config.h"

#include <cstddef>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace napkin {

/// Most steps a checkpoint may record: 2^53, so the count and the next step print exactly everywhere.
inline constexpr long kMaxCheckpointStep = 1L << 53;

struct CruncherCheckpoint {
    long step = 0;                           ///< steps done when saved
    std::vector<std::vector<float>> tensors; ///< in the order above
    std::mt19937_64 dataGenerator;           ///< version 2's field: cruncherCheckpointGenerator (see above)
};

/// What the trainers write in the generator field: std::mt19937_64 seeded with config.seedData.
inline std::mt19937_64 cruncherCheckpointGenerator(const CruncherConfig& config) {
    return std::mt19937_64(config.seedData);
}

/// Why a Cruncher trained with `config` cannot be checkpointed, or empty. Frozen layers (config.frozenLayers)
/// are refused: the format records neither the frozen set nor a per-tensor step count, so a run resumed
/// with another set would start a newly trained layer's Adam state at the run's step, and a frozen layer's
/// missing state could not be told from an optimizer's zeros.
std::string checkpointRefusal(const CruncherConfig& config);

/// Writes `checkpoint` of a Cruncher trained with `config` through napkin::AtomicFile (never a half
/// file at `path`). Throws std::runtime_error (also with checkpointRefusal's reason).
void saveCruncherCheckpoint(const std::string& path, const CruncherConfig& config,
                            const CruncherCheckpoint& checkpoint);

/// Reads the whole file (a regular file no larger than this configuration's checkpoint can be) and checks
/// it before handing anything back: the magic and version, the configuration (it must be `config`'s), the
/// step (0 to kMaxCheckpointStep), the payload's size and CRC-32, each tensor's size (`tensorSizes`, in
/// floats) and that every value is finite, the generator state, and that nothing follows. A file that
/// fails any check throws std::runtime_error naming the file and what is wrong, so a trainer that loads
/// only a returned checkpoint is never left half-overwritten.
CruncherCheckpoint loadCruncherCheckpoint(const std::string& path, const CruncherConfig& config,
                                          std::span<const std::size_t> tensorSizes);

} // namespace napkin
