"""The search bots (PIMC, ISMCTS) and the bot registry: every game to the end, seeded, honest.

Strength is measured by the arena (docs/bots.md); these tests check that the
bots work everywhere, replay exactly from a seed, use the solver where they
should, and take only what a view gives them.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from bot_helpers import play_match

import tricktaker as tt
from tricktaker.bots import BOTS, IsmctsBot, PimcBot, make_bot, parse_bot, view_of
from tricktaker.bots import pimc as pimc_module
from tricktaker.bots.playout import hand_rewards

VARIANTS = {
    "tuppi": ("tuppi", {"target": 16}),
    "tuppi-tournament": ("tuppi", {"preset": "tournament", "hand_limit": 16}),
    "tute-pairs": ("tute", {"rounds_to_win": 1}),
    "tute-habanero": ("tute", {"players": 2, "rounds_to_win": 1}),
    "tute-variants": ("tute", {"rounds_to_win": 1, "tute_sotas": True, "must_declare": True}),
    "tute-habanero-anytime": ("tute", {"players": 2, "rounds_to_win": 1, "exchange_anytime": True}),
    "tute-three": ("tute", {"players": 3, "rounds_to_win": 1}),
    "tute-cabrero": ("tute", {"preset": "cabrero", "losses_out": 1}),
    "tute-cabrero-five": ("tute", {"preset": "cabrero", "players": 5, "losses_out": 1}),
    "tute-cabrero-six": ("tute", {"preset": "cabrero", "players": 6, "losses_out": 1}),
    "marjapussi": ("marjapussi", {"preset": "short"}),
    "marjapussi-ordered": ("marjapussi", {"preset": "short", "declaration_order": "whole_first",
                                          "lead_from_marriage": True, "clubs_ace_opens": True}),
    "bondtolva": ("bondtolva", {}),
    "bondtolva-two": ("bondtolva", {"players": 2}),
    "avomarjapussi": ("avomarjapussi", {"target": 10}),
    "huutopussi": ("huutopussi", {}),
    "huutopussi-three": ("huutopussi", {"players": 3}),
    "huutopussi-three-kitty6": ("huutopussi", {"players": 3, "kitty": 6, "kitty_shown": False}),
    "huutopussi-main-form": ("huutopussi", {"preset": "main_form"}),
    "huutopussi-two": ("huutopussi", {"players": 2}),
    "huutopussi-variants": ("huutopussi", {"calls_after_any_trick": True, "exchange": 4,
                                           "card_values": "pips", "marriage_values": "spades_high",
                                           "opener": "left_of_dealer", "forced_opening": False,
                                           "redeal_hand": "three_sixes_or_low", "bid_ban": -250,
                                           "ask_lockouts": "illisoft_2002", "all_pass": "no_contract",
                                           "bid_ban_reopen": True, "redeal_window": "bid_and_exchange",
                                           "raise_when": "after_exchange"}),
}
"""Every game and variant, with shorter matches where an option allows."""

SMALL = {"pimc": "pimc:worlds=1:max_candidates=4", "ismcts": "ismcts:iterations=6"}
"""Budgets small enough to play whole matches in a test (the play is weak but complete)."""


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_bot_plays_a_whole_match_of_every_variant(variant: str) -> None:
    """All four bots at one table; smaller tables play a second match with the bots left out."""
    name, options = VARIANTS[variant]
    game = tt.new_game(name, **options)
    specs = [SMALL["pimc"], SMALL["ismcts"], "rules", "random"]
    tables = [specs] if game.num_players == 4 else [specs, specs[game.num_players:] + specs[:1]]
    for table in tables:
        state = play_match(game, table, seed=3)
        assert state.is_over()
        # a decided match: one winner, a draw, or (Tute cabrero) places with shared winners
        assert state.winner is not None or getattr(state, "draw", False) or getattr(state, "places", None)


@pytest.mark.parametrize("spec", ["pimc:worlds=3", "ismcts:iterations=30"])
def test_search_bots_replay_exactly_from_a_seed(spec: str) -> None:
    game = tt.new_game("tute")

    def decisions(seed: int) -> list[str]:
        state = game.new_hand(seed=11)
        bot = make_bot(spec, seed=seed)
        chosen = []
        for _ in range(12):
            seat = state.current_player
            assert seat is not None
            view = view_of(state, seat)
            action = bot.act(view)
            if len(view.legal_actions) > 1:
                chosen.append(str(action))
            state.apply(action)
        return chosen

    assert decisions(5) == decisions(5)


def test_pimc_solves_small_card_play_and_rolls_out_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bidding and big hands go by rollouts; once the hand is small enough, every world is solved."""
    import tricktaker.solver as solver

    calls = []

    def counting_solve(state: tt.State, time_limit: float | None = None,
                       node_limit: int | None = None, **kwargs: Any) -> object:
        calls.append(len(state.hand(state.current_player)))  # type: ignore[attr-defined]
        return real_solve(state, time_limit=time_limit, node_limit=node_limit, **kwargs)

    real_solve = solver.solve
    monkeypatch.setattr(solver, "solve", counting_solve)
    state = tt.new_game("tuppi").new_hand(seed=4)
    bot = PimcBot(seed=1, worlds=2, solve_cards=5)
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        state.apply(bot.act(view_of(state, seat)))
    assert calls, "the solver was never used"
    assert max(calls) <= 5
    assert len(calls) >= 2 * 4  # at least two worlds at four decisions with a choice


