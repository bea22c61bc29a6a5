"""Worlds weighted by the other players' actions (``pimc:infer=rules`` and ``bids``, ``bots/belief.py``)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

import tricktaker as tt
from tricktaker.bots import PimcBot, make_bot, parse_bot, view_of
from tricktaker.bots.belief import (
    bids_likelihood,
    dd_likelihood,
    effective_size,
    flat_likelihood,
    log_likelihood,
    rewound,
    tempering,
    weighted_worlds,
)
from tricktaker.bots.pimc import cards_to_play
from tricktaker.engine import State
from tricktaker.solver import solve


def _rules_hand(game: str, seed: int, actions: int) -> State:
    """A hand of ``game`` after ``actions`` actions by rules bots."""
    state = tt.new_game(game).new_hand(seed=seed)
    bots = [make_bot("rules", seed=seat) for seat in range(state.num_players)]
    for _ in range(actions):
        seat = state.current_player
        state.apply(bots[seat].act(view_of(state, seat)))
    return state


@pytest.mark.parametrize("game", ["tuppi", "tute", "huutopussi"])
def test_rewinding_a_world_and_replaying_it_gives_the_world_back(game: str) -> None:
    state = _rules_hand(game, 3, 20)
    seat = state.current_player
    world = view_of(state, seat).sample_world(random.Random(1))
    replay, actions = rewound(world)
    for action in actions:
        replay.apply(action)
    assert all(replay.observation(s) == world.observation(s) for s in range(state.num_players))


@pytest.mark.parametrize(("name", "options"), [
    ("tuppi", {}), ("tute", {}), ("tute", {"players": 2}), ("marjapussi", {}), ("bondtolva", {}),
    ("bondtolva", {"players": 2}), ("avomarjapussi", {}), ("huutopussi", {}), ("huutopussi", {"players": 3}),
    ("huutopussi", {"players": 2})])
def test_two_different_card_plays_never_look_the_same_to_another_seat(name: str,
                                                                     options: dict[str, int]) -> None:
    """The premise of the likelihood's shortcut (``belief._looks_the_same``): every seat sees which card
    was played, so the model's card and the card seen are told apart without replaying them."""
    game = tt.new_game(name, **options)
    bots = [make_bot("rules", seed=seat) for seat in range(game.num_players)]
    checked = 0
    for seed in range(3):
        state = game.new_hand(seed=seed)
        number = state.hand_number
        while not state.is_over() and state.hand_number == number:
            seat = state.current_player
            assert seat is not None
            plays = [a for a in state.legal_actions() if a.kind == "play"]
            if len(plays) > 1:
                for viewer in range(game.num_players):
                    if viewer != seat:
                        first, second = state.clone(), state.clone()
                        first.apply(plays[0])
                        second.apply(plays[-1])
                        assert first.observation(viewer) != second.observation(viewer), (name, plays)
                checked += 1
            state.apply(bots[seat].act(view_of(state, seat)))
    assert checked > 10


@pytest.mark.parametrize(("game", "seed", "weigh", "margin"), [
    ("tuppi", 3, log_likelihood, 2), ("tute", 3, log_likelihood, 2), ("tute", 5, log_likelihood, 2),
    ("huutopussi", 5, log_likelihood, 2),
    # infer=bids: the auction's conventions alone carry information on the cards
    ("huutopussi", 5, bids_likelihood, 0)])
def test_when_the_others_play_by_the_rules_the_true_deal_is_the_likeliest_world(
        game: str, seed: int, weigh: Callable[[State, int, float], float], margin: float) -> None:
    """Rules bots played; the true deal explains their actions better than uniformly sampled worlds
    (by ``margin`` more than the typical world: far above it, not just level)."""
    state = _rules_hand(game, seed, 24)
    seat = state.current_player
    view = view_of(state, seat)
    rng = random.Random(1)
    true = weigh(state, seat, 0.8)
    sampled = [weigh(view.sample_world(rng), seat, 0.8) for _ in range(30)]
    assert true >= max(sampled) - 1e-9
    assert true > sorted(sampled)[15] + margin


def test_the_likelihood_counts_each_of_the_others_choices_by_the_model() -> None:
    """Every other player's choice in the true deal matched the rules policy: trust + (1-trust)/n each."""
    state = _rules_hand("tuppi", 4, 12)
    seat = state.current_player
    replay, actions = rewound(state)
    expected = 0.0
    for action in actions:
        legal = replay.legal_actions()
        if replay.current_player != seat and len(legal) > 1:
            expected += math.log(0.7 + 0.3 / len(legal))
        replay.apply(action)
    assert log_likelihood(state, seat, 0.7) == pytest.approx(expected)


