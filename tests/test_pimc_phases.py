"""``pimc:phases=solve``: decisions before card play valued by solving each world's card play
from its first card (``bots.playout.solved_playout``), and the game's reading of a solved value
(``TuppiState.solved_hand_points``) that it and the oracle share."""

from __future__ import annotations

import random
import statistics
import time

import pytest
from tuppi_helpers import ALL_CARDS, cards

import tricktaker as tt
from tricktaker.bots import make_bot, view_of
from tricktaker.bots.playout import ROLLOUTS, play_out, solved_playout
from tricktaker.engine import IllegalActionError, State
from tricktaker.solver import solve

STRONG = "AS KS QS AH KH QH AD KD QD AC KC 2C 3C"
"""34 points: eleven sure tricks; a rami (a red bid) is clearly right."""
WEAK = "2S 3S 4S 5S 2H 3H 4H 2D 3D 4D 2C 3C 4C"
"""No card above a 5: declaring a rami (a red bid) is clearly wrong."""


def _deal(hand: str, seat: int, seed: int) -> list[str]:
    """A deal giving ``seat`` the ``hand``, the other cards shuffled by ``seed`` among the others."""
    mine = cards(hand)
    rest = [c for c in ALL_CARDS if c not in mine]
    random.Random(seed).shuffle(rest)
    piles = [rest[0:13], rest[13:26], rest[26:39]]
    return [" ".join(mine) if s == seat else " ".join(piles.pop(0)) for s in range(4)]


def _is_red(action: tt.Action) -> bool:
    return action.card is not None and action.card.suit.letter in "HD" or action.text == "bid rami"


def _at_first_card(seed: int) -> State:
    """A Tuppi hand at its first card of a rami (bids by the rules bots; a seed that makes one)."""
    for s in range(seed, seed + 50):
        state = tt.new_game("tuppi", sooli=False).new_hand(seed=s)
        bots = [make_bot("rules", seed=seat) for seat in range(4)]
        while state.phase != "play":
            seat = state.current_player
            state.apply(bots[seat].act(view_of(state, seat)))
        if state.contract == "rami":  # type: ignore[attr-defined]
            return state
    raise AssertionError("no rami in 50 seeds")


def test_solved_hand_points_score_the_solved_tricks_as_the_hand_would() -> None:
    """Playing the hand out double dummy (every seat a solver's best card) ends with exactly the
    hand points the game reads from the first card's solved value."""
    state = _at_first_card(3)
    value = solve(state).value
    expected = state.solved_hand_points(value)  # type: ignore[attr-defined]
    number = state.hand_number
    while not (state.is_over() or state.hand_number != number):
        state.apply(solve(state).best()[0])
    assert tuple(state.hand_points) == expected  # type: ignore[attr-defined]
    assert sum(expected) > 0


def test_solved_hand_points_refuse_a_position_before_card_play() -> None:
    state = tt.new_game("tuppi").new_hand(seed=1)
    with pytest.raises(IllegalActionError, match="bid phase"):
        state.solved_hand_points(7)  # type: ignore[attr-defined]


def test_solved_playout_reads_a_rami_from_one_solve_and_leaves_nolo_to_the_caller() -> None:
    rollout = ROLLOUTS["rules"]
    rami = _at_first_card(3)
    rewards = solved_playout(rami.clone(), rollout, random.Random(1), None)
    points = rami.solved_hand_points(solve(rami).value)  # type: ignore[attr-defined]
    assert rewards == [points[0] - points[1], points[1] - points[0]]
    nolo = tt.new_game("tuppi").new_hand(seed=1)
    for _ in range(4):  # every seat bids black: a nolo, whose full deals are too slow to solve
        nolo.apply(next(a for a in nolo.legal_actions() if not _is_red(a)))
    assert nolo.contract == "nolo"  # type: ignore[attr-defined]
    assert solved_playout(nolo, rollout, random.Random(1), 0.05) is None
    assert nolo.phase == "play"  # left at its first card for the caller to go on


@pytest.mark.parametrize(("hand", "red"), [(STRONG, True), (WEAK, False)])
def test_phases_solve_bids_the_clearly_right_colour_in_every_seed(hand: str, red: bool) -> None:
    """On the solver's values alone (``confidence=0``: no lean towards the rules choice) and
    with the defaults, the bid's colour is the right one for every bot seed and deal."""
    for seed in range(3):
        state = tt.new_game("tuppi").new_hand(deal=_deal(hand, 1, seed), dealer=0)
        view = view_of(state, 1)
        for spec in ("pimc:phases=solve:worlds=8:confidence=0", "pimc:phases=solve:worlds=8"):
            action = make_bot(spec, seed=seed).act(view)
            assert _is_red(action) == red, (spec, seed, action)


