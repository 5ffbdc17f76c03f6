"""Rewrites an exported network's metadata, the tensors unchanged: to name a net when it is
adopted, or to record the products int8 runs in bf16 (int8_bf16) once its agreement with fp32
has been measured (src/nn/README.md#int8). KEY= sets an empty value (int8_bf16=: every
product in int8).

Example:
    /usr/bin/python3 -m tools.train.set_metadata v24a.safetensors \\
        weights/avocet-house.safetensors name=avocet-house-v24 int8_bf16=out
"""

import argparse
import sys

from tools.train import safetensors_io


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="the exported net")
    parser.add_argument("target", help="where to write it (may be the source)")
    parser.add_argument("assignments", nargs="+", metavar="KEY=VALUE")
    args = parser.parse_args()
    tensors, metadata = safetensors_io.load(args.source)
    for assignment in args.assignments:
        key, equals, value = assignment.partition("=")
        if not key or not equals:
            sys.exit(f"set_metadata.py: '{assignment}' is not KEY=VALUE")
        metadata[key] = value
    safetensors_io.save(args.target, tensors, metadata)
    print(f"{args.target}: " + ", ".join(f"{k}={v}" for k, v in sorted(metadata.items())))


if __name__ == "__main__":
    main()
