"""Trains a house-family network on Avocet shards and exports it as safetensors.

Cross-entropy over K value bins against HL-Gauss targets (sigma = 0.75 bin widths), optionally
plus a listwise ranking loss over each position's moves (--rank-weight), AdamW
with linear warm-up and cosine decay, optional bf16 autocast, feature groups (house v2),
warm start from an exported net (--init), checkpoints with --resume, a validation split by
position hash reported per data set, held-out games that are never trained on
(--held-out-shards), and a progress line with loss, positions/s and ETA.
Runs on CPU or CUDA; --ddp under torchrun for several GPUs.

Example (CPU, Debian's torch), warm-starting from the shipped net, whose shape comes with it
(architecture flags given override it):
    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 -m tools.train.train --shards shards --threads 1 \\
        --init weights/avocet-house.safetensors --minutes 100 --out v2.safetensors
"""

import os


import argparse
import datetime
import json
import math
import struct
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import torch

from tools.train import reference_model
from tools.train import safetensors_io
from tools.train import shards as shard_io
from tools.train.batches import Batches
from tools.train.metrics import bin_loss, partial_policy_loss, ranking_loss, validate_sets


ARCHITECTURE_DEFAULTS = {"d_model": 64, "layers": 4, "heads": 4, "bins": 64, "mirror": True,
                         "square_features": "", "move_features": "",
                         "attention_position": "absolute"}


