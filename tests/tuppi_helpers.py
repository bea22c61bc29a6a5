"""Shared helpers for the Tuppi tests: deals, random play, snapshots and an
independent re-computation of hand points and of the match (nousussa) score.

Nothing here imports the engine's scoring: the point rules are written out
again from RULES.md so the tests check the engine against a second reading.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from typing import Any

import tricktaker as tt

DECK = tt.ANGLO_52
ALL_CARDS = [c.text for c in DECK.cards]
CARD_RE = re.compile(r"\b[AKQJT98765432][SHDC]\b")


def cards(text: str) -> list[str]:
    """Canonical card texts of a space-separated list."""
    return [c.text for c in DECK.cards_from_text(text)]


def fill_deal(partial: dict[int, str]) -> list[str]:
    """A full deal: the listed cards per seat, the rest dealt in deck order to seats short of 13."""
    hands: list[list[str]] = [cards(partial.get(s, "")) for s in range(4)]
    used = {c for h in hands for c in h}
    assert len(used) == sum(len(h) for h in hands), "a card is listed twice"
    rest = [c for c in ALL_CARDS if c not in used]
    for s in range(4):
        need = 13 - len(hands[s])
        assert need >= 0, f"seat {s} has more than 13 cards"
        hands[s] += rest[:need]
        rest = rest[need:]
    assert not rest
    return [" ".join(h) for h in hands]


def record(state: tt.State) -> dict[str, Any]:
    return json.loads(state.to_json())


def hand_results(state: tt.State) -> list[dict[str, Any]]:
    """The result of every finished hand of the state's record, in order."""
    return [h["result"] for h in record(state)["hands"] if h["result"] is not None]


def snapshot(state: tt.State) -> tuple[Any, ...]:
    """Everything observable about a state, to compare before/after."""
    return (
        state.to_json(),
        [state.observation(s) for s in range(state.num_players)],
        state.observation(None),
        [str(a) for a in state.legal_actions()],
        state.current_player,
        state.is_over(),
        state.scores,
        state.hand_points,
        state.winner,
    )


def random_action(state: tt.State, rng: random.Random) -> tt.Action:
    return rng.choice(state.legal_actions())


def play_random(state: tt.State, rng: random.Random, max_actions: int | None = None) -> None:
    """Play random legal actions until the state is over (or ``max_actions`` were played)."""
    n = 0
    while not state.is_over() and (max_actions is None or n < max_actions):
        state.apply(rng.choice(state.legal_actions()))
        n += 1


def play_hand_random(state: tt.State, rng: random.Random) -> None:
    """Play random legal actions until the current hand is finished."""
    number = state.hand_number
    while not state.is_over() and state.hand_number == number:
        state.apply(rng.choice(state.legal_actions()))


# -- the rules, written out again ------------------------------------------------


def expected_points(result: dict[str, Any]) -> list[int]:
    """Hand points per side from a hand result's contract and trick counts (RULES.md, Hand points)."""
    tricks = result["tricks"]
    contract = result["contract"]
    points = [0, 0]
    if contract == "rami":
        d = result["declarer"] % 2
        if tricks[d] > 6:
            points[d] = 4 * (tricks[d] - 6)
        else:
            points[1 - d] = 8 * (tricks[1 - d] - 6)
    elif contract == "nolo":
        fewer = min((0, 1), key=lambda s: tricks[s])
        assert tricks[0] != tricks[1]
        points[fewer] = 4 * (7 - tricks[fewer])
    elif contract == "sooli":
        s = result["soloist"] % 2
        soloist_took = tricks[s]  # the soloist's partner sits out, so the side's tricks are the soloist's
        if soloist_took == 0:
            points[s] = 24
        else:
            points[1 - s] = 24
    else:
        raise AssertionError(f"unknown contract {contract!r}")
    return points


class MatchReplay:
    """The match score computed independently from hand points (RULES.md, Match and Tournament)."""

    def __init__(self, options: dict[str, Any], scores: Iterable[int] = (0, 0)) -> None:
        self.options = options
        self.scores = list(scores)
        self.totals = [0, 0]
        self.over = False
        self.winner: int | None = None
        self.draw = False
        self.hands = 0

    @property
    def nousussa(self) -> int | None:
        return 0 if self.scores[0] > 0 else 1 if self.scores[1] > 0 else None

    def add(self, points: list[int]) -> bool:
        """Add one hand's points; return whether the points were kept on the board."""
        assert not self.over, "a hand was played after the match was over"
        self.hands += 1
        scorer = 0 if points[0] > 0 else 1
        assert points[scorer] > 0 and points[1 - scorer] == 0, points
        rising = self.nousussa
        lost = rising is not None and rising != scorer
        if lost and not self.options["reset_keeps_points"]:
            self.scores = [0, 0]
            kept = False
        else:
            if lost:
                self.scores = [0, 0]
            self.scores[scorer] += points[scorer]
            self.totals[scorer] += points[scorer]
            kept = True
        target = self.options["target"]
        limit = self.options["hand_limit"]
        if max(self.scores) >= target:
            self.over = True
            self.winner = 0 if self.scores[0] >= target else 1
        elif limit and self.hands >= limit and lost:
            # past the hand limit the match runs until the nousussa side loses a hand
            self._end_by_totals()
        return kept

    def _end_by_totals(self) -> None:
        self.over = True
        if self.totals[0] == self.totals[1]:
            self.draw = True
        else:
            self.winner = 0 if self.totals[0] > self.totals[1] else 1


def check_match_against_replay(state: tt.State) -> MatchReplay:
    """Recompute every hand's points and the match course from the record; compare with the state."""
    rec = record(state)
    replay = MatchReplay(rec["options"], rec["start"]["scores"])
    replay.totals = list(rec["start"]["totals"])
    results = [h["result"] for h in rec["hands"] if h["result"] is not None]
    for i, res in enumerate(results):
        points = expected_points(res)
        assert res["points"] == points, f"hand {i + 1}: points {res['points']} != rules {points}"
        kept = replay.add(points)
        assert res["kept"] == kept, f"hand {i + 1}: kept {res['kept']} != rules {kept}"
        assert res["scores"] == replay.scores, f"hand {i + 1}: scores {res['scores']} != {replay.scores}"
        if i < len(results) - 1:
            assert not replay.over, f"the match should have ended after hand {i + 1}"
    assert state.is_over() == replay.over
    assert list(state.scores) == replay.scores
    assert state.winner == replay.winner
    assert state.draw == replay.draw
    assert list(state.totals) == replay.totals
    return replay
