"""Research environments: PettingZoo and OpenSpiel adapters over the State API.

``tricktaker.envs.pettingzoo.env("tuppi")`` is a PettingZoo AEC environment and
``tricktaker.envs.openspiel`` registers every game with OpenSpiel as
``python_tricktaker_<game>``.  Both stand on one encoder
(:mod:`tricktaker.envs.encoding`) and one driver (:mod:`tricktaker.envs.session`),
so the action indices, tensors and rewards are the same in both; ``docs/envs.md``
documents them.

This package imports nothing heavy itself: numpy is imported by the encoder,
pettingzoo and pyspiel only by their adapters, so ``import tricktaker`` (which
never imports this package) keeps the core free of dependencies.
"""

from __future__ import annotations

__all__: list[str] = []