def test_the_bids_likelihood_counts_only_the_others_actions_that_are_not_card_plays() -> None:
    """``infer=bids``: the same count as the full likelihood over the auction and calls, and card
    plays left out (a Huutopussi hand well into its card play by rules bots)."""
    state = _rules_hand("huutopussi", 5, 30)
    seat = state.current_player
    replay, actions = rewound(state)
    expected, plays = 0.0, 0
    for action in actions:
        legal = replay.legal_actions()
        if replay.current_player != seat and len(legal) > 1:
            if action.kind == "play":
                plays += 1
            else:
                expected += math.log(0.7 + 0.3 / len(legal))
        replay.apply(action)
    assert plays >= 5 and expected < 0  # both kinds were there to count
    assert bids_likelihood(state, seat, 0.7) == pytest.approx(expected)
    assert log_likelihood(state, seat, 0.7) < bids_likelihood(state, seat, 0.7)


def test_resampling_draws_worlds_in_proportion_to_their_weight() -> None:
    """A constructed weighting: one world in the pool is e^10 times likelier; it fills the sample."""
    state = _rules_hand("tuppi", 2, 8)
    view = view_of(state, state.current_player)
    favourite: list[int] = []

    def weigh(world: State, seat: int, trust: float) -> float:
        if not favourite:
            favourite.append(id(world))
        return 0.0 if id(world) == favourite[0] else -10.0

    worlds = weighted_worlds(view, random.Random(5), count=8, pool=4, trust=0.8, weigh=weigh)
    assert len(worlds) == 8
    assert sum(id(w) == favourite[0] for w in worlds) == 8

    def even(world: State, seat: int, trust: float) -> float:
        return 0.0

    uniform = weighted_worlds(view, random.Random(5), count=8, pool=4, trust=0.8, weigh=even)
    assert len({id(w) for w in uniform}) == 8  # equal weights: every 4th world of the pool


def test_tempering_keeps_the_effective_number_of_worlds_asked_for() -> None:
    """One world 20 times likelier per each of 3 mismatches of the others: nearly one
    effective world at full weight; tempered, at least the share asked for, in the same order."""
    logs = [0.0] + [-3 * math.log(20)] * 35
    assert effective_size(logs, 1.0) < 1.1
    assert effective_size(logs, 0.0) == pytest.approx(36)
    power = tempering(logs, 12)
    assert 0 < power < 1
    assert effective_size(logs, power) == pytest.approx(12, rel=1e-6)
    mild = [0.0, -0.1, -0.2] * 12
    assert tempering(mild, 12) == 1.0  # mild weights are used in full

    state = _rules_hand("tuppi", 2, 8)
    view = view_of(state, state.current_player)
    pool: list[int] = []

    def weigh(world: State, seat: int, trust: float) -> float:
        pool.append(id(world))
        return 0.0 if len(pool) == 1 else -30.0

    collapsed = weighted_worlds(view, random.Random(5), count=8, pool=4, trust=0.8, weigh=weigh)
    assert len({id(w) for w in collapsed}) == 1
    pool.clear()
    spread = weighted_worlds(view, random.Random(5), count=8, pool=4, trust=0.8, weigh=weigh, spread=0.25)
    assert sum(id(w) == pool[0] for w in spread) > 1  # the favourite is still drawn twice or more...
    assert len({id(w) for w in spread}) >= 5  # ...but the others are back in the sample
    with pytest.raises(ValueError, match="spread"):
        PimcBot(spread=1.5)