def fill_architecture(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Fills the architecture flags not given: from --init's net, so that warm-starting needs
    no flags to repeat its shape (a flag given still wins, as --layers with --grow), else from
    ARCHITECTURE_DEFAULTS. The sizes that default to others' (ffn, head) follow them."""
    inherited = {}
    if args.init:
        try:
            meta = safetensors_io.load(args.init)[1]
        except (OSError, ValueError, KeyError, struct.error) as error:
            parser.error(f"--init {args.init}: cannot read it as a safetensors net ({error})")
        if meta.get("family") != "house":
            parser.error(f"--init {args.init}: a {meta.get('family')} net, not a house one")
        for key in ("d_model", "layers", "heads", "bins", "ffn_dim", "head_dim"):
            inherited[key] = int(meta[key])
        inherited["mirror"] = meta.get("mirror") == "true"
        for key in ("square_features", "move_features"):
            inherited[key] = meta.get(key, "")
        inherited["attention_position"] = meta.get("attention_position", "absolute")
    # A net's ffn and head sizes are its own only when its d_model is kept.
    if args.d_model is not None and args.d_model != inherited.get("d_model", args.d_model):
        inherited.pop("ffn_dim", None)
        inherited.pop("head_dim", None)
    for key, default in ARCHITECTURE_DEFAULTS.items():
        if getattr(args, key) is None:
            setattr(args, key, inherited.get(key, default))
    args.ffn_dim = args.ffn_dim or inherited.get("ffn_dim") or 4 * args.d_model
    args.head_dim = args.head_dim or inherited.get("head_dim") or args.d_model
    if inherited:
        print(f"architecture: d={args.d_model} L={args.layers} heads={args.heads} "
              f"ffn={args.ffn_dim} (flags not given come from --init {args.init})", flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shards", nargs="+", required=True, help="shard files or folders")
    parser.add_argument("--out", required=True, help="safetensors file to export")
    parser.add_argument("--name", help="network name in the metadata")
    # The architecture: a flag given wins; one not given comes from --init's net (its
    # metadata), else from ARCHITECTURE_DEFAULTS.
    parser.add_argument("--d-model", type=int, help="default 64")
    parser.add_argument("--layers", type=int, help="default 4")
    parser.add_argument("--heads", type=int, help="default 4")
    parser.add_argument("--ffn-dim", type=int, help="default 4 x d-model")
    parser.add_argument("--head-dim", type=int, help="default d-model")
    parser.add_argument("--bins", type=int, help="default 64")
    parser.add_argument("--mirror", action=argparse.BooleanOptionalAction,
                        help="default on")
    parser.add_argument("--square-features",
                        help="square feature groups: 'all', or a comma-separated list of "
                        + ", ".join(n for n, _ in reference_model.SQUARE_GROUPS))
    parser.add_argument("--move-features",
                        help="move feature groups: 'all', or a comma-separated list of "
                        + ", ".join(n for n, _ in reference_model.MOVE_GROUPS))
    parser.add_argument("--attention-position", choices=reference_model.ATTENTION_POSITIONS,
                        help="'bias': a learned bias per layer and head on every (query, key) "
                        "attention logit; 'relative': that bias plus Shaw relative position "
                        "terms between the 64 squares (Chessformer). Both start at zero, so "
                        "--init from a net without them starts from that net exactly")
    parser.add_argument("--position-lr", type=float,
                        help="peak learning rate of the attention position tables (default: "
                        "--lr); tables that start at zero under a warm-started net need more")
    parser.add_argument("--init", help="warm-start from an exported net (safetensors): every "
                        "tensor it shares with this model is copied; feature embeddings it "
                        "lacks start at zero, so a v1 net seeds a featured one exactly")
    parser.add_argument("--grow", action="store_true",
                        help="with --init from a net of fewer layers: each layer it lacks starts "
                        "as a copy of one of its top layers with that copy's output projections "
                        "(attn.o, mlp.w3) at zero, so the deeper net computes exactly what the "
                        "parent did and its new layers start from features that already work")
    parser.add_argument("--steps", type=int, default=10000)
    parser.add_argument("--minutes", type=float, help="stop after this wall time; the learning "
                        "rate schedule then follows whichever of steps and time runs out first")
    parser.add_argument("--batch", type=int, default=64, help="positions per step")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--weight-decay", type=float, default=0.01)
    parser.add_argument("--rank-weight", type=float, default=0.0,
                        help="weight of the listwise ranking loss added to the bin loss "
                        "(metrics.ranking_loss); 0 trains on the bin loss alone")
    parser.add_argument("--rank-temperature", type=float, default=0.03,
                        help="win-probability temperature of the ranking loss's softmax")
    parser.add_argument("--partial-policy-weight", type=float, default=1.0,
                        help="weight of metrics.partial_policy_loss on positions whose label "
                        "scores only some moves (datagen --multipv K without a shallow pass)")
    parser.add_argument("--manifest", help="the data manifest the shards were staged from "
                        "(tools/data/prepare.py writes OUT/manifest.json): its hash goes into "
                        "the net's metadata and the log, for the lineage")
    parser.add_argument("--data-weight", action="append", default=[], metavar="NAME=W",
                        help="draw data set NAME's training positions W times as often as "
                        "the others' (default 1 each); repeat for more sets")
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--validation-percent", type=int, default=3)
    parser.add_argument("--validation-positions", type=int, default=4000,
                        help="validation positions per data set")
    parser.add_argument("--held-out-shards", nargs="+", default=[],
                        help="shards of whole games never trained on (nor any position "
                        "found in them): --validation-positions positions of each data set, "
                        "drawn over all its games, are a validation set of their own "
                        "('NAME (held-out games)'), and with --keep-best these sets alone "
                        "choose the weights. The split by position hash leaves a position's "
                        "neighbours in the same game on the training side, so after many "
                        "epochs it no longer predicts games")
    parser.add_argument("--eval-every", type=int, default=1000)
    parser.add_argument("--checkpoint", help="checkpoint file (default: OUT.ckpt)")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--keep-best", action="store_true",
                        help="export the weights of the validation (every --eval-every steps) "
                        "with the lowest mean held-out loss (over the held-out games' sets "
                        "when --held-out-shards is given) rather than the last: for runs "
                        "long enough to pass over the data many times, as on a GPU")
    parser.add_argument("--export-only", action="store_true",
                        help="load the checkpoint, validate and export without training")
    parser.add_argument("--bf16", action="store_true",
                        help="bf16 autocast (fast only on CPUs with AVX-512 BF16, or on GPUs)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--ddp", action="store_true", help="DistributedDataParallel (torchrun)")
    parser.add_argument("--log", help="append validation results as JSON lines here")
    args = parser.parse_args(argv)
    fill_architecture(args, parser)
    args.checkpoint = args.checkpoint or args.out + ".ckpt"
    args.square_groups = reference_model.parse_groups(args.square_features,
                                                      reference_model.SQUARE_GROUPS)
    args.move_groups = reference_model.parse_groups(args.move_features,
                                                    reference_model.MOVE_GROUPS)
    if args.export_only:
        args.resume, args.steps = True, 0
    args.manifest_hash = None
    if args.manifest:
        try:
            with open(args.manifest) as file:
                args.manifest_hash = json.load(file)["hash"]
        except (OSError, ValueError, KeyError) as error:
            parser.error(f"--manifest {args.manifest}: not a data manifest ({error})")
        print(f"data manifest {args.manifest_hash}", flush=True)
    return args


# ---- data -------------------------------------------------------------------------------

def data_weights(specs: Iterable[str], names: Sequence[str]) -> np.ndarray:
    """Per data set (in `names` order) the weight of its positions, from NAME=W specs."""
    weights = np.ones(len(names))
    for spec in specs:
        name, _, value = spec.partition("=")
        if name not in names:
            raise ValueError(f"--data-weight {spec}: no data set '{name}' (there are "
                             f"{', '.join(names)})")
        try:
            weights[names.index(name)] = float(value)
        except ValueError:
            raise ValueError(f"--data-weight {spec}: '{value}' is not a number") from None
        if not weights[names.index(name)] >= 0:
            raise ValueError(f"--data-weight {spec}: a weight is 0 or more")
    return weights


class Data:
    """The shards, split into training rows and per-data-set validation rows by a hash of
    the position (src/DESIGN.md: the sets differ in distribution, so each is reported), and the
    held-out games' data sets, validation only. `selection_sets` names the sets --keep-best
    judges by: the held-out games' where there are any."""

    def __init__(self, args: argparse.Namespace, device: torch.device) -> None:
        started = time.time()
        train_files = shard_io.shard_files(args.shards)
        held_out_files = shard_io.shard_files(args.held_out_shards)
        both = set(train_files) & set(held_out_files)
        if both:
            raise ValueError(f"{sorted(both)[0]} is in both --shards and --held-out-shards")
        if args.held_out_shards and not held_out_files:
            raise ValueError(f"--held-out-shards {' '.join(args.held_out_shards)}: no shards")
        held_out_names = {shard_io.data_set_name(f) for f in held_out_files}
        self.positions = shard_io.load_shards(args.shards + args.held_out_shards)
        p = self.positions
        overlap = held_out_names & {shard_io.data_set_name(f) for f in train_files}
        if overlap:
            raise ValueError(f"data set '{sorted(overlap)[0]}' has shards in both --shards and "
                             "--held-out-shards (rename one side's files)")
        for wanted, stored, table, kind in (
                (args.square_groups, p.square_groups, reference_model.SQUARE_GROUPS, "square"),
                (args.move_groups, p.move_groups, reference_model.MOVE_GROUPS, "move")):
            if wanted and [tuple(g) for g in stored] != [tuple(g) for g in table]:
                sys.exit(f"the shards' {kind} feature groups {stored} are not this trainer's "
                         f"{table}; rebuild them with this build's `avocet datagen --from-tsv`")
        held_out = np.isin(p.sources, [p.source_names.index(n) for n in held_out_names])
        is_validation = shard_io.validation_mask(p.tokens, args.validation_percent) & ~held_out
        # A position of the held-out games (its first four FEN fields, as split.py hashes) is
        # not trained on wherever else it occurs: the same opening line, a transposition, or
        # those games staged again under another name.
        seen = {row[:71].tobytes() for row in p.tokens[held_out]}
        also_held = np.zeros(len(p), bool)
        if seen:
            also_held = ~held_out & np.fromiter(
                (row[:71].tobytes() in seen for row in p.tokens), bool, len(p))
        self.train_rows = np.flatnonzero(~is_validation & ~held_out & ~also_held)
        self.validation_sets = {
            name: np.flatnonzero(is_validation & (p.sources == i))[: args.validation_positions]
            for i, name in enumerate(p.source_names) if name not in held_out_names}
        # Spread over all the held-out games (a file's first rows would be a few games).
        rng = np.random.default_rng(0)
        games = {}
        for name in sorted(held_out_names):
            rows = np.flatnonzero(p.sources == p.source_names.index(name))
            games[f"{name} (held-out games)"] = np.sort(rng.choice(
                rows, min(len(rows), args.validation_positions), replace=False))
        self.validation_sets.update(games)
        self.selection_sets = list(games) or list(self.validation_sets)
        self.batches = Batches(p, args.mirror, device)
        self.cumulative_weight = None
        if getattr(args, "data_weight", None):
            self.cumulative_weight = np.cumsum(data_weights(args.data_weight, p.source_names)[
                p.sources[self.train_rows]])
        unscored = np.isnan(p.wins)
        self.partial = bool(unscored.any())  # partial labels: their policy term is needed

        print(f"{len(p)} positions ({len(self.train_rows)} train, {is_validation.sum()} "
              f"validation, {held_out.sum()} in held-out games and {also_held.sum()} more "
              f"found in them), {int((~unscored).sum())} scored moves"
              + (f" and {int(unscored.sum())} unscored (partial labels)" if self.partial else "")
              + ", loaded in "
              f"{time.time() - started:.1f} s", flush=True)


# ---- model ------------------------------------------------------------------------------

def build_model(args: argparse.Namespace, device: torch.device) -> reference_model.HouseNet:
    return reference_model.build("house", args.d_model, args.layers, args.heads, args.ffn_dim,
                                 args.bins, args.head_dim, args.mirror, args.square_groups,
                                 args.move_groups, args.attention_position).to(device)


def warm_start(model: torch.nn.Module, path: str, grow: bool = False) -> None:
    """Copies every tensor of the exported net at `path` into `model` (names and shapes must
    match); tensors `path` lacks must be feature embeddings or attention biases, which start at
    zero so the warm model computes exactly what the exported one did."""
    try:
        tensors, meta = safetensors_io.load(path)
    except (OSError, ValueError, KeyError, struct.error) as e:
        sys.exit(f"--init {path}: cannot read it as a safetensors net ({e})")
    state = model.state_dict()
    grown = grow_layers(tensors, model_layers(state)) if grow else []
    for name, value in tensors.items():
        if name not in state:
            sys.exit(f"--init {path}: tensor '{name}' has no place in this model")
        if tuple(state[name].shape) != tuple(value.shape):
            sys.exit(f"--init {path}: tensor '{name}' is {tuple(value.shape)}, this model's is "
                     f"{tuple(state[name].shape)}")
        state[name].copy_(value.float())
    fresh = [n for n in state if n not in tensors]
    for name in fresh:
        if "features" not in name and not is_position_table(name):
            sys.exit(f"--init {path}: it lacks '{name}', which is neither a feature embedding "
                     "nor an attention position table")
        state[name].zero_()
    print(f"warm start from {path} ({meta.get('name', '?')}): {len(tensors)} tensors copied, "
          f"{len(fresh)} feature embeddings and attention position tables at zero"
          + (f", layers {grown} grown" if grown else ""), flush=True)


def model_layers(state: Mapping[str, torch.Tensor]) -> int:
    """The number of trunk layers in a state dict or a net's tensors."""
    return len({name.split(".")[1] for name in state if name.startswith("layers.")})


def grow_layers(tensors: dict[str, torch.Tensor], layers: int) -> list[int]:
    """Adds to an exported net's `tensors` the layers it lacks up to `layers` (--grow), in
    place: new layer j copies parent layer j - (layers - parent) (mod parent: the parent's top
    layers, in order) with attn.o and mlp.w3 at zero. In a pre-LayerNorm block those are the
    only paths from the block to the residual stream, so each new block adds zero and the
    grown net computes exactly what the parent did; unlike a block started at random, its
    other weights already compute features the parent found useful. Returns the new layers."""
    parent = model_layers(tensors)
    if parent == 0 or parent >= layers:
        sys.exit(f"--grow: the --init net has {parent} layers, so there is nothing to grow "
                 f"to this model's {layers}")
    grown = list(range(parent, layers))
    for j in grown:
        source = (j - (layers - parent)) % parent
        for name in [n for n in tensors if n.startswith(f"layers.{source}.")]:
            new = f"layers.{j}." + name[len(f"layers.{source}."):]
            zero = name.endswith(("attn.o.weight", "mlp.w3.weight"))
            tensors[new] = torch.zeros_like(tensors[name]) if zero else tensors[name].clone()
    return grown


def is_position_table(name: str) -> bool:
    """The attention position tables (--attention-position): the bias and Shaw's A, B, C."""
    return name.endswith("attn.bias") or ".attn.rel_" in name


def make_optimizer(model: torch.nn.Module, args: argparse.Namespace) -> torch.optim.AdamW:
    """AdamW; no weight decay on the token and position embeddings, norms and biases. The
    attention position tables form their own group, without decay, at --position-lr times
    the schedule (each group's "scale")."""
    decayed = lambda n, p: p.dim() >= 2 and "embed" not in n
    params = [(n, p) for n, p in model.named_parameters() if not is_position_table(n)]
    tables = [p for n, p in model.named_parameters() if is_position_table(n)]
    groups = [{"params": [p for n, p in params if decayed(n, p)],
               "weight_decay": args.weight_decay, "scale": 1.0},
              {"params": [p for n, p in params if not decayed(n, p)], "weight_decay": 0.0,
               "scale": 1.0}]
    if tables:
        groups.append({"params": tables, "weight_decay": 0.0,
                       "scale": (args.position_lr or args.lr) / args.lr})
    return torch.optim.AdamW(groups, lr=args.lr)


# ---- checkpoints ------------------------------------------------------------------------

def save_checkpoint(path: str, model: torch.nn.Module, optimizer: torch.optim.Optimizer,
                    step: int, args: argparse.Namespace) -> None:
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "step": step, "args": vars(args)}, path)