@pytest.mark.parametrize(("contract", "solve_cards", "largest"), [
    ("rami", None, 13), ("nolo", None, 0), ("rami", 12, 12)])
def test_pimc_solves_tuppi_rami_from_the_first_card_and_nolo_only_near_the_end(
        contract: str, solve_cards: int | None, largest: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rami's full deal solves in milliseconds (``playout.SOLVED_PLAY``), so by default its card
    play is solved from the first card; a nolo's can take seconds, so its first tricks are rolled
    out (``SOLVE_CARDS``); a ``solve_cards`` option is one limit for every contract."""
    import tricktaker.solver as solver

    sizes: list[int] = [0]

    def counting_solve(state: tt.State, time_limit: float | None = None,
                       node_limit: int | None = None, **kwargs: Any) -> object:
        assert state.contract == contract  # type: ignore[attr-defined]
        sizes.append(len(state.hand(state.current_player)))  # type: ignore[attr-defined]
        return real_solve(state, time_limit=time_limit, node_limit=node_limit, **kwargs)

    real_solve = solver.solve
    monkeypatch.setattr(solver, "solve", counting_solve)
    rules, pimc = make_bot("rules", seed=1), PimcBot(seed=1, worlds=2, solve_cards=solve_cards)
    state = tt.new_game("tuppi").new_hand(seed=3)
    while state.phase != "play":  # type: ignore[attr-defined]
        black = [a for a in state.legal_actions() if a.text == "bid nolo" or a.text[-1:] in "SC"]
        state.apply(black[0] if contract == "nolo" else rules.act(view_of(state, state.current_player)))
    assert state.contract == contract  # type: ignore[attr-defined]
    assert pimc_module.SOLVE_CARDS["tuppi"] < 12
    for _ in range(8):  # the first two tricks: 13 and 12 cards in hand
        state.apply(pimc.act(view_of(state, state.current_player)))
    assert max(sizes) == largest


def _count_rollouts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one at each rollout ``pimc`` plays from now on."""
    from tricktaker.bots import playout

    rollouts: list[int] = []
    real = playout.play_out

    def counting(*args: object, **kwargs: object) -> object:
        rollouts.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pimc_module, "play_out", counting)
    return rollouts