def test_pimc_with_inference_decides_legally_and_replays_exactly() -> None:
    state = _rules_hand("huutopussi", 6, 30)
    view = view_of(state, state.current_player)
    first = make_bot("pimc:worlds=6:infer=rules:pool=2", seed=3).act(view)
    assert first in view.legal_actions
    assert make_bot("pimc:worlds=6:infer=rules:pool=2", seed=3).act(view) is first
    assert parse_bot("pimc:infer=rules:trust=0.9") == ("pimc", {"infer": "rules", "trust": 0.9})
    assert parse_bot("pimc:infer=none") == ("pimc", {"infer": "none"})  # a choice, not "not given"
    assert parse_bot("pimc:infer=None") == ("pimc", {"infer": "none"})
    by_bids = make_bot("pimc:worlds=6:infer=bids:pool=2", seed=3).act(view)
    assert by_bids in view.legal_actions
    assert make_bot("pimc:worlds=6:infer=bids:pool=2", seed=3).act(view) is by_bids
    by_dd = make_bot("pimc:worlds=6:infer=dd:pool=2", seed=3).act(view)
    assert by_dd in view.legal_actions
    assert make_bot("pimc:worlds=6:infer=dd:pool=2", seed=3).act(view) is by_dd
    by_flat = make_bot("pimc:worlds=6:infer=flat:pool=2", seed=3).act(view)
    assert by_flat in view.legal_actions
    assert make_bot("pimc:worlds=6:infer=flat:pool=2", seed=3).act(view) is by_flat
    with pytest.raises(ValueError, match="pimc option infer must be one of none, rules, bids, dd, flat"):
        parse_bot("pimc:infer=bayes")
    with pytest.raises(ValueError, match="trust"):
        PimcBot(trust=1.0)


def _best_card_hand(game: str, seed: int, cards: int) -> State:
    """A hand of ``game`` played by rules bots until the mover has ``cards + 2`` cards to play, then
    by each mover's double-dummy best card until it has ``cards``: the players ``infer=dd`` models."""
    state = tt.new_game(game).new_hand(seed=seed)
    bots = [make_bot("rules", seed=seat) for seat in range(state.num_players)]
    while True:
        seat = state.current_player
        observation = state.observation(seat)
        left = cards_to_play(observation, seat) if observation.get("phase") == "play" else 99
        if left <= cards:
            return state
        state.apply(solve(state).best()[0] if left <= cards + 2 else bots[seat].act(view_of(state, seat)))


@pytest.mark.parametrize(("game", "seed"), [("tute", 3), ("tute", 4), ("huutopussi", 5), ("marjapussi", 2)])
def test_when_the_others_play_best_cards_the_true_deal_is_the_likeliest_world_by_dd(game: str,
                                                                                     seed: int) -> None:
    """``infer=dd``: every other player's recent card was a best card on the true deal, so the true
    deal scores the most a world can (0), and many sampled worlds, where some of those cards were
    not best, score less."""
    state = _best_card_hand(game, seed, 6)
    seat = state.current_player
    view = view_of(state, seat)
    rng = random.Random(1)
    assert dd_likelihood(state, seat, 0.8) == 0.0
    sampled = [dd_likelihood(view.sample_world(rng), seat, 0.8) for _ in range(30)]
    assert max(sampled) <= 0.0
    assert sum(1 for x in sampled if x < 0) >= 3  # one world in ten or more


def test_the_dd_likelihood_counts_a_card_that_was_not_best_and_only_the_recent_ones() -> None:
    """A Tute hand where a player plays a card the solver values below its best: to the next
    player the true deal's likelihood is that one miss, stray / (trust + stray); once a trick's
    worth of best cards has followed, the miss is out of the window and the likelihood is 0."""
    state = _best_card_hand("tute", 3, 7)
    while True:
        solution = solve(state)
        worse = [a for a in state.legal_actions() if solution.values[a] < solution.value]
        if worse:
            break
        state.apply(solution.best()[0])
    legal = len(state.legal_actions())
    state.apply(worse[0])
    trust = 0.7
    stray = (1 - trust) / legal
    miss = math.log(stray / (trust + stray))
    assert dd_likelihood(state, state.current_player, trust) == pytest.approx(miss)
    for _ in range(state.num_players - 1):
        state.apply(solve(state).best()[0])
    assert dd_likelihood(state, state.current_player, trust) == 0.0


def _deals(worlds: list[State]) -> list[list[list[str]]]:
    return [[[str(c) for c in w.hand(seat)] for seat in range(w.num_players)] for w in worlds]


def test_flat_weights_draw_the_weighted_way_and_match_a_weighting_where_it_says_nothing() -> None:
    """``infer=flat`` keeps every ``pool``-th world of the pool a weighted bot of the same seed
    draws (systematic resampling of equal weights: one offset); in Tute's first trick no call
    has been made, so the cantes' weighting (``bids``) keeps exactly the same worlds."""
    state = _rules_hand("tute", 4, 2)
    view = view_of(state, state.current_player)
    flat = weighted_worlds(view, random.Random(5), count=8, pool=3, trust=0.9, weigh=flat_likelihood)
    rng = random.Random(5)
    candidates = [view.sample_world(rng) for _ in range(24)]
    offset = int(rng.random() * 3)
    assert _deals(flat) == _deals(candidates[offset::3])
    assert len({str(d) for d in _deals(flat)}) == 8
    by_bids = weighted_worlds(view, random.Random(5), count=8, pool=3, trust=0.9, weigh=bids_likelihood)
    assert _deals(by_bids) == _deals(flat)