def test_phases_solve_plays_only_legal_actions_in_every_phase_before_play() -> None:
    """A bid, a sooli answer, the soloist's discard and the partner's gift: each a legal action."""
    seen: set[str] = set()
    for seed in range(2):
        state = tt.new_game("tuppi").new_hand(seed=seed)
        rules = [make_bot("rules", seed=seat) for seat in range(4)]
        while state.phase != "play" and not state.is_over():
            seat = state.current_player
            view = view_of(state, seat)
            phase = state.phase
            if phase in seen and phase in ("bid", "sooli"):
                state.apply(rules[seat].act(view) if phase == "bid" else "pass")
                continue
            action = make_bot("pimc:phases=solve:worlds=3", seed=seed).act(view)
            assert action in view.legal_actions
            seen.add(phase)
            state.apply("sooli" if phase == "sooli" else action)  # on to the discard and the gift
    assert {"bid", "sooli", "discard", "give"} <= seen


def test_phases_solve_replays_exactly_from_a_seed() -> None:
    """The same seed, the same choice, while no solve reaches ``phase_time`` (a solve cut short
    by the clock falls back to rollouts, as a ``time`` budget makes any search machine-bound)."""
    state = tt.new_game("tuppi").new_hand(seed=4)
    view = view_of(state, state.current_player)
    picks = {make_bot("pimc:phases=solve:worlds=3:phase_time=60", seed=9).act(view) for _ in range(2)}
    assert len(picks) == 1


def test_phases_solve_in_threads_scores_every_world_as_one_thread_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``threads`` splits each world's solve from the first card between threads: the same
    rewards world by world, so the same choice."""
    import tricktaker.bots.pimc as pimc

    seen: dict[int, list[list[list[float]]]] = {1: [], 2: []}
    real = pimc._solved_world

    def spying(*args: object) -> list[list[float]]:
        rewards = real(*args)  # type: ignore[arg-type]
        seen[args[-1]].append(rewards)  # type: ignore[index]
        return rewards

    monkeypatch.setattr(pimc, "_solved_world", spying)
    state = tt.new_game("tuppi").new_hand(seed=4)
    view = view_of(state, state.current_player)
    picks = [make_bot(f"pimc:phases=solve:worlds=4:phase_time=60:threads={threads}", seed=9).act(view)
             for threads in (1, 2)]
    assert picks[0] == picks[1]
    assert seen[1] and seen[1] == seen[2]


def test_phases_solve_is_pimc_unchanged_where_no_decision_comes_before_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Bondtolva has no decision before card play that the solver does not take already: the
    option never solves a first card there (pimc's own path, every decision)."""
    import tricktaker.bots.pimc as pimc

    def refuse(*args: object) -> None:
        raise AssertionError("phases=solve took a Bondtolva decision")

    monkeypatch.setattr(pimc, "_solved_world", refuse)
    state = tt.new_game("bondtolva").new_hand(seed=2)
    bot = make_bot("pimc:worlds=4:phases=solve", seed=1)
    while not state.is_over():
        view = view_of(state, state.current_player)
        action = bot.act(view)
        assert action in view.legal_actions
        state.apply(action)


def test_rolled_out_worlds_fall_back_to_the_rollout_of_every_candidate() -> None:
    """A world where a candidate reaches a nolo is rolled out for all: the values are play_out's."""
    from tricktaker.bots.pimc import _solved_world

    state = tt.new_game("tuppi").new_hand(seed=1)
    for _ in range(3):
        state.apply(next(a for a in state.legal_actions() if not _is_red(a)))
    choices = state.legal_actions()
    assert any(_is_red(a) for a in choices) and any(not _is_red(a) for a in choices)
    rollout = ROLLOUTS["rules"]
    results = _solved_world(state, choices, rollout, 5, 1.0)
    for action, rewards in zip(choices, results, strict=True):
        child = state.clone()
        child.apply(action)
        assert rewards == play_out(child, rollout, random.Random(5))


@pytest.mark.slow
def test_phases_solve_decides_within_a_second_median_over_a_hand() -> None:
    """The default settings' median decision (bids and card play of one Tuppi hand and one
    Bondtolva hand, decisions with a choice) stays within the second a decision may take."""
    for name in ("tuppi", "bondtolva"):
        state = tt.new_game(name).new_hand(seed=6)
        bot = make_bot("pimc:phases=solve", seed=1)
        times = []
        while not state.is_over():
            view = view_of(state, state.current_player)
            start = time.perf_counter()
            action = bot.act(view)
            if len(view.legal_actions) > 1:
                times.append(time.perf_counter() - start)
            state.apply(action)
        assert statistics.median(times) <= 1.0, (name, times)


@pytest.mark.parametrize(("spec", "message"), [
    ("pimc:phases=exact", "pimc option phases must be one of rollout, solve, not exact"),
    ("pimc:phases=solve:phase_time=0",
     "pimc option phase_time must be a number above 0 and at most 3600, not 0"),
])
def test_bad_phase_options_name_the_problem(spec: str, message: str) -> None:
    from tricktaker.bots import BotSpecError

    with pytest.raises(BotSpecError, match=message):
        make_bot(spec)
