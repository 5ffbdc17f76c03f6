"""The held-out split shared by training, evaluation and tools/measure/stockfish_agreement.py.

A position is held out when a hash of its first four FEN fields (tokens 0..70) falls below
the percentage, so it stays on the same side whatever order the shards or annotation files
come in. Standard library only: tokens may be a list of ints or a uint8 array row.
"""

import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def is_held_out(tokens: "Sequence[int] | np.ndarray", percent: int) -> bool:
    return zlib.crc32(bytes(tokens[:71])) % 100 < percent
