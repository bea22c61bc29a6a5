"""Golden playthroughs: a seeded match played by a fixed policy, written as text and
compared with the files in ``tests/golden/`` on every run.

The policy is ``random.Random(7).choice(state.legal_actions())``, so the text also
pins the order of ``legal_actions``.  After a deliberate change of rules or of
that order, regenerate with::

    UPDATE_GOLDEN=1 pytest tests/test_golden.py

and read the diff: every line should still follow RULES.md.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from golden_files import check_golden

import tricktaker as tt

GOLDEN = Path(__file__).parent / "golden"
SEED = 7

CASES = {
    "tuppi_seed7.txt": None,
    "tuppi_tournament_seed7.txt": "tournament",
}


def _score(pair) -> str:
    return f"{pair[0]}-{pair[1]}"


def _result_line(r: dict) -> str:
    parts = [f"result: {r['contract']}"]
    if r["declarer"] is not None:
        parts.append(f"declarer {r['declarer']}")
    if r["soloist"] is not None:
        parts.append(f"soloist {r['soloist']}")
    parts.append(f"tricks {_score(r['tricks'])}")
    parts.append(f"points {_score(r['points'])}")
    parts.append("kept" if r["kept"] else "not kept (reset)")
    if r["early_end"]:
        parts.append("early end")
    parts.append(f"scores {_score(r['scores'])}")
    return ", ".join(parts)


def playthrough(preset: str | None, seed: int = SEED) -> str:
    """The whole match as text: per hand the dealer, the deal, each action with its actor,
    the contract, each trick's winner, the hand result and the scores."""
    game = tt.new_game("tuppi", preset=preset)
    state = game.new_match(seed=seed)
    rng = random.Random(seed)
    opts = " ".join(f"{k}={v}" for k, v in game.options.items())
    lines = [
        "# tricktaker golden playthrough (tests/test_golden.py; UPDATE_GOLDEN=1 regenerates)",
        f"# game tuppi, preset {preset or '-'}: {opts}",
        f"# new_match(seed={seed}), policy random.Random({seed}).choice(state.legal_actions())",
        "# seats 0..3 clockwise; side 0 = seats 0 & 2, side 1 = seats 1 & 3",
    ]

    def hand_header() -> None:
        obs = state.observation(None)
        lines.append("")
        lines.append(f"hand {state.hand_number + 1}  dealer {state.dealer}  scores {_score(state.scores)}"
                     + (f"  totals {_score(state.totals)}" if game.options["hand_limit"] else ""))
        for s in range(4):
            lines.append(f"  deal {s}: {' '.join(c.text for c in state.hand(s))}")
        assert obs["phase"] == "bid"

    hand_header()
    while not state.is_over():
        seat = state.current_player
        number = state.hand_number
        phase = state.phase
        tricks_before = len(state.observation(None)["tricks"])
        action = rng.choice(state.legal_actions())
        state.apply(action)
        lines.append(f"  seat {seat}: {action}")
        finished = state.is_over() or state.hand_number != number
        public = state.observation(None)
        if phase == "bid" and state.phase != "bid" and not finished:
            shown = " ".join(f"{b['seat']}:{b['bid'] if b['revealed'] else '?'}" for b in public["bids"])
            who = f", declarer {state.declarer}" if state.declarer is not None else ""
            lines.append(f"  -- bids shown {shown} -> {state.contract}{who}")
        if phase == "sooli" and state.phase != "sooli" and not finished:
            if state.soloist is not None:
                partner = (state.soloist + 2) % 4
                lines.append(f"  -- sooli: soloist {state.soloist}, partner {partner} sits out")
            else:
                lines.append(f"  -- no sooli: rami, seat {state.current_player} leads")
        if finished:
            prev = public["previous_hand"]
            lines.append(f"  -- trick {tricks_before + 1} won by seat {prev['final_trick']['winner']}")
            lines.append("  " + _result_line(prev))
            if not state.is_over():
                hand_header()
        elif action.kind == "play" and len(public["tricks"]) > tricks_before:
            lines.append(f"  -- trick {len(public['tricks'])} won by seat {public['tricks'][-1]['winner']}")
    lines.append("")
    if state.winner is not None:
        end = f"match over: winner side {state.winner}"
    else:
        end = "match over: draw"
    end += f", scores {_score(state.scores)}"
    if game.options["hand_limit"]:
        end += f", totals {_score(state.totals)}"
    lines.append(end + f", {state.hand_number + 1} hands")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough_matches_file(name):
    check_golden(name, playthrough(CASES[name]))


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough_is_deterministic_and_replays_from_its_record(name):
    assert playthrough(CASES[name]) == playthrough(CASES[name])
    game = tt.new_game("tuppi", preset=CASES[name])
    state = game.new_match(seed=SEED)
    rng = random.Random(SEED)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    assert tt.load(state.to_json()).to_json() == state.to_json()
