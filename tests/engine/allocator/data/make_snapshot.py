#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes allocator_rules.pickle, which tst_caching_allocator_simulation replays (run once; the file is
committed). Hand-built in the shape of torch.cuda.memory._snapshot() until a GPU is lent: the trace is what
c10/cuda/CUDACachingAllocator.cpp (pytorch/pytorch at 001074d25084fdb87a799823e395a50f5ec044d3) logs for
these requests on one stream, worked by hand from its rules, and the segments are the state after it. Each
free is of the newest live block of its size: the reader keeps no addresses, and the replay matches by size."""
import os
import pickle

MiB = 1 << 20
A, B, C = 139_000_000_000, 139_100_000_000, 139_200_000_000  # three cudaMalloc'ed segments


def entry(action, addr, size):
    return {"action": action, "addr": addr, "size": size, "stream": 0, "frames": []}


trace = [
    entry("segment_alloc", A, 20 * MiB),  # 4 MiB < kMinLargeAlloc: a kLargeBuffer segment, split
    entry("alloc", A, 4 * MiB),
    entry("alloc", A + 4 * MiB, 2 * MiB),  # best fit: the 16 MiB remainder, split again
    entry("free_requested", A, 4 * MiB),
    entry("free_completed", A, 4 * MiB),
    entry("alloc", A, 3 * MiB),  # best fit: the free 4 MiB block, whole (a remainder of 1 MiB is not split)
    entry("segment_alloc", B, 16 * MiB),  # 16 MiB fits no free block (14 MiB is the largest): its own
    entry("alloc", B, 16 * MiB),
    entry("segment_alloc", C, 2 * MiB),  # the small pool's kSmallBuffer
    entry("alloc", C, 1024),
    entry("free_requested", B, 16 * MiB),
    entry("free_completed", B, 16 * MiB),
    entry("alloc", B, 15 * MiB),  # best fit: 14 MiB is too small, 16 MiB taken whole (remainder 1 MiB)
]


def block(size, requested, active):
    return {"size": size, "requested_size": requested if active else 0,
            "state": "active_allocated" if active else "inactive", "frames": []}


def segment(addr, size, kind, blocks):
    active = sum(b["size"] for b in blocks if b["state"] != "inactive")
    return {"device": 0, "address": addr, "total_size": size, "allocated_size": active, "active_size": active,
            "stream": 0, "segment_type": kind, "blocks": blocks}


segments = [segment(A, 20 * MiB, "large", [block(4 * MiB, 3 * MiB, True), block(2 * MiB, 2 * MiB, True),
                                           block(14 * MiB, 0, False)]),
            segment(B, 16 * MiB, "large", [block(16 * MiB, 15 * MiB, True)]),
            segment(C, 2 * MiB, "small", [block(1024, 1024, True), block(2 * MiB - 1024, 0, False)])]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "allocator_rules.pickle"), "wb") as f:
    f.write(pickle.dumps({"segments": segments, "device_traces": [trace]}, protocol=4))
