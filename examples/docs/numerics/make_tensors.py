#!/usr/bin/env python3
"""Writes the numerics example of docs/numerics.md (run from this directory).

reference/: PyTorch-style activations, NCHW float32 [1, 2, 3, 3], as np.save writes them:
conv2d (handle 1), relu6 (handle 2), the residual add (handle 3).
device/: qnn-net-run-style raw uint8 NHWC dumps with a manifest: the conv (handle 1), a ReLU
that requantizes into [0, 1] instead of [0, 6] (handle 2), no add (fused away) and a convert
the backend inserted (handle 4).
"""
import json
import os
import struct

CONV = [-1.0, 2.5, 0.5, -1.5, 1.0, 2.0, -0.5, 0.25, 1.5,      # channel 0
        0.75, -2.0, 1.25, 0.0, 2.75, -1.0, 0.5, 1.75, -0.25]  # channel 1
RELU6 = [min(max(v, 0.0), 6.0) for v in CONV]
ADD = [a + b for a, b in zip(CONV, RELU6)]
SHAPE_NCHW, SHAPE_NHWC = [1, 2, 3, 3], [1, 3, 3, 2]


def npy_float32(values, shape):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (
        ", ".join(str(d) for d in shape))
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() +
            struct.pack("<%df" % len(values), *values))


def nhwc(values):  # NCHW [1, 2, 3, 3] -> NHWC order
    return [values[c * 9 + p] for p in range(9) for c in range(2)]


def quantize(values, scale, offset):
    return bytes(min(255, max(0, round(v / scale) + offset)) for v in values)


os.makedirs("reference", exist_ok=True)
os.makedirs("device", exist_ok=True)
for name, values in [("conv2d__debugID_1", CONV), ("relu6__debugID_2", RELU6),
                     ("add__debugID_3", ADD)]:
    with open(f"reference/{name}.npy", "wb") as f:
        f.write(npy_float32(values, SHAPE_NCHW))

CONV_Q = {"scale": 0.0235294, "offset": 128}
RELU_Q = {"scale": 1 / 255, "offset": 0}  # the device's ReLU saturates at 1, not 6
dumps = [("conv2d__debugID_1", quantize(nhwc(CONV), **CONV_Q), CONV_Q, "q::Conv2d"),
         ("relu6__debugID_2", quantize(nhwc(RELU6), **RELU_Q), RELU_Q, "q::Relu"),
         ("convert__debugID_4", bytes(int(v > 0.5) for v in nhwc(RELU6)),
          {"scale": 1.0, "offset": 0}, "q::Convert")]
tensors = []
for name, data, quant, op in dumps:
    with open(f"device/{name}.raw", "wb") as f:
        f.write(data)
    tensors.append({"name": name, "file": f"{name}.raw", "dtype": "uint8", "shape": SHAPE_NHWC,
                    "layout": "NHWC", "quantization": quant, "ops": [op]})
with open("device/manifest.json", "w") as f:
    json.dump({"version": 1, "tensors": tensors}, f, indent=1)
    f.write("\n")