def load_checkpoint(path: str, model: torch.nn.Module, optimizer: torch.optim.Optimizer,
                    device: torch.device) -> int:
    """Restores model and optimizer; returns the step to continue from."""
    state = torch.load(path, map_location=device)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    print(f"resumed from {path} at step {state['step']}", flush=True)
    return state["step"]


# ---- training loop ----------------------------------------------------------------------

def learning_rate(step: int, progress: float, args: argparse.Namespace) -> float:
    """Linear warm-up over --warmup steps, then cosine decay to 5% as progress goes 0 -> 1."""
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    return args.lr * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0))))


def log_line(args: argparse.Namespace, entry: Mapping[str, Any]) -> None:
    if args.log:
        with open(args.log, "a") as log:
            log.write(json.dumps({"out": args.out, **entry}, default=float) + "\n")


class BestWeights:
    """The weights of the validation with the lowest mean held-out loss so far (--keep-best)."""

    def __init__(self) -> None:
        self.loss, self.step, self.state = math.inf, None, None

    def offer(self, model: torch.nn.Module, metrics: Mapping[str, Any], step: int,
              names: Iterable[str]) -> None:
        loss = float(np.mean([metrics[n]["val_loss"] for n in names if n in metrics]))
        if loss < self.loss:
            self.loss, self.step = loss, step
            self.state = {k: v.detach().to("cpu", copy=True) for k, v in
                          model.state_dict().items()}