def _stock_position(name: str, seed: int, cards: int) -> tt.State:
    """A two-player hand of ``name`` played at random to a card play with a choice while the stock
    lasts, the mover having ``cards`` cards to play (its half of the stock counted)."""
    state = tt.new_game(name, players=2).new_hand(seed=seed)
    rng = random.Random(seed)
    while True:
        seat = state.current_player
        assert seat is not None, "the stock ran out before the position"
        observation = state.observation(seat)
        if observation["phase"] == "play" and observation.get("stock_size") \
                and pimc_module.cards_to_play(observation, seat) == cards and len(state.legal_actions()) > 1:
            return state
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["tute", "bondtolva"])
def test_cards_to_play_counts_the_stock_still_to_draw(name: str) -> None:
    """The key of ``stock_cards`` (and of ``bench/solve_cards.py``): at every card play of a
    two-player hand, the mover's hand plus its half of the stock is exactly what it plays from then on."""
    state = tt.new_game(name, players=2).new_hand(seed=5)
    rng = random.Random(5)
    counted: list[tuple[int, int]] = []  # (seat, cards to play) at each of its turns in play
    plays: list[int] = []  # the seat of every card played
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        observation = state.observation(seat)
        action = rng.choice(state.legal_actions())
        if observation["phase"] == "play" and action.kind == "play":
            counted.append((seat, pimc_module.cards_to_play(observation, seat)))
            plays.append(seat)
        state.apply(action)
    assert counted[0][1] > len(state.game.new_hand(seed=5).observation(counted[0][0])["hand"])
    for turn, (seat, cards) in enumerate(counted):
        assert cards == plays[turn:].count(seat), (turn, seat)


