// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/memory_overhead_knobs.h"

#include <array>

namespace napkin {

std::span<const NumberKnob<MemoryOverheadSettings>> memoryOverheadKnobs() {
    using S = MemoryOverheadSettings;
    static const std::array<NumberKnob<S>, 5> knobs{{
        {"fragmentation",
         "--fragmentation",
         "allocator fragmentation allowance, a fraction of the step's allocations in [0, 1) (default 0)",
         {0, 1, false, "", true, false, "must be a fraction in [0, 1)"},
         &S::fragmentation,
         nullptr,
         {"Fra&gmentation:", 0.01, 2,
          "Fragmentation allowance: a fraction of the step's allocations the allocator holds beyond them. 0 "
          "by "
          "default: PyTorch documents no typical figure; a run's max_memory_reserved / max_memory_allocated "
          "− 1 "
          "is yours."}},
        {"cuda_major",
         "--cuda-major",
         "CUDA major version whose context figure applies (default 12)",
         {1, 99, false, "", false, true, "must be a CUDA major version from 1 to 99"},
         nullptr,
         nullptr,
         {"CUDA &major:", 1, 0, "The CUDA major version whose CUDA-context figure applies."},
         &S::cudaMajor},
        {"cuda_context_bytes",
         "--cuda-context",
         "your measured CUDA context in bytes (nvidia-smi of a process that only initialised CUDA)",
         {0, 1e12, false, "", false, false, "must be bytes from 0 to 1e12"},
         nullptr,
         &S::cudaContextBytes,
         {"CUDA conte&xt:", 1e6, 0,
          "Your own measured CUDA context: nvidia-smi's used memory of a process that only initialised CUDA "
          "and PyTorch.",
          "own", 0}},
        {"nccl_channels",
         "--nccl-channels",
         "NCCL channels per communicator (NCCL_DEBUG=INFO prints them); unset: not counted",
         {1, 1024, false, "", false, true, "must be a whole number of channels from 1 to 1024"},
         nullptr,
         &S::ncclChannels,
         {"NCCL &channels:", 1, 0, "NCCL channels per communicator (NCCL_DEBUG=INFO prints them).", "set",
          1}},
        {"nccl_buffsize_bytes",
         "--nccl-buffsize",
         "NCCL_BUFFSIZE in bytes (default 4194304)",
         {1, 1e10, false, "", false, true, "must be whole bytes from 1 to 1e10"},
         &S::ncclBufferBytes,
         nullptr,
         {"NCCL &buffer:", 1048576, 0,
          "NCCL_BUFFSIZE: the bytes of each NCCL buffer (NCCL init.cc's default 4 MiB)."}},
    }};
    return knobs;
}

} // namespace napkin
