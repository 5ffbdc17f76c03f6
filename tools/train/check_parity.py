"""Checks an exported network: `avocet eval --EvalFile FILE --Precision fp32` must give the same
per-move win probabilities as PyTorch on the same file (max |difference| <= 1e-4). Parity is
checked in fp32, the reference arithmetic; bf16 is held to fp32 by the C++ tests.

Example:
    /usr/bin/python3 -m tools.train.check_parity --weights weights/avocet-house.safetensors
"""

import os


import argparse
import subprocess
import sys

import torch

from tools.train import chess_tokens
from tools.train import reference_model

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/8/8/8/8/8/1p5k/R3K3 b - - 0 50",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 0 23",
]


def main() -> int:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", required=True)
    parser.add_argument("--avocet", default=os.path.join(root, "build", "avocet"))
    parser.add_argument("--tolerance", type=float, default=1e-4)
    args = parser.parse_args()

    model = reference_model.load(args.weights)
    centres = (torch.arange(model.config["bins"]) + 0.5) / model.config["bins"]
    worst = 0.0
    for fen in FENS:
        output = subprocess.run([args.avocet, "eval", "--EvalFile", args.weights,
                                 "--Precision", "fp32", fen],
                                check=True, capture_output=True, text=True).stdout.splitlines()
        engine = {line.split()[0]: float(line.split()[-1]) for line in output[3:]}
        moves = sorted(engine)
        fen = chess_tokens.normalise(fen)
        featured = model.family == "house" and (model.square_columns or model.move_columns)
        inputs = (fen, moves, reference_model.engine_features(fen, args.avocet)) if featured \
            else (fen, moves)
        with torch.no_grad():
            win = (model.move_logits(*inputs).softmax(-1) * centres).sum(-1)
        for move, w in zip(moves, win.tolist()):
            worst = max(worst, abs(w - engine[move]))
    # avocet eval prints 6 decimals: allow for that rounding on top of the tolerance.
    ok = worst <= args.tolerance + 1e-6
    print(f"{args.weights}: {len(FENS)} positions, max |win(avocet) - win(pytorch)| = "
          f"{worst:.2e} ({'ok' if ok else 'FAILED'})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