@pytest.mark.parametrize("seed", [3, 4, 6])
def test_pimc_plays_the_rules_card_in_habanero_stock_play_it_does_not_solve(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Above ``stock_cards`` Tute habanero's card play while the stock lasts is the rules bot's
    card (``UNSOLVED_PLAY``: its rollouts chose worse there), reached without a single rollout;
    ``unsolved_play=rollout`` (or its old name ``stock_play``) rolls out as before, and Bondtolva
    for two keeps its rollouts."""
    from tricktaker.bots.rules import POLICIES

    rollouts = _count_rollouts(monkeypatch)
    assert pimc_module.UNSOLVED_PLAY == {"tute/2": "rules", "huutopussi/3": "rules"}
    for name, rolled in (("tute", False), ("bondtolva", True)):
        state = _stock_position(name, seed, pimc_module.STOCK_SOLVE_CARDS[name] + 1)
        view = view_of(state, state.current_player)  # type: ignore[arg-type]
        rollouts.clear()
        action = PimcBot(seed=seed, worlds=4).act(view)
        assert bool(rollouts) == rolled, name
        if not rolled:
            assert action == POLICIES[name](view, PimcBot(seed=seed)._rng)
        for spec in ("pimc:worlds=4:unsolved_play=rollout", "pimc:worlds=4:stock_play=rollout"):
            rollouts.clear()
            assert make_bot(spec, seed=seed).act(view) in view.legal_actions
            assert rollouts, (name, spec)
    with pytest.raises(ValueError, match="unknown unsolved_play 'never'"):
        PimcBot(unsolved_play="never")
    with pytest.raises(ValueError, match="old name of unsolved_play"):
        PimcBot(unsolved_play="rules", stock_play="rollout")
    for key in ("unsolved_play", "stock_play"):
        with pytest.raises(Exception, match=key):
            parse_bot(f"pimc:{key}=sometimes")


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_pimc_plays_the_rules_card_in_huutopussi_for_three_where_it_does_not_solve(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Huutopussi for three's card play that is not solved (here the first trick, 11 cards to
    play, with ``solve_cards=10``; by default where the node budget runs out) is the rules bot's
    card (``UNSOLVED_PLAY``: its rollouts chose worse there), with no rollout, and so is a
    decision whose budget solves too few worlds; ``unsolved_play=rollout`` rolls out."""
    from tricktaker.bots.rules import POLICIES

    rollouts = _count_rollouts(monkeypatch)
    state = tt.new_game("huutopussi", players=3).new_hand(seed=seed)
    rules = make_bot("rules", seed=seed)
    while state.phase != "play":  # type: ignore[attr-defined]
        state.apply(rules.act(view_of(state, state.current_player)))
    view = view_of(state, state.current_player)  # type: ignore[arg-type]
    assert pimc_module.cards_to_play(view.observation, view.seat) == 11
    rules_card = POLICIES["huutopussi"](view, PimcBot(seed=seed)._rng)
    assert PimcBot(seed=seed, worlds=4, solve_cards=10).act(view) == rules_card
    assert PimcBot(seed=seed, worlds=4, nodes=1).act(view) == rules_card
    assert not rollouts
    rolled = PimcBot(seed=seed, worlds=4, solve_cards=10, unsolved_play="rollout")
    assert rolled.act(view) in view.legal_actions
    assert rollouts


@pytest.mark.parametrize(("name", "seed"), [("tute", 3), ("bondtolva", 2)])
def test_pimc_solves_stock_worlds_up_to_stock_cards(name: str, seed: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """While a stock lasts a world is solved when the mover's cards to play (its half of the stock
    counted) are at most ``stock_cards`` (default :data:`STOCK_SOLVE_CARDS`); above it, or with
    ``stock_cards=0``, it is rolled out; ``solve_cards`` does not reach the stock."""
    import tricktaker.solver as solver

    calls: list[int] = []

    def counting_solve(state: tt.State, time_limit: float | None = None,
                       node_limit: int | None = None, **kwargs: Any) -> object:
        calls.append(state.stock_size)  # type: ignore[attr-defined]
        return real_solve(state, time_limit=time_limit, node_limit=node_limit, **kwargs)

    real_solve = solver.solve
    monkeypatch.setattr(solver, "solve", counting_solve)
    limit = pimc_module.STOCK_SOLVE_CARDS[name]
    assert limit > 0
    for cards in (limit - 2, limit):
        state = _stock_position(name, seed, cards)
        view = view_of(state, state.current_player)  # type: ignore[arg-type]
        cases: list[tuple[dict[str, int], bool]] = [
            ({}, True), ({"stock_cards": cards}, True), ({"stock_cards": cards - 1}, False),
            ({"stock_cards": 0}, False), ({"stock_cards": 0, "solve_cards": 52}, False)]
        for options, solved in cases:
            calls.clear()
            action = PimcBot(seed=1, worlds=2, **options).act(view)
            assert action in view.legal_actions
            assert len(calls) == (2 if solved else 0), (cards, options)
            assert all(calls), "a world solved after the stock"


def test_pimc_in_a_stock_world_plays_the_solved_best() -> None:
    """Solving a stock world counts its stock order: with one world the bot plays that world's
    solved best (the rules choice first among equals), which it could not by a rollout."""
    from tricktaker.solver import solve

    state = _stock_position("tute", 3, 11)
    seat = state.current_player
    assert seat is not None
    view = view_of(state, seat)
    for bot_seed in range(4):
        bot = PimcBot(seed=bot_seed, worlds=1)
        rng = random.Random(bot_seed)
        choices = pimc_module.candidates(view, rng, bot.max_candidates)
        world = view.sample_world(rng)
        values = solve(world).values
        best = max(values[a] for a in choices)
        action = bot.act(view)
        assert values[action] == best
        assert action == next(a for a in choices if values[a] == best)


def test_pimc_solves_each_of_its_worlds_and_replays_exactly_in_one_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every uniformly drawn world is solved once, none takes another's values.  (Worlds were
    cached by ``id``; a world let go handed its id to the next one drawn, which then took the
    old world's values: 21-22 solves for 24 worlds, and two same-seeded bots disagreed.)"""
    import tricktaker.solver as solver

    calls = []

    def counting_solve(state: tt.State, time_limit: float | None = None,
                       node_limit: int | None = None, **kwargs: Any) -> object:
        calls.append(id(state))  # not the world itself: holding it would keep its id from reuse
        return real_solve(state, time_limit=time_limit, node_limit=node_limit, **kwargs)

    real_solve = solver.solve
    monkeypatch.setattr(solver, "solve", counting_solve)
    game = tt.new_game("bondtolva")
    for seed in range(4):
        state = game.new_hand(seed=seed)
        rng = random.Random(seed)
        while state.phase != "play" or len(state.legal_actions()) < 2:
            state.apply(rng.choice(state.legal_actions()))
        seat = state.current_player
        assert seat is not None
        chosen = set()
        for _ in range(2):
            calls.clear()
            chosen.add(PimcBot(seed=7, worlds=24).act(view_of(state, seat)))
            assert len(calls) == 24, seed
        assert len(chosen) == 1, seed


def test_pimc_with_a_time_budget_bounds_each_solve_and_still_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``time`` budget is every solve's time limit, so a deep world cannot hold a decision up;
    here every solve overruns, so no world is solved and the decision is rolled out instead."""
    import tricktaker.solver as solver
    from tricktaker.solver import SolveTimeout

    limits: list[float | None] = []

    def overrunning_solve(state: tt.State, time_limit: float | None = None,
                          node_limit: int | None = None, **kwargs: Any) -> object:
        limits.append(time_limit)
        raise SolveTimeout("too deep")

    monkeypatch.setattr(solver, "solve", overrunning_solve)
    state = tt.new_game("tute").new_hand(seed=2)
    while True:
        observation = state.observation(state.current_player)  # type: ignore[arg-type]
        if observation["phase"] == "play" and len(observation["hand"]) <= 4 \
                and len(state.legal_actions()) > 1:
            break
        state.apply(state.legal_actions()[0])
    view = view_of(state, state.current_player)  # type: ignore[arg-type]
    bot = PimcBot(seed=1, worlds=5, time=0.5)
    started = time.perf_counter()
    action = bot.act(view)
    assert time.perf_counter() - started < 0.5
    assert limits and all(limit is not None and 0 < limit <= 0.5 for limit in limits)
    assert action in view.legal_actions


def test_ismcts_decides_in_bidding_exchange_and_play() -> None:
    """One generic search for every phase: Huutopussi's auction, its exchange of card sets, and play."""
    state = tt.new_game("huutopussi").new_hand(seed=8)
    bot = IsmctsBot(seed=3, iterations=40)
    rules = make_bot("rules", seed=0)
    phases = set()
    while not state.is_over() and len(phases) < 3:
        seat = state.current_player
        assert seat is not None
        view = view_of(state, seat)
        action = bot.act(view) if len(view.legal_actions) > 1 else rules.act(view)
        assert action in view.legal_actions
        if len(view.legal_actions) > 1:
            phases.add(state.phase)
        state.apply(action)
    assert len(phases) >= 3, phases


def test_pimc_spends_at_most_its_node_budget_and_rolls_out_what_it_cannot_solve(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A card-play decision's solves visit at most ``nodes`` search nodes in all (to within the
    kernel's poll); when they solve ``min_worlds`` worlds the decision is made on those, else
    it is rolled out instead."""
    from tricktaker.solver.points import first_play, shared_solver

    rolled: list[int] = []
    real_rollouts = PimcBot._rolled_out_scores

    def counting_rollouts(self: PimcBot, *args: object) -> object:
        rolled.append(1)
        return real_rollouts(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(PimcBot, "_rolled_out_scores", counting_rollouts)
    state = first_play(tt.new_game("marjapussi").new_hand(seed=6), random.Random(6))
    for _ in range(12):  # three tricks in: worlds of 6 cards, a thousand nodes or more each
        state.apply(state.legal_actions()[0])
    view = view_of(state, state.current_player)  # type: ignore[arg-type]
    counter = shared_solver()

    def decide(**options: object) -> tuple[tt.Action, int]:
        rolled.clear()
        start = counter.nodes
        action = PimcBot(seed=3, worlds=8, solve_cards=9, **options).act(view)  # type: ignore[arg-type]
        return action, counter.nodes - start

    _, unlimited = decide(nodes=0)
    assert not rolled and unlimited > 10_000  # (room for budgets well past the poll of 1,024)
    budget = unlimited // 2
    _, spent = decide(nodes=budget, min_worlds=2)
    assert not rolled, "a budget for two or more of eight worlds decides on those"
    assert spent <= budget + 1024
    action, spent = decide(nodes=budget, min_worlds=8)
    assert rolled and spent <= budget + 1024 and action in view.legal_actions
    with pytest.raises(ValueError, match="nodes must be 0"):
        PimcBot(nodes=-1)
    assert pimc_module.NODE_BUDGET["marjapussi"] > 0 and "huutopussi" not in pimc_module.NODE_BUDGET
    with pytest.raises(ValueError, match="min_worlds must be at least 1"):
        PimcBot(min_worlds=0)


def test_pimc_keeps_the_rules_choice_unless_rollouts_clearly_beat_it() -> None:
    from tricktaker.bots.pimc import _clearly_better

    assert _clearly_better([2.0, 3.0, 2.0, 3.0], [1.0, 2.0, 1.0, 2.0], 1.5)  # +1 in every world
    assert not _clearly_better([9.0, -7.0, 8.0, -8.0], [0.0] * 4, 1.5)  # +0.5 on average, by luck
    assert not _clearly_better([1.0, 1.0], [1.0, 1.0], 0.0)


def test_a_world_drawn_twice_counts_once_in_the_rules_choices_guard() -> None:
    """Weighted worlds repeat: 24 scores of 3 distinct worlds are worth 3 worlds, not 24, so a
    difference the repeats make look steady is not taken for a clear one."""
    from tricktaker.bots.pimc import _clearly_better, distinct_worlds

    assert distinct_worlds([1, 2, 3, 4]) == 4
    assert distinct_worlds([7] * 24) == 1
    assert distinct_worlds([1, 1, 2, 2]) == pytest.approx(2.0)
    assert distinct_worlds([1, 1, 1, 2]) == pytest.approx(16 / 10)
    challenger = [4.0, -1.0, 0.5] * 8  # three worlds, each drawn eight times
    incumbent = [0.0] * 24
    assert _clearly_better(challenger, incumbent, 1.5)  # read as 24 worlds: +1.17 against 0.44 error
    assert not _clearly_better(challenger, incumbent, 1.5, distinct_worlds([1, 2, 3] * 8))  # error 1.24
    assert not _clearly_better([2.0] * 8, [0.0] * 8, 1.5, distinct_worlds([5] * 8))  # one world
    assert _clearly_better([3.0, 2.0, 3.0, 2.0], [0.0] * 4, 1.5, 4.0)


def test_pimc_rolls_out_a_world_drawn_twice_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``infer`` the worlds are resampled by weight; a repeated world is played out once
    per candidate, and the guard is told how many distinct worlds there were."""
    state = tt.new_game("huutopussi").new_hand(seed=4)
    rules = make_bot("rules", seed=1)
    while state.phase != "play":  # the auction and the exchange say much about the hands
        state.apply(rules.decide(view_of(state, state.current_player)))  # type: ignore[arg-type]
    view = view_of(state, state.current_player)  # type: ignore[arg-type]
    played: list[int] = []
    real_play_out = pimc_module.play_out

    def counting_play_out(*args: object) -> list[float]:
        played.append(1)
        return real_play_out(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(pimc_module, "play_out", counting_play_out)
    bot = PimcBot(seed=2, worlds=12, infer="rules", trust=0.9, pool=3)
    choices = pimc_module.candidates(view, random.Random(0), 12)
    scores, distinct = bot._rolled_out_scores(view, choices, None)
    worlds = list(PimcBot(seed=2, worlds=12, infer="rules", trust=0.9, pool=3)._worlds(view))
    unique = len({id(w) for w in worlds})
    assert unique < 12, "the auction should make the weights repeat some world"
    assert all(len(s) == 12 for s in scores.values())
    assert len(played) == unique * len(choices)
    assert distinct == pytest.approx(pimc_module.distinct_worlds([id(w) for w in worlds]))
    assert distinct < unique + 1e-9


def test_hand_rewards_are_zero_sum_per_side() -> None:
    state = tt.new_game("huutopussi", players=3).new_hand(seed=2)
    rng = random.Random(1)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    rewards = hand_rewards(state)
    assert len(rewards) == 3 and abs(sum(rewards)) < 1e-9
    points = state.hand_points
    assert rewards[0] - rewards[1] == pytest.approx(1.5 * (points[0] - points[1]))


# -- the registry -------------------------------------------------------------------------


def test_every_bot_is_registered_by_name() -> None:
    assert set(BOTS) == {"random", "rules", "pimc", "ismcts", "oracle", "alphamu"}
    for name in BOTS:
        assert make_bot(name, seed=1).name == name


def test_bot_specs_carry_options() -> None:
    bot = make_bot("pimc:worlds=7:time=0.5:rollout=random", seed=1)
    assert isinstance(bot, PimcBot)
    assert (bot.worlds, bot.time, bot.rollout) == (7, 0.5, "random")
    assert parse_bot("ISMCTS:iterations=9") == ("ismcts", {"iterations": 9})


@pytest.mark.parametrize(("spec", "message"), [
    ("minimax", "unknown bot 'minimax'"),
    ("pimc:depth=3", "bot 'pimc' has no option 'depth'"),
    ("pimc:worlds", "bot option must be key=value"),
    ("pimc:worlds=0", "pimc option worlds must be a whole number 1..100000, not 0"),
    ("pimc:stock_cards=-1", "pimc option stock_cards must be a whole number 0..52 or none, not -1"),
    ("pimc:stock_cards=many", "pimc option stock_cards must be a whole number 0..52 or none, not many"),
    ("ismcts:rollout=smart", "ismcts option rollout must be one of .*, not smart"),
    ("random:worlds=2", "bot 'random' has no option 'worlds'"),
])
def test_bad_bot_specs_name_the_problem(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_a_bot_with_no_turn_refuses_to_act() -> None:
    state = tt.new_game("tuppi").new_hand(seed=1)
    other = (state.current_player + 1) % 4
    for name in BOTS:
        with pytest.raises(ValueError, match="not its turn"):
            make_bot(name, seed=1).act(view_of(state, other))


def test_solve_cards_defaults_cover_every_game() -> None:
    """Every game has a solve limit; a variant's own key (``name/players``) names a real variant."""
    tables = (pimc_module.SOLVE_CARDS, pimc_module.STOCK_SOLVE_CARDS, pimc_module.NODE_BUDGET)
    assert set(pimc_module.SOLVE_CARDS) >= set(tt.GAMES)
    for table in tables:
        for key in table:
            name, _, players = key.partition("/")
            assert name in tt.GAMES, key
            if players:
                tt.new_game(name, players=int(players))  # (a player count the game has)


def test_a_variant_has_its_own_solve_limit_and_budget() -> None:
    """``pimc.setting``: Huutopussi for three solves its whole hand within a node budget
    (``huutopussi/3``), the four-player game keeps the game's limit and no budget; the server
    caps a ``solve_cards`` option at the largest of the game's variants."""
    from tricktaker.bots.pimc import NODE_BUDGET, SOLVE_CARDS, largest_setting, setting

    three, four = tt.new_game("huutopussi", players=3), tt.new_game("huutopussi")
    assert setting(SOLVE_CARDS, three, 0) == 11
    assert setting(SOLVE_CARDS, four, 0) == SOLVE_CARDS["huutopussi"] == 9
    assert setting(NODE_BUDGET, three, 0) > 0 and setting(NODE_BUDGET, four, 0) == 0
    assert setting(SOLVE_CARDS, tt.new_game("tute", players=2), 0) == SOLVE_CARDS["tute"]
    assert setting(NODE_BUDGET, tt.new_game("tute"), 0) > 0  # Tute in pairs has a budget
    assert setting(NODE_BUDGET, tt.new_game("tute", players=3), 0) == 0
    assert largest_setting(SOLVE_CARDS, "huutopussi") == 11
    assert largest_setting(SOLVE_CARDS, "tuppi") == SOLVE_CARDS["tuppi"]
    assert largest_setting(SOLVE_CARDS, "nosuchgame") == 0


def test_pimc_solves_tute_in_pairs_from_its_first_card_and_tute_for_three_from_eleven() -> None:
    """``SOLVE_CARDS``: a Tute-in-pairs world at its first card play (10 cards) solves within a
    decision's budget, so the whole hand is solved, as is Huutopussi for two's (11,
    ``huutopussi/2``); Tute for three (13 cards) from its eleventh card to play (``tute/3``),
    Avomarjapussi from 14 cards with its rows."""
    from tricktaker.bots.pimc import cards_to_play, within_solve_limits
    from tricktaker.solver.points import first_play

    def to_play(state: tt.State) -> int:
        seat = state.current_player
        assert seat is not None
        return cards_to_play(state.observation(seat), seat)

    def solved(state: tt.State) -> bool:
        seat = state.current_player
        assert seat is not None
        return within_solve_limits(state.game, state.observation(seat), seat)

    def solved_by_size(game: tt.Game, down_to: int) -> dict[int, bool]:
        """Whether each card play of a hand played by ``rules`` is solved, by cards to play."""
        rules = make_bot("rules", seed=1)
        state = first_play(game.new_hand(seed=2), random.Random(2))
        seen: dict[int, bool] = {}
        while not state.is_over() and to_play(state) >= down_to:
            seen[to_play(state)] = solved(state)
            state.apply(rules.act(view_of(state, state.current_player)))
        return seen

    pairs = first_play(tt.new_game("tute").new_hand(seed=2), random.Random(2))
    assert to_play(pairs) == 10 and solved(pairs)
    two = first_play(tt.new_game("huutopussi", players=2).new_hand(seed=2), random.Random(2))
    assert to_play(two) == 11 and solved(two)
    seen = solved_by_size(tt.new_game("tute", players=3), 10)
    assert seen == {13: False, 12: False, 11: True, 10: True}
    sizes = solved_by_size(tt.new_game("avomarjapussi"), 12)
    assert sizes[14] and not sizes[15] and not any(v for k, v in sizes.items() if k > 14)


def test_pimc_solves_huutopussi_for_three_from_the_first_trick(monkeypatch: pytest.MonkeyPatch) -> None:
    """By default the first trick (11 cards to play) and the second (10) are solved, each
    decision's solves within the variant's node budget."""
    import tricktaker.solver as solver

    seen: list[tuple[int, int | None]] = []

    def counting_solve(state: tt.State, time_limit: float | None = None,
                       node_limit: int | None = None, **kwargs: Any) -> object:
        seen.append((len(state.hand(state.current_player)), node_limit))  # type: ignore[attr-defined]
        return real_solve(state, time_limit=time_limit, node_limit=node_limit, **kwargs)

    real_solve = solver.solve
    game = tt.new_game("huutopussi", players=3)
    state = game.new_hand(seed=2)
    rules = make_bot("rules", seed=1)
    while state.phase != "play":  # type: ignore[attr-defined]
        state.apply(rules.act(view_of(state, state.current_player)))
    monkeypatch.setattr(solver, "solve", counting_solve)
    pimc = PimcBot(seed=1, worlds=2)
    for _ in range(6):  # the first two tricks
        seat = state.current_player
        assert seat is not None
        if state.phase != "play":  # type: ignore[attr-defined]
            state.apply(rules.act(view_of(state, seat)))
            continue
        state.apply(pimc.act(view_of(state, seat)))
    assert {size for size, _ in seen} == {11, 10}, "the first two tricks were not solved"
    budget = pimc_module.NODE_BUDGET["huutopussi/3"]
    assert all(limit is not None and 0 < limit <= budget for _, limit in seen)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_warm_up_solves_an_endgame_of_every_variant(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``tricktaker play`` runs in the background so the solver is compiled before a bot needs it."""
    import tricktaker.solver as solver

    solved = []
    real = solver.solve
    monkeypatch.setattr(solver, "solve", lambda state: solved.append(state) or real(state))
    name, options = VARIANTS[variant]
    game = tt.new_game(name, **options)
    pimc_module.warm_up(game)
    if getattr(game, "cabrero", False):  # never solved: the solver refuses Tute cabrero
        assert solved == []
        return
    assert len(solved) == 1 and solved[0].phase in ("play", "declare", "answer")
