"""Network speed: Avocet's Eigen forward pass against PyTorch on CPU, same weights, same run.

Builds the standard benchmark networks (house d=128/256, L=4/8; searchless d=256, L=8) with
random weights, exports them, runs `avocet nnbench --EvalFile ...` on them (fp32, and bf16
where the CPU has AVX-512 BF16), then times the PyTorch reference (tools/train/reference_model.py)
on the same files and positions, one position per call, one thread
(torch.set_num_threads(1), OPENBLAS_NUM_THREADS=1). Prints positions/s for both and the
ratio.

Usage:
    /usr/bin/python3 -m tools.measure.bench_nn [--avocet build/avocet] [--seconds 3]
"""

import os


import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

import torch

from tools.train import chess_tokens
from tools.train import reference_model
from tools.uci_engine import STOCKFISH, UciEngine

NETWORKS = [("house", 128, 4), ("house", 128, 8), ("house", 256, 4), ("house", 256, 8),
            ("searchless", 256, 8)]


def torch_rate(model: reference_model.HouseNet | reference_model.SearchlessNet,
               cases: Sequence[tuple[str, Sequence[str]]], seconds: float) -> float:
    """Positions/s of the PyTorch model, one position per call (inputs encoded beforehand)."""
    encoded = []
    for fen, moves in cases:
        if model.family == "house":
            encoded.append(model.encode(fen, moves))
        else:
            state = chess_tokens.tokenize(fen)
            encoded.append((torch.tensor(
                [[0] + state + [reference_model.ACTION_INDEX[m]] for m in moves]),))
    centres = (torch.arange(model.config["bins"]) + 0.5) / model.config["bins"]
    done = 0
    start = time.perf_counter()
    with torch.inference_mode():
        while done < 3 or time.perf_counter() - start < seconds:
            inputs = encoded[done % len(encoded)]
            win = (model(*inputs).softmax(-1) * centres).sum(-1)
            done += 1
    assert win.shape[0] > 0
    return done / (time.perf_counter() - start)


def main() -> int:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--avocet", default=os.path.join(root, "build", "avocet"))
    parser.add_argument("--stockfish", default=STOCKFISH)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    torch.set_num_threads(1)

    fens = subprocess.run([args.avocet, "nnbench", "--positions"], check=True,
                          capture_output=True, text=True).stdout.split("\n")
    fens = [f for f in fens if f]
    engine = UciEngine(args.stockfish)
    cases = [(fen, sorted(engine.perft(fen, 1)[1])) for fen in fens]
    engine.close()

    with tempfile.TemporaryDirectory() as tmp:
        paths, models = [], {}
        for family, d, layers in NETWORKS:
            name = f"{family}-d{d}-L{layers}"
            model = reference_model.randomise(reference_model.build(
                family, d, layers, d // 32, 4 * d, 128, d), seed=1).eval()
            path = os.path.join(tmp, name + ".safetensors")
            reference_model.export(model, path, name=name)
            paths.append(path)
            models[name] = model
        command = [args.avocet, "nnbench", "--threads", "1", "--seconds", str(args.seconds)]
        for path in paths:
            command += ["--EvalFile", path]
        report = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    print(report, end="")

    # Rows: network, precision, threads, pos/s, ...
    avocet = {}
    for line in report.splitlines():
        words = line.split()
        if len(words) > 3 and words[0] in models and words[2] == "1":
            avocet[(words[0], words[1])] = float(words[3])
    precisions = [p for p in ("fp32", "bf16") if any(k[1] == p for k in avocet)]
    header = "".join(f" {'avocet ' + p:>12} {'ratio':>6}" for p in precisions)
    print(f"\n{'network':<22} {'pytorch pos/s':>14}{header}")
    for name, model in models.items():
        rate = torch_rate(model, cases, args.seconds)
        row = "".join(f" {avocet[(name, p)]:>12.1f} {avocet[(name, p)] / rate:>6.2f}"
                      for p in precisions)
        print(f"{name:<22} {rate:>14.1f}{row}")
    print(f"PyTorch {torch.__version__} (fp32), 1 thread, one position per call; "
          "ratio = Avocet / PyTorch positions per second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
