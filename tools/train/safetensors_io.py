"""Safetensors read/write with torch only (Debian has no python3-safetensors).

Format: 8-byte little-endian header length, a JSON header
{name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {str: str}},
then the raw little-endian tensor bytes.
"""

import json
import struct
from collections.abc import Mapping

import torch

DTYPES = {torch.float32: "F32", torch.bfloat16: "BF16"}
TORCH_DTYPES = {"F32": torch.float32, "BF16": torch.bfloat16}


def save(path: str, tensors: Mapping[str, torch.Tensor], metadata: Mapping[str, object],
         dtype: torch.dtype = torch.float32) -> None:
    header = {"__metadata__": {k: str(v) for k, v in metadata.items()}}
    blobs = []
    offset = 0
    for name, tensor in tensors.items():
        data = tensor.detach().to(dtype).contiguous().cpu()
        raw = data.view(torch.int16 if dtype == torch.bfloat16 else torch.int32).numpy().tobytes()
        header[name] = {"dtype": DTYPES[dtype], "shape": list(data.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    encoded = json.dumps(header, separators=(",", ":")).encode()
    encoded += b" " * (-len(encoded) % 8)  # keep the data 8-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(encoded)))
        f.write(encoded)
        for raw in blobs:
            f.write(raw)


def load(path: str) -> tuple[dict[str, torch.Tensor], dict[str, str]]:
    """Returns ({name: float32 tensor}, metadata)."""
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    metadata = header.pop("__metadata__", {})
    body = data[8 + length:]
    tensors = {}
    for name, entry in header.items():
        begin, end = entry["data_offsets"]
        dtype = TORCH_DTYPES[entry["dtype"]]
        raw = bytearray(body[begin:end])
        stored = torch.int16 if dtype == torch.bfloat16 else torch.float32
        flat = torch.frombuffer(raw, dtype=stored)
        if dtype == torch.bfloat16:
            flat = flat.view(torch.bfloat16)
        tensors[name] = flat.reshape(entry["shape"]).float()
    return tensors, metadata