def test_tuppi_and_tute_in_pairs_weigh_their_worlds_by_default_and_other_games_do_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``pimc`` without ``infer`` takes the variant's :data:`~tricktaker.bots.pimc.INFERENCE`: Tute in
    pairs draws its worlds weighted by the cantes (``bids``, trust 0.9), exactly as
    ``infer=bids:trust=0.9`` does, and Tuppi by every action, softly and tempered (``rules``,
    trust 0.5, spread 0.33); habanero, Tute cabrero and Huutopussi draw uniform worlds; an
    ``infer`` given keeps the uniform default's trust of 0.8; a ``trust`` or ``spread`` given
    overrides the table's."""
    from tricktaker.bots import pimc
    from tricktaker.bots.pimc import UNIFORM

    calls: list[tuple[float, object, float]] = []
    real = pimc.weighted_worlds

    def spy(view: object, rng: random.Random, count: int, pool: int, trust: float, weigh: object,
            spread: float = 0.0, deadline: float | None = None) -> list[State]:
        calls.append((trust, weigh, spread))
        return real(view, rng, count, pool, trust, weigh, spread=spread,  # type: ignore[arg-type]
                    deadline=deadline)

    monkeypatch.setattr(pimc, "weighted_worlds", spy)
    pairs = _rules_hand("tute", 4, 12)
    view = view_of(pairs, pairs.current_player)
    by_default = make_bot("pimc:worlds=6", seed=3).act(view)
    assert calls == [(0.9, bids_likelihood, 0.0)]
    assert make_bot("pimc:worlds=6:infer=bids:trust=0.9", seed=3).act(view) is by_default
    assert PimcBot().weighting(pairs.game) == ("bids", 0.9, 0.0)
    assert PimcBot(infer="rules").weighting(pairs.game) == ("rules", 0.8, 0.0)
    assert PimcBot(infer="none").weighting(pairs.game) == ("none", 0.8, 0.0)
    weighted = len(calls)
    make_bot("pimc:worlds=6:infer=none", seed=3).act(view)  # uniform worlds asked for: no weights
    assert len(calls) == weighted
    assert PimcBot(trust=0.5, spread=0.25).weighting(pairs.game) == ("bids", 0.5, 0.25)
    calls.clear()
    tuppi = _rules_hand("tuppi", 4, 12)
    view = view_of(tuppi, tuppi.current_player)
    assert view.observation["phase"] == "play"
    by_default = make_bot("pimc:worlds=6", seed=3).act(view)
    assert calls == [(0.5, log_likelihood, 0.33)]
    assert make_bot("pimc:worlds=6:infer=rules:trust=0.5:spread=0.33", seed=3).act(view) is by_default
    assert PimcBot(infer="rules").weighting(tuppi.game) == ("rules", 0.8, 0.0)
    calls.clear()
    for game in (tt.new_game("tute", players=2), tt.new_game("tute", preset="cabrero"),
                 tt.new_game("huutopussi")):
        assert PimcBot().weighting(game) == UNIFORM
        state = game.new_hand(seed=2)
        while state.observation(state.current_player).get("phase") != "play":
            state.apply(make_bot("rules", seed=1).act(view_of(state, state.current_player)))
        make_bot("pimc:worlds=4:solve_cards=0", seed=3).act(view_of(state, state.current_player))
    assert calls == []


def test_weighing_stops_drawing_worlds_at_the_deadline() -> None:
    """Each world drawn is replayed to be weighed, so a bot's time budget must bound the drawing:
    past the deadline no more are drawn, and one world is kept for each ``pool`` drawn."""
    state = _rules_hand("tute", 4, 12)
    view = view_of(state, state.current_player)
    drawn: list[int] = []

    def counting(world: State, seat: int, trust: float) -> float:
        drawn.append(seat)
        return 0.0

    late = weighted_worlds(view, random.Random(5), count=50, pool=3, trust=0.9, weigh=counting,
                           deadline=0.0)
    assert len(drawn) == 1 and len(late) == 1
    drawn.clear()
    on_time = weighted_worlds(view, random.Random(5), count=50, pool=3, trust=0.9, weigh=counting)
    assert len(drawn) == 150 and len(on_time) == 50
