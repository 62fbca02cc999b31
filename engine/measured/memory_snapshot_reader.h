// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A CUDA memory snapshot (torch.cuda.memory._dump_snapshot(), the pickle PyTorch's memory_viz reads) as
// a measured run: read as data only (pickle_data.h), its allocation history (device_traces, recorded
// after torch.cuda.memory._record_memory_history()) becomes one allocated and reserved timeline per
// device. The history is a ring buffer that may start mid-run: the bytes held at its first entry are the
// snapshot's own (its segments' active blocks, and their sizes) less the history's net change.
#include "engine/measured/measured_timeline.h"
#include "engine/measured/pickle_data.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace napkin {

inline constexpr std::uint64_t kSnapshotMaxBytes = 256ull << 20; ///< a file larger is refused unread

/// The run in `bytes` (a pickle); `label` (the file's name) starts every error. Allocated follows
/// torch.cuda.memory_allocated(): a block counts from "alloc" until "free_requested"; reserved follows the
/// segments ("segment_alloc"/"segment_map" until "segment_free"/"segment_unmap").
MeasuredRunRead readMemorySnapshot(std::string_view bytes, const std::string& label,
                                   const PickleLimits& limits = {});

} // namespace napkin
