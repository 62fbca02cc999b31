#pragma once
// The Cruncher checkpoint: one format and one loader for every backend, so a run can move between them.
// Layout: magic "NAPKCRU1"; int64 dim, layers, batch, optimizer, step; every tensor the optimizer needs,
// per layer then the head (parameters, state 1, state 2; empty states left out) as raw little-endian
// floats; then the data generator's std::mt19937_64 state as text (its standard stream form) after an
// int64 length.
#include "engine/compute/cruncher_config.h"

#include <cstddef>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace napkin {

struct CruncherCheckpoint {
    long step = 0;                           ///< steps done when saved
    std::vector<std::vector<float>> tensors; ///< in the order above
    std::mt19937_64 dataGenerator;           ///< the batches' generator, as it was after `step` steps
};

/// Writes `checkpoint` of a Cruncher trained with `config` through napkin::AtomicFile (never a half
/// file at `path`). Throws std::runtime_error.
void saveCruncherCheckpoint(const std::string& path, const CruncherConfig& config,
                            const CruncherCheckpoint& checkpoint);

/// Reads the whole file and checks it before handing anything back: the magic, the configuration (it
/// must be `config`'s), each tensor's size (`tensorSizes`, in floats), the generator state, and that
/// nothing follows. A file that fails any check throws std::runtime_error naming the file and what is
/// wrong, so a trainer that loads only a returned checkpoint is never left half-overwritten.
CruncherCheckpoint loadCruncherCheckpoint(const std::string& path, const CruncherConfig& config,
                                          std::span<const std::size_t> tensorSizes);

} // namespace napkin
