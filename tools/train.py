#!/usr/bin/env python3
"""Trains a house-family network on Avocet shards and exports it as safetensors.

Cross-entropy over K value bins against HL-Gauss targets (sigma = 0.75 bin widths), AdamW
with linear warm-up and cosine decay, optional bf16 autocast, checkpoints with --resume, a
validation split by position hash, and a progress line with loss, positions/s and ETA.
Runs on CPU or CUDA; --ddp under torchrun for several GPUs.

Example (CPU, Debian's torch):
    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 tools/train.py --shards /data/shards \\
        --d-model 64 --layers 4 --heads 4 --steps 20000 --out weights/avocet-house.safetensors
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import datetime
import json
import math
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

import reference_model
import shards as shard_io


def hl_gauss_targets(wins, bins, sigma_bins=0.75):
    """HL-Gauss: the mass a Gaussian at w (sigma in bin widths) puts on each bin of [0, 1]."""
    edges = torch.linspace(0, 1, bins + 1, device=wins.device)
    sigma = sigma_bins / bins
    cdf = torch.special.ndtr((edges[None, :] - wins[:, None]) / sigma)
    mass = cdf[:, 1:] - cdf[:, :-1]
    return mass / mass.sum(-1, keepdim=True)


class Batches:
    """Random batches of positions as model inputs: tokens and per-move indices."""

    def __init__(self, data, mirror, device):
        self.data = data
        self.mirror = mirror
        self.device = device
        if mirror:
            self.tokens, self.flipped = shard_io.mirror_tokens(data.tokens)
        else:
            self.tokens, self.flipped = data.tokens, np.zeros(len(data), bool)
        self.squares = shard_io.mirror_squares(data.squares, self.flipped)

    def make(self, rows):
        d = self.data
        counts = d.offsets[rows + 1] - d.offsets[rows]
        move_index = np.concatenate([np.arange(d.offsets[r], d.offsets[r + 1]) for r in rows])
        actions = d.actions[move_index]
        flip = np.repeat(self.flipped[rows], counts)
        actions = np.where(flip, shard_io.ACTION_MIRROR[actions], actions)
        to = lambda a, dtype=torch.long: torch.as_tensor(a, dtype=dtype, device=self.device)
        return (to(self.tokens[rows].astype(np.int64)), to(shard_io.ACTION_FROM_TOKEN[actions]),
                to(shard_io.ACTION_TO_TOKEN[actions]), to(shard_io.ACTION_PROMOTION[actions]),
                to(np.repeat(np.arange(len(rows)), counts)),
                torch.as_tensor(self.squares[rows], device=self.device),
                torch.as_tensor(d.moves[move_index], device=self.device),
                to(d.wins[move_index], torch.float32), to(counts))


def learning_rate(step, progress, args):
    """Linear warm-up over --warmup steps, then cosine decay to 5% as progress goes 0 -> 1."""
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    return args.lr * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0))))


@torch.no_grad()
def validate(model, batches, rows, args, device):
    """Validation loss, action accuracy (top-1 agreement with Stockfish's best move) and mean
    Kendall tau between predicted and Stockfish action values."""
    model.eval()
    total_loss, moves, correct, taus = 0.0, 0, 0, []
    centres = (torch.arange(args.bins, device=device) + 0.5) / args.bins
    for start in range(0, len(rows), 256):
        chunk = rows[start:start + 256]
        *inputs, wins, counts = batches.make(chunk)
        logits = model(*inputs).float()
        log_probs = logits.log_softmax(-1)
        total_loss += -(hl_gauss_targets(wins, args.bins) * log_probs).sum().item()
        moves += len(wins)
        predicted = (log_probs.exp() * centres).sum(-1).cpu().numpy()
        truth = wins.cpu().numpy()
        begin = 0
        for n in counts.tolist():
            pv, tv = predicted[begin:begin + n], truth[begin:begin + n]
            correct += tv[np.argmax(pv)] >= tv.max() - 1e-6
            if n > 1:
                taus.append(kendall_tau(pv, tv))
            begin += n
    model.train()
    return total_loss / moves, correct / len(rows), float(np.mean(taus))


def validate_sets(model, batches, sets, args, device):
    """Validates on each data set's positions and prints one line per set. Returns the
    first set's loss, action accuracy and tau, plus every set's under its own name."""
    result = {}
    for name, rows in sets.items():
        if len(rows) == 0:
            continue
        loss_v, accuracy, tau = validate(model, batches, rows, args, device)
        print(f"\nvalidation {name} ({len(rows)} positions): loss {loss_v:.4f}, action accuracy "
              f"{accuracy:.4f}, Kendall tau {tau:.4f}", end="", flush=True)
        result[name] = {"val_loss": loss_v, "action_accuracy": accuracy, "kendall_tau": tau}
        if "val_loss" not in result:
            result.update(result[name])
    print(flush=True)
    return result


def kendall_tau(a, b):
    """Kendall's tau-b over all pairs (ties in either counted as neither)."""
    da = np.sign(a[:, None] - a[None, :])
    db = np.sign(b[:, None] - b[None, :])
    upper = np.triu_indices(len(a), 1)
    da, db = da[upper], db[upper]
    concordance = (da * db).sum()
    denominator = math.sqrt(max((da != 0).sum(), 1) * max((db != 0).sum(), 1))
    return concordance / denominator


def warm_start(model, path):
    """Copies every tensor of the exported net at `path` into `model` (names and shapes must
    match); tensors `path` lacks must be feature embeddings, which start at zero so the warm
    model computes exactly what the exported one did."""
    import safetensors_io
    tensors, meta = safetensors_io.load(path)
    state = model.state_dict()
    for name, value in tensors.items():
        if name not in state:
            sys.exit(f"--init {path}: tensor '{name}' has no place in this model")
        if tuple(state[name].shape) != tuple(value.shape):
            sys.exit(f"--init {path}: tensor '{name}' is {tuple(value.shape)}, this model's is "
                     f"{tuple(state[name].shape)}")
        state[name].copy_(value.float())
    fresh = [n for n in state if n not in tensors]
    for name in fresh:
        if "features" not in name:
            sys.exit(f"--init {path}: it lacks '{name}', which is not a feature embedding")
        state[name].zero_()
    print(f"warm start from {path} ({meta.get('name', '?')}): {len(tensors)} tensors copied, "
          f"{len(fresh)} feature embeddings at zero", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shards", nargs="+", required=True, help="shard files or folders")
    parser.add_argument("--out", required=True, help="safetensors file to export")
    parser.add_argument("--name", help="network name in the metadata")
    parser.add_argument("--d-model", type=int, default=64)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--ffn-dim", type=int, help="default 4 x d-model")
    parser.add_argument("--head-dim", type=int, help="default d-model")
    parser.add_argument("--bins", type=int, default=64)
    parser.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--square-features", default="",
                        help="square feature groups: 'all', or a comma-separated list of "
                        + ", ".join(n for n, _ in reference_model.SQUARE_GROUPS))
    parser.add_argument("--move-features", default="",
                        help="move feature groups: 'all', or a comma-separated list of "
                        + ", ".join(n for n, _ in reference_model.MOVE_GROUPS))
    parser.add_argument("--init", help="warm-start from an exported net (safetensors): every "
                        "tensor it shares with this model is copied; feature embeddings it "
                        "lacks start at zero, so a v1 net seeds a featured one exactly")
    parser.add_argument("--steps", type=int, default=10000)
    parser.add_argument("--minutes", type=float, help="stop after this wall time; the learning "
                        "rate schedule then follows whichever of steps and time runs out first")
    parser.add_argument("--batch", type=int, default=64, help="positions per step")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--weight-decay", type=float, default=0.01)
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--validation-percent", type=int, default=3)
    parser.add_argument("--validation-positions", type=int, default=4000)
    parser.add_argument("--eval-every", type=int, default=1000)
    parser.add_argument("--checkpoint", help="checkpoint file (default: OUT.ckpt)")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--export-only", action="store_true",
                        help="load the checkpoint, validate and export without training")
    parser.add_argument("--bf16", action="store_true", help="bf16 autocast")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--ddp", action="store_true", help="DistributedDataParallel (torchrun)")
    parser.add_argument("--log", help="append validation results as JSON lines here")
    args = parser.parse_args()
    args.ffn_dim = args.ffn_dim or 4 * args.d_model
    args.head_dim = args.head_dim or args.d_model
    args.checkpoint = args.checkpoint or args.out + ".ckpt"

    rank, world = 0, 1
    if args.ddp:
        torch.distributed.init_process_group("nccl" if args.device == "cuda" else "gloo")
        rank, world = torch.distributed.get_rank(), torch.distributed.get_world_size()
        if args.device == "cuda":
            torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", 0)))
    device = torch.device(args.device)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed + rank)
    rng = np.random.default_rng(args.seed + rank)

    started = time.time()
    data = shard_io.load_shards(args.shards)
    is_validation = shard_io.validation_mask(data.tokens, args.validation_percent)
    train_rows = np.flatnonzero(~is_validation)
    # Validation positions of each data set, reported separately (DESIGN.md: the sets differ
    # in distribution); the first set's figures are the headline ones.
    validation_sets = {name: np.flatnonzero(is_validation & (data.sources == i))
                       [: args.validation_positions] for i, name in enumerate(data.source_names)}
    batches = Batches(data, args.mirror, device)
    if rank == 0:
        print(f"{len(data)} positions ({len(train_rows)} train, {is_validation.sum()} validation), "
              f"{len(data.actions)} labelled moves, loaded in {time.time() - started:.1f} s",
              flush=True)

    square_groups = reference_model.parse_groups(args.square_features,
                                                 reference_model.SQUARE_GROUPS)
    move_groups = reference_model.parse_groups(args.move_features, reference_model.MOVE_GROUPS)
    for wanted, stored, kind in ((square_groups, data.square_groups, "square"),
                                 (move_groups, data.move_groups, "move")):
        if wanted and [tuple(g) for g in stored] != [tuple(g) for g in
                                                     getattr(reference_model, kind.upper() +
                                                             "_GROUPS")]:
            sys.exit(f"the shards' {kind} feature groups {stored} are not this trainer's; "
                     "regenerate them with this build's `avocet datagen --from-tsv`")
    model = reference_model.build("house", args.d_model, args.layers, args.heads, args.ffn_dim,
                                  args.bins, args.head_dim, args.mirror, square_groups,
                                  move_groups).to(device)
    if args.init and not args.resume:
        warm_start(model, args.init)
    parameters = sum(p.numel() for p in model.parameters())
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and "embed" not in n]
    no_decay = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and "embed" not in n)]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": args.weight_decay},
                                   {"params": no_decay, "weight_decay": 0.0}], lr=args.lr)
    step = 0
    if args.export_only:
        args.resume, args.steps = True, 0
    if args.resume and os.path.exists(args.checkpoint):
        state = torch.load(args.checkpoint, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        step = state["step"]
        rng = np.random.default_rng(args.seed + rank + step)
        if rank == 0:
            print(f"resumed from {args.checkpoint} at step {step}", flush=True)
    trained = torch.nn.parallel.DistributedDataParallel(model) if args.ddp else model
    if rank == 0:
        print(f"model: house d={args.d_model} L={args.layers} heads={args.heads} "
              f"ffn={args.ffn_dim} bins={args.bins} mirror={args.mirror} square features "
              f"{square_groups or 'none'} move features {move_groups or 'none'}: {parameters} "
              "parameters", flush=True)

    def save_checkpoint():
        if rank == 0:
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                        "step": step, "args": vars(args)}, args.checkpoint)

    history = []
    loop_start, positions_seen, first_step = time.time(), 0, step
    smoothed = None
    deadline = loop_start + args.minutes * 60 if args.minutes else None
    def progress():
        by_steps = (step - args.warmup) / max(1, args.steps - args.warmup)
        by_time = (time.time() - loop_start) / (args.minutes * 60) if args.minutes else 0.0
        return max(by_steps, by_time)

    while not args.export_only and step < args.steps and (deadline is None or time.time() < deadline):
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(step, progress(), args)
        rows = train_rows[rng.integers(0, len(train_rows), args.batch)]
        *inputs, wins, _ = batches.make(rows)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=args.bf16):
            logits = trained(*inputs)
        loss = -(hl_gauss_targets(wins, args.bins) * logits.float().log_softmax(-1)).sum(-1).mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        step += 1
        positions_seen += args.batch * world
        smoothed = loss.item() if smoothed is None else 0.98 * smoothed + 0.02 * loss.item()
        if rank == 0 and (step % 20 == 0 or step == args.steps):
            elapsed = time.time() - loop_start
            rate = positions_seen / elapsed
            eta = (args.steps - step) * args.batch * world / rate
            if deadline:
                eta = min(eta, deadline - time.time())
            done = int(30 * step / args.steps)
            print(f"\r[{'#' * done}{'.' * (30 - done)}] step {step}/{args.steps} loss {smoothed:.4f} "
                  f"lr {optimizer.param_groups[0]['lr']:.2e} {rate:.0f} pos/s ETA {eta / 60:.1f} min ",
                  end="", flush=True)
        if rank == 0 and (step % args.eval_every == 0):
            entry = {"step": step, "train_loss": smoothed,
                     "minutes": (time.time() - loop_start) / 60,
                     **validate_sets(model, batches, validation_sets, args, device)}
            history.append(entry)
            if args.log:
                with open(args.log, "a") as log:
                    log.write(json.dumps({"out": args.out, **entry}) + "\n")
            save_checkpoint()

    if rank == 0:
        save_checkpoint()
        minutes = (time.time() - loop_start) / 60
        print(f"\nfinal: step {step}, {minutes:.1f} min, {positions_seen} positions seen",
              flush=True)
        final = validate_sets(model, batches, validation_sets, args, device)
        loss_v, accuracy, tau = final["val_loss"], final["action_accuracy"], final["kendall_tau"]
        if args.log:
            with open(args.log, "a") as log:
                log.write(json.dumps({"out": args.out, "step": step, "minutes": minutes,
                                      "final": True, **final}) + "\n")
        name = args.name or os.path.splitext(os.path.basename(args.out))[0]
        reference_model.export(
            model.cpu().eval(), args.out, name=name,
            data=",".join(os.path.basename(s.rstrip("/")) for s in args.shards),
            positions=len(train_rows), steps=step, batch=args.batch,
            train_minutes=f"{minutes:.1f}", val_action_accuracy=f"{accuracy:.4f}",
            val_kendall_tau=f"{tau:.4f}", val_loss=f"{loss_v:.4f}",
            date=datetime.date.today().isoformat(), parameters=parameters,
            parent=os.path.basename(args.init) if args.init else "none")
        print(f"exported {args.out}", flush=True)
    if args.ddp:
        torch.distributed.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
