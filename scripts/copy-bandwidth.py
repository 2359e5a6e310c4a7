#!/usr/bin/env python3
"""The GPU's copy bandwidth, the ceiling of decode's % column: a device-to-device copy of a
1 GiB tensor, bytes read plus bytes written over the median time of 20 copies (CUDA events,
after 3 warm-up copies). Prints one JSON line: gpu, bytes, median_us, tb_s."""
import json
import torch

n = 1 << 30
a = torch.empty(n, dtype=torch.uint8, device="cuda")
b = torch.empty_like(a)
a.random_(0, 255)
for _ in range(3):
    b.copy_(a)
ts = []
for _ in range(20):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    b.copy_(a)
    e.record()
    torch.cuda.synchronize()
    ts.append(s.elapsed_time(e) * 1e3)
ts.sort()
us = ts[len(ts) // 2]
print(json.dumps({"gpu": torch.cuda.get_device_name(), "bytes": 2 * n, "median_us": round(us, 1),
                  "tb_s": round(2 * n / us / 1e6, 3)}))