def train(model: torch.nn.Module, trained: torch.nn.Module, optimizer: torch.optim.Optimizer,
          data: Data, args: argparse.Namespace, step: int, rank: int, world: int,
          device: torch.device, best: BestWeights | None = None) -> tuple[int, int, float]:
    """Runs steps until --steps or --minutes; validates and checkpoints every --eval-every
    steps, offering each validation to `best` if given. Returns (final step, positions seen,
    minutes)."""
    rng = np.random.default_rng(args.seed + rank + step)
    loop_start, positions_seen, smoothed = time.time(), 0, None
    deadline = loop_start + args.minutes * 60 if args.minutes else None

    def progress():
        by_steps = (step - args.warmup) / max(1, args.steps - args.warmup)
        by_time = (time.time() - loop_start) / (args.minutes * 60) if args.minutes else 0.0
        return max(by_steps, by_time)

    while step < args.steps and (deadline is None or time.time() < deadline):
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(step, progress(), args) * group.get("scale", 1.0)
        if data.cumulative_weight is None:
            rows = data.train_rows[rng.integers(0, len(data.train_rows), args.batch)]
        else:
            draws = rng.random(args.batch) * data.cumulative_weight[-1]
            rows = data.train_rows[np.searchsorted(data.cumulative_weight, draws, side="right")]
        *inputs, wins, _ = data.batches.make(rows)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=args.bf16):
            logits = trained(*inputs)
        loss = bin_loss(logits, wins, args.bins)
        if data.partial and args.partial_policy_weight:
            loss = loss + args.partial_policy_weight * partial_policy_loss(
                logits, wins, inputs[4], len(rows), args.rank_temperature)
        if args.rank_weight:
            loss = loss + args.rank_weight * ranking_loss(logits, wins, inputs[4], len(rows),
                                                          args.rank_temperature)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        step += 1
        positions_seen += args.batch * world
        smoothed = loss.item() if smoothed is None else 0.98 * smoothed + 0.02 * loss.item()
        if rank == 0 and (step % 20 == 0 or step == args.steps):
            rate = positions_seen / (time.time() - loop_start)
            eta = (args.steps - step) * args.batch * world / rate
            if deadline:
                eta = min(eta, deadline - time.time())
            done = int(30 * step / args.steps)
            print(f"\r[{'#' * done}{'.' * (30 - done)}] step {step}/{args.steps} loss "
                  f"{smoothed:.4f} lr {optimizer.param_groups[0]['lr']:.2e} {rate:.0f} pos/s "
                  f"ETA {eta / 60:.1f} min ", end="", flush=True)
        if rank == 0 and step % args.eval_every == 0:
            metrics = validate_sets(model, data.batches, data.validation_sets, args.bins, device)
            log_line(args, {"step": step, "train_loss": smoothed, "manifest": args.manifest_hash,
                            "minutes": (time.time() - loop_start) / 60, **metrics})
            if best is not None:
                best.offer(model, metrics, step, data.selection_sets)
            save_checkpoint(args.checkpoint, model, optimizer, step, args)
    return step, positions_seen, (time.time() - loop_start) / 60


