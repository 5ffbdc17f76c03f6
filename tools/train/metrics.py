"""Training targets and held-out metrics of the house network, shared by train.py and
evaluate.py.

Example:
    >>> targets = hl_gauss_targets(torch.tensor([0.5]), bins=4)
    >>> targets.sum().item()
    1.0
"""

import math
import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

if TYPE_CHECKING:
    from tools.train.batches import Batches


def hl_gauss_targets(wins: torch.Tensor, bins: int, sigma_bins: float = 0.75) -> torch.Tensor:
    """HL-Gauss: the mass a Gaussian at w (sigma in bin widths) puts on each bin of [0, 1]."""
    edges = torch.linspace(0, 1, bins + 1, device=wins.device)
    sigma = sigma_bins / bins
    cdf = torch.special.ndtr((edges[None, :] - wins[:, None]) / sigma)
    mass = cdf[:, 1:] - cdf[:, :-1]
    return mass / mass.sum(-1, keepdim=True)


def segment_log_softmax(x: torch.Tensor, segment: torch.Tensor,
                        segments: int) -> torch.Tensor:
    """log_softmax of x within each segment (segment[i] is x[i]'s segment, 0..segments-1)."""
    peak = torch.full((segments,), -math.inf, device=x.device, dtype=x.dtype)
    with warnings.catch_warnings():  # torch 1.13 calls scatter_reduce beta
        warnings.simplefilter("ignore", UserWarning)
        peak = peak.scatter_reduce(0, segment, x, reduce="amax", include_self=True).detach()
    shifted = x - peak[segment]
    total = torch.zeros(segments, device=x.device, dtype=x.dtype)
    total = total.index_add(0, segment, shifted.exp())
    return shifted - total.log()[segment]


def ranking_loss(logits: torch.Tensor, wins: torch.Tensor, board: torch.Tensor, positions: int,
                 temperature: float) -> torch.Tensor:
    """Listwise cross-entropy between the moves' softmax(win / T) under Stockfish's values and
    under the net's expected values, averaged over positions. The bin loss values each move
    on its own; this one asks directly which move is best, which is what top-1 agreement and
    the search's policy read.

    >>> logits = torch.zeros(3, 4)
    >>> loss = ranking_loss(logits, torch.tensor([0.9, 0.1, 0.5]), torch.tensor([0, 0, 1]), 2, 0.05)
    >>> round(loss.item(), 4)  # position 0's even guess costs ln 2, position 1's only move 0
    0.3466
    """
    centres = (torch.arange(logits.shape[-1], device=logits.device) + 0.5) / logits.shape[-1]
    expected = (logits.float().softmax(-1) * centres).sum(-1)
    target = segment_log_softmax(wins / temperature, board, positions).exp()
    predicted = segment_log_softmax(expected / temperature, board, positions)
    return -(target * predicted).sum() / positions


def bin_loss(logits: torch.Tensor, wins: torch.Tensor, bins: int) -> torch.Tensor:
    """Cross-entropy of the value bins against HL-Gauss targets, averaged over the scored
    moves: a move a partial label left unscored (NaN) has no target.

    >>> loss = bin_loss(torch.zeros(2, 4), torch.tensor([0.5, float("nan")]), 4)
    >>> round(loss.item(), 4)  # the scored move alone: uniform bins cost ln 4
    1.3863
    """
    scored = ~torch.isnan(wins)
    return -(hl_gauss_targets(wins[scored], bins)
             * logits[scored].float().log_softmax(-1)).sum(-1).mean()


def partial_policy_loss(logits: torch.Tensor, wins: torch.Tensor, board: torch.Tensor,
                        positions: int, temperature: float) -> torch.Tensor:
    """For the positions a partial label scores only in part (a value and a best move from a
    single principal variation, say): the listwise cross-entropy of ranking_loss with the
    target spread over the scored moves alone, softmax(win / T), against the net's softmax
    over all legal moves. With one scored move, its best, this is a policy cross-entropy:
    the bin loss fits the best move's value, and this term asks that no unscored move be
    valued above it, which is what argmax and the search read. Averaged over those
    positions; zero when there are none.

    >>> logits = torch.zeros(3, 4)
    >>> nan = float("nan")
    >>> wins, boards = torch.tensor([0.9, nan, 0.5]), torch.tensor([0, 0, 1])
    >>> loss = partial_policy_loss(logits, wins, boards, 2, 0.05)
    >>> round(loss.item(), 4)  # position 0 only: an even guess between its two moves, ln 2
    0.6931
    """
    unscored = torch.isnan(wins)
    partial = torch.zeros(positions, dtype=torch.bool, device=wins.device)
    partial = partial.index_put((board,), unscored, accumulate=True)
    if not partial.any():
        return logits.sum() * 0
    centres = (torch.arange(logits.shape[-1], device=logits.device) + 0.5) / logits.shape[-1]
    expected = (logits.float().softmax(-1) * centres).sum(-1)
    scores = torch.where(unscored, torch.full_like(wins, -math.inf), wins / temperature)
    target = segment_log_softmax(scores, board, positions).exp()
    predicted = segment_log_softmax(expected / temperature, board, positions)
    per_move = torch.where(target > 0, -target * predicted, torch.zeros_like(predicted))
    per_position = torch.zeros(positions, device=wins.device).index_add(0, board, per_move)
    return per_position[partial].mean()


