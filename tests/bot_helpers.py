"""Shared pieces of the bot tests: constructed deals, the rules bot's choice, whole matches,
and the duplicate duel of the rules bot against the random bot (through the arena)."""

from __future__ import annotations

import tricktaker as tt
from tricktaker.arena import ArenaConfig, Interval, run_deals, summarise
from tricktaker.bots import make_bot, view_of
from tricktaker.engine import State

MAX_ACTIONS = 20_000
"""A whole match that takes more actions than this is taken not to end."""


def fill(game: tt.Game, sizes: list[int], given: list[str]) -> list[str]:
    """A deal: each pile's given cards, topped up with the deck's remaining cards in order."""
    used = {c.upper() for pile in given for c in pile.split()}
    rest = [c.text for c in game.deck.cards if c.text not in used]
    piles = []
    for size, pile in zip(sizes, given, strict=True):
        cards = pile.split()
        while len(cards) < size:
            cards.append(rest.pop(0))
        piles.append(" ".join(cards))
    return piles


def rules_action(state: State, seed: int = 0) -> str:
    """What the rules bot (seeded with ``seed``) does for the seat to act."""
    seat = state.current_player
    assert seat is not None
    return make_bot("rules", seed=seed).act(view_of(state, seat)).text


def play_match(game: tt.Game, specs: list[str], seed: int) -> State:
    """A whole match from ``seed``: seat ``s`` plays ``specs[s % len(specs)]``, seeded ``seed + s``."""
    state = game.new_match(seed=seed)
    bots = [make_bot(specs[seat % len(specs)], seed=seed + seat) for seat in range(game.num_players)]
    for _ in range(MAX_ACTIONS):
        if state.is_over():
            return state
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(view_of(state, seat)), seat=seat)
    raise AssertionError("the match did not end")


def rules_against_random(name: str, deals: int, preset: str | None = None, **options: object) -> Interval:
    """The rules bot's points per deal minus the random bot's, over duplicate deals, with its
    95% interval (``options`` are the game's options)."""
    config = ArenaConfig(name, ("rules", "random"), deals=deals, options=options, preset=preset)
    return summarise(config.bots, run_deals(config), matches=False).pairs[0].difference