# ---- export -----------------------------------------------------------------------------

def export_net(model: reference_model.HouseNet, data: Data, args: argparse.Namespace, step: int,
               minutes: float, device: torch.device) -> None:
    """Validates the final model, logs it, and writes the safetensors file with provenance."""
    final = validate_sets(model, data.batches, data.validation_sets, args.bins, device)
    log_line(args, {"step": step, "minutes": minutes, "final": True, **final})
    name = args.name or os.path.splitext(os.path.basename(args.out))[0]
    reference_model.export(
        model.cpu().eval(), args.out, name=name,
        data=",".join(os.path.basename(s.rstrip("/")) for s in args.shards),
        positions=len(data.train_rows), steps=step, batch=args.batch,
        train_minutes=f"{minutes:.1f}", val_action_accuracy=f"{final['action_accuracy']:.4f}",
        val_kendall_tau=f"{final['kendall_tau']:.4f}", val_loss=f"{final['val_loss']:.4f}",
        date=datetime.date.today().isoformat(),
        parameters=sum(p.numel() for p in model.parameters()),
        parent=os.path.basename(args.init) if args.init else "none",
        **({"manifest": args.manifest_hash} if args.manifest_hash else {}))
    print(f"exported {args.out}", flush=True)


def main() -> int:
    args = parse_args()
    rank, world = 0, 1
    if args.ddp:
        torch.distributed.init_process_group("nccl" if args.device == "cuda" else "gloo")
        rank, world = torch.distributed.get_rank(), torch.distributed.get_world_size()
        if args.device == "cuda":
            torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", 0)))
    device = torch.device(args.device)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed + rank)

    data = Data(args, device)
    model = build_model(args, device)
    if args.init and not args.resume:
        warm_start(model, args.init, args.grow)
    optimizer = make_optimizer(model, args)
    step = 0
    if args.resume and os.path.exists(args.checkpoint):
        step = load_checkpoint(args.checkpoint, model, optimizer, device)
    trained = torch.nn.parallel.DistributedDataParallel(model) if args.ddp else model
    if rank == 0:
        print(f"model: house d={args.d_model} L={args.layers} heads={args.heads} "
              f"ffn={args.ffn_dim} bins={args.bins} mirror={args.mirror} attention position "
              f"{args.attention_position} square features "
              f"{args.square_groups or 'none'} move features {args.move_groups or 'none'}: "
              f"{sum(p.numel() for p in model.parameters())} parameters", flush=True)

    best = BestWeights() if args.keep_best and rank == 0 else None
    step, positions_seen, minutes = train(model, trained, optimizer, data, args, step, rank,
                                          world, device, best)
    if rank == 0:
        if not args.export_only:
            save_checkpoint(args.checkpoint, model, optimizer, step, args)
        print(f"\nfinal: step {step}, {minutes:.1f} min, {positions_seen} positions seen",
              flush=True)
        if best is not None and best.state is not None:
            final = validate_sets(model, data.batches, data.validation_sets, args.bins, device)
            best.offer(model, final, step, data.selection_sets)
            if best.step != step:
                print(f"--keep-best: exporting step {best.step} (mean held-out loss "
                      f"{best.loss:.4f}), not the last step", flush=True)
                model.load_state_dict(best.state)
                step = best.step
        export_net(model, data, args, step, minutes, device)
    if args.ddp:
        torch.distributed.destroy_process_group()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (ValueError, OSError) as error:
        # Bad input (a shard cut short, a missing file, a net of another shape): one line.
        print(f"train.py: {error}", file=sys.stderr)
        sys.exit(2)
