// SPDX-License-Identifier: GPL-3.0-or-later
// Property: loadCruncherCheckpoint never crashes or hangs on any file; it throws std::runtime_error with a
// message naming the file, or returns a checkpoint that is whole: every tensor of the expected size with
// finite values, a step in [0, 2^53]. The input is written to a file (the loader reads files) for one
// fixed Cruncher, D = 4, L = 2, Adam (the seeds are its checkpoints).
#include "engine/compute/cruncher_checkpoint.h"

#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

const std::string& scratchPath() {
    static const std::string path = "/tmp/napkin_fuzz_checkpoint_" + std::to_string(::getpid()) + ".ckpt";
    return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    napkin::CruncherConfig config;
    config.dim = 4;
    config.layers = 2;
    config.batch = 2;
    config.optimizer = napkin::OptimizerKind::adam;
    // Adam: per layer parameters, m and v (16 floats each); then the head's three (4 each).
    const std::array<std::size_t, 9> sizes{16, 16, 16, 16, 16, 16, 4, 4, 4};
    const std::string& path = scratchPath();
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        if (size > 0)
            std::fwrite(data, 1, size, f);
        std::fclose(f);
    } else {
        std::abort();
    }
    try {
        const napkin::CruncherCheckpoint c = napkin::loadCruncherCheckpoint(path, config, sizes);
        if (c.step < 0 || c.step > napkin::kMaxCheckpointStep || c.tensors.size() != sizes.size())
            std::abort();
        for (std::size_t t = 0; t < sizes.size(); ++t) {
            if (c.tensors[t].size() != sizes[t])
                std::abort();
            for (float v : c.tensors[t])
                if (!std::isfinite(v))
                    std::abort();
        }
    } catch (const std::runtime_error& e) {
        if (std::string(e.what()).find(path) == std::string::npos)
            std::abort(); // every refusal names the file
    }
    return 0;
}
