// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PyTorch's CUDA caching allocator as it sizes what it is asked for (c10/cuda/CUDACachingAllocator.cpp,
// the same constants from PyTorch 1.x through 2.x with PYTORCH_CUDA_ALLOC_CONF unset): every request is
// rounded up to a multiple of 512 bytes; requests of at most 1 MiB come from 2 MiB "small" segments,
// those under 10 MiB from 20 MiB "large" segments, larger ones from a segment of their own rounded up
// to 2 MiB. torch.cuda.memory_allocated() counts the rounded block sizes, memory_reserved() the segments.

namespace napkin {

inline constexpr double kAllocatorMinBlockBytes = 512;           ///< kMinBlockSize
inline constexpr double kAllocatorSmallSizeBytes = 1048576;      ///< kSmallSize: largest "small" request
inline constexpr double kAllocatorSmallBufferBytes = 2097152;    ///< kSmallBuffer: a small segment
inline constexpr double kAllocatorLargeBufferBytes = 20971520;   ///< kLargeBuffer: a shared large segment
inline constexpr double kAllocatorMinLargeAllocBytes = 10485760; ///< kMinLargeAlloc
inline constexpr double kAllocatorRoundLargeBytes = 2097152;     ///< kRoundLarge

/// round_size(): the block the allocator hands out for a request of `bytes`: 512·⌈bytes/512⌉, at least
/// 512; 0 for an empty tensor (PyTorch allocates nothing for it).
double allocatorBlockBytes(double bytes);
/// get_allocation_size(): the segment cudaMalloc'ed when no cached block fits a request of `bytes`:
/// 2 MiB up to 1 MiB, 20 MiB under 10 MiB, else 2 MiB·⌈bytes/2 MiB⌉; 0 for an empty tensor.
double allocatorSegmentBytes(double bytes);
/// allocatorBlockBytes(bytes) − bytes: what rounding adds to one tensor, 0 to 511 bytes.
double allocatorRoundingBytes(double bytes);

} // namespace napkin
