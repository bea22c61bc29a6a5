"""The point games' search kernel in C (``_points_c.c``); see :mod:`._points` for the layout."""

import numpy as np

LAYOUT: dict[str, int]

def root_values(S: np.ndarray, R: np.ndarray, C: np.ndarray, SD: np.ndarray, ST: np.ndarray,
                TK: np.ndarray, TB: np.ndarray, M: np.ndarray, SC: np.ndarray, W: np.ndarray,
                stats: np.ndarray, out_moves: np.ndarray, out_values: np.ndarray,
                time_left: float, signals: bool, max_nodes: int, share: np.ndarray | None, /) -> int: ...
def gen_moves(S: np.ndarray, d: int, R: np.ndarray, C: np.ndarray, SD: np.ndarray, M: np.ndarray,
              SC: np.ndarray, W: np.ndarray, first: int, root: bool, /) -> int: ...
def apply(S: np.ndarray, d: int, mv: int, R: np.ndarray, C: np.ndarray, SD: np.ndarray,
          ST: np.ndarray, /) -> int: ...
