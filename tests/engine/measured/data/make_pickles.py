#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the pickles tst_measured_run reads (run once; the files are committed). The good ones have the
shape of torch.cuda.memory._snapshot() (segments with blocks, device_traces of alloc/free entries); the
bad ones are what a reader must refuse: code (GLOBAL, STACK_GLOBAL + REDUCE), a cut file, a deep nest, a
memo bomb, no history."""
import os
import pickle


def snapshot():
    seg = {"device": 0, "address": 139_000_000_000, "total_size": 2_097_152, "allocated_size": 1024,
           "active_size": 1024, "stream": 0, "segment_type": "small",
           "blocks": [{"size": 1024, "requested_size": 1000, "state": "active_allocated", "frames": []},
                      {"size": 2_096_128, "requested_size": 0, "state": "inactive", "frames": []}]}
    trace = [{"action": "segment_alloc", "addr": 139_000_000_000, "size": 2_097_152, "stream": 0, "frames": []},
             {"action": "alloc", "addr": 139_000_000_000, "size": 512, "stream": 0,
              "frames": [{"filename": "train.py", "line": 12, "name": "forward"}]},
             {"action": "alloc", "addr": 139_000_000_512, "size": 1024, "stream": 0, "frames": []},
             {"action": "free_requested", "addr": 139_000_000_000, "size": 512, "stream": 0, "frames": []},
             {"action": "free_completed", "addr": 139_000_000_000, "size": 512, "stream": 0, "frames": []}]
    return {"segments": [seg], "device_traces": [trace, []]}


class Evil:
    def __reduce__(self):
        return (os.system, ("true",))


def write(name, data):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name), "wb") as f:
        f.write(data)


good = pickle.dumps(snapshot(), protocol=4)
write("snapshot.pickle", good)
write("snapshot_protocol2.pickle", pickle.dumps(snapshot(), protocol=2))
write("snapshot_cut.pickle", good[: len(good) // 2])
write("snapshot_reduce.pickle", pickle.dumps({"segments": [Evil()], "device_traces": []}, protocol=4))
write("snapshot_global.pickle", pickle.dumps(os.system, protocol=2))
nest = []
for _ in range(100):
    nest = [nest]
write("snapshot_deep.pickle", pickle.dumps({"segments": nest, "device_traces": []}, protocol=4))
no_history = snapshot()
no_history["device_traces"] = [[]]
write("snapshot_no_history.pickle", pickle.dumps(no_history, protocol=4))
# A memo bomb: one segment 20,000 times, its one block list of 20,000 blocks: 4e8 blocks to walk from
# 80 KB and a few values built (each repeat is a memo reference).
block = {"size": 512, "state": "active_allocated"}
segment = {"device": 0, "total_size": 2_097_152, "blocks": [block] * 20_000}
write("snapshot_memo_bomb.pickle", pickle.dumps({"segments": [segment] * 20_000, "device_traces": [[]]},
                                                protocol=4))