def kendall_tau(a: np.ndarray, b: np.ndarray) -> float:
    """Kendall's tau-b over all pairs (ties in either counted as neither)."""
    da = np.sign(a[:, None] - a[None, :])
    db = np.sign(b[:, None] - b[None, :])
    upper = np.triu_indices(len(a), 1)
    da, db = da[upper], db[upper]
    concordance = (da * db).sum()
    denominator = math.sqrt(max((da != 0).sum(), 1) * max((db != 0).sum(), 1))
    return concordance / denominator


DECIDED_GAP = 0.03  # win probability between Stockfish's best and second-best move


@torch.no_grad()
def validate(model: torch.nn.Module, batches: "Batches", rows: np.ndarray, bins: int,
             device: torch.device | str,
             position_regrets: list[float] | None = None) -> dict[str, float]:
    """Validation loss, action accuracy (top-1 agreement with Stockfish's best move), mean
    Kendall tau between predicted and Stockfish action values, mean regret (the win
    probability Stockfish's values say the net's choice gives up against the best move), and
    action accuracy on the decided positions only: those whose best move is ahead of the
    second by at least DECIDED_GAP. Near half of Stockfish's depth-7 positions have two moves
    within one point of win probability, where top-1 agreement is mostly a coin toss.

    A position scored in part (partial labels) counts in the loss by its scored moves and in
    the accuracy by its best scored move; regret, tau and the decided accuracy need every
    move scored, so they are over the fully scored positions ("full_share" of them).
    A list given as `position_regrets` gets each position's regret appended in the order of
    `rows` (NaN where scored in part), for paired comparisons of two nets."""
    was_training = model.training
    model.eval()
    total_loss, moves, correct, taus, regret, decided, decided_correct = 0.0, 0, 0, [], 0.0, 0, 0
    full = 0
    if position_regrets is None:
        position_regrets = []
    centres = (torch.arange(bins, device=device) + 0.5) / bins
    for start in range(0, len(rows), 256):
        chunk = rows[start:start + 256]
        *inputs, wins, counts = batches.make(chunk)
        log_probs = model(*inputs).float().log_softmax(-1)
        scored = ~torch.isnan(wins)
        total_loss += -(hl_gauss_targets(wins[scored], bins) * log_probs[scored]).sum().item()
        moves += int(scored.sum())
        predicted = (log_probs.exp() * centres).sum(-1).cpu().numpy()
        truth = wins.cpu().numpy()
        begin = 0
        for n in counts.tolist():
            pv, tv = predicted[begin:begin + n], truth[begin:begin + n]
            if np.isnan(tv).any():
                correct += np.argmax(pv) == np.nanargmax(tv)
                position_regrets.append(math.nan)
                begin += n
                continue
            full += 1
            chosen = tv[np.argmax(pv)]
            correct += chosen >= tv.max() - 1e-6
            regret += tv.max() - chosen
            position_regrets.append(float(tv.max() - chosen))
            if n > 1:
                taus.append(kendall_tau(pv, tv))
                best, second = np.partition(tv, n - 2)[n - 2:][::-1]
                if best - second >= DECIDED_GAP:
                    decided += 1
                    decided_correct += chosen >= best - 1e-6
            begin += n
    model.train(was_training)
    return {"val_loss": total_loss / moves, "action_accuracy": correct / len(rows),
            "kendall_tau": float(np.mean(taus)) if taus else math.nan,
            "regret": regret / full if full else math.nan,
            "decided_accuracy": decided_correct / max(decided, 1),
            "decided_share": decided / len(rows), "full_share": full / len(rows)}


def paired_difference(a: Sequence[float] | np.ndarray,
                      b: Sequence[float] | np.ndarray) -> tuple[float, float, int]:
    """Mean of a - b over the positions where neither is NaN, its standard error, and how
    many positions: two nets' per-position regrets (validate's `position_regrets`) on the
    same positions differ far less in noise than their two means do apart."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.shape != b.shape:
        raise ValueError(f"paired values need the same positions: {a.shape} against {b.shape}")
    d = (a - b)[~(np.isnan(a) | np.isnan(b))]
    if len(d) < 2:
        return (float(d.mean()) if len(d) else math.nan), math.nan, len(d)
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d))), len(d)


def validate_sets(model: torch.nn.Module, batches: "Batches", sets: Mapping[str, np.ndarray],
                  bins: int, device: torch.device | str) -> dict[str, Any]:
    """Validates on each data set's positions and prints one line per set. Returns the
    first set's metrics (validate), plus every set's under its own name."""
    result = {}
    for name, rows in sets.items():
        if len(rows) == 0:
            continue
        m = validate(model, batches, rows, bins, device)
        print(f"\nvalidation {name} ({len(rows)} positions): loss {m['val_loss']:.4f}, action "
              f"accuracy {m['action_accuracy']:.4f}, Kendall tau {m['kendall_tau']:.4f}, regret "
              f"{m['regret']:.4f}, accuracy where decided (gap >= {DECIDED_GAP}, "
              f"{m['decided_share']:.0%} of positions) {m['decided_accuracy']:.4f}"
              + (f" (regret, tau and decided over the {m['full_share']:.0%} fully scored)"
                 if m["full_share"] < 1 else ""), end="", flush=True)
        result[name] = m
        if "val_loss" not in result:
            result.update(result[name])
    print(flush=True)
    return result
