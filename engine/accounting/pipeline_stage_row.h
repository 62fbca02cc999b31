// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One row of the per-stage memory table (pipeline_stages.h): a plain value the accounting result carries.
#include <string>

namespace napkin {

struct PipelineStageRow {
    double index = 0;        ///< 0 … p − 1
    double layers = 0;       ///< L/p (v chunks of L/(p·v) under the interleaved schedule)
    std::string holds;       ///< "embedding", "head and loss", "embedding, head and loss" or ""
    double parameters = 0;   ///< on one GPU of the stage, before ZeRO
    double statesBytes = 0;  ///< parameters + gradients + master weights + optimizer state after ZeRO
    double microBatchesInFlight = 0;
    double activationBytes = 0;
    double gatheredBytes = 0; ///< ZeRO-3/FSDP's working set (gathered_layers.h)
    double totalBytes = 0;    ///< statesBytes + activationBytes + gatheredBytes
};

} // namespace napkin
