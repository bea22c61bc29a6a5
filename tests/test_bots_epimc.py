"""The αμ bot (``alphamu``, issue 22's "beyond PIMC"): its spec, its search's pieces, its play
on constructed Tuppi endgames against ``pimc`` on the same positions, and its search in the
last cards of every point game.

The endgames are built from a full deal whose first ten tricks are filler cards of one suit
each (everybody follows suit, so no void is shown), leaving three chosen cards per seat.
"""

from __future__ import annotations

import math
import random
import time

import pytest

import tricktaker as tt
from tricktaker.bots import AlphaMuBot, BotSpecError, make_bot, view_of
from tricktaker.bots.alphamu import SEARCH_CARDS, _combine, pareto
from tricktaker.bots.pimc import cards_to_play
from tricktaker.engine import State
from tricktaker.solver import made, side_of, solve

RANKS = "23456789TJQKA"


def endgame(hands: list[str], leader: int = 0) -> State:
    """A Tuppi rami hand (seat 1 declares) at its 11th trick: ``hands`` left, ``leader`` to lead.

    Each suit's cards outside ``hands`` are played in tricks of four of that suit (so each
    suit must have 1, 5 or 9 cards in ``hands``); the last filler trick's top card is the
    leader's.
    """
    cards = [h.split() for h in hands]
    used = {c for h in cards for c in h}
    groups = []
    for suit in "SHDC":
        rest = [r + suit for r in RANKS if r + suit not in used]
        assert len(rest) % 4 == 0, f"suit {suit}: {13 - len(rest)} cards left is not 1, 5 or 9"
        groups += [rest[i:i + 4] for i in range(0, len(rest), 4)]
    deal = [list(h) for h in cards]
    plan = []
    for number, group in enumerate(groups):
        seats = [0, 1, 2, 3]
        if number == len(groups) - 1:
            seats = [s for s in seats if s != leader] + [leader]
        by_seat = dict(zip(seats, group, strict=True))  # group is in rank order: the last wins
        for seat, card in by_seat.items():
            deal[seat].append(card)
        plan.append(by_seat)
    state = tt.new_game("tuppi", bid_cards=True, sooli=False).new_hand(
        deal=[" ".join(h) for h in deal], dealer=0)
    for bid in ("rami", "nolo", "nolo", "nolo"):
        state.apply(f"bid {bid}")
    for by_seat in plan:
        for _ in range(4):
            state.apply(f"play {by_seat[state.current_player]}")
    assert state.current_player == leader
    return state


ENDGAME = ["8C 3S 4S", "5D 4H 7C", "QS 4C 5C", "KC AS 7S"]
"""Seat 0 to lead with 8C 3S 4S: a position where the rules-played partner makes the search
rate 8C below the spades while PIMC (an all-seeing partner) rates it a little above them."""


def searching(seed: int, **options: object) -> AlphaMuBot:
    bot = make_bot("alphamu", seed=seed, search_cards=3, **options)
    assert isinstance(bot, AlphaMuBot)
    return bot


# -- the spec ------------------------------------------------------------------------------


def test_alphamu_spec_carries_its_options() -> None:
    bot = make_bot("alphamu:m=3:worlds=10:time=0.5:search_cards=3:partner=best", seed=1)
    assert isinstance(bot, AlphaMuBot)
    assert (bot.m, bot.worlds, bot.time, bot.search_cards, bot.partner) == (3, 10, 0.5, 3, "best")
    assert (bot.pimc.worlds, bot.pimc.time) == (10, 0.5)  # the fallback has the same budget


@pytest.mark.parametrize(("spec", "message"), [
    ("alphamu:m=0", "alphamu option m must be a whole number 1..5, not 0"),
    ("alphamu:m=2.5", "alphamu option m must be a whole number 1..5, not 2.5"),
    ("alphamu:worlds=0", "alphamu option worlds must be a whole number 1..1000, not 0"),
    ("alphamu:search_cards=14", "alphamu option search_cards must be a whole number 0..13 or none"),
    ("alphamu:time=0", "alphamu option time must be a number above 0"),
    ("alphamu:depth=2", "bot 'alphamu' has no option 'depth'"),
    ("alphamu:partner=oracle", "alphamu option partner must be one of rules, best"),
])
def test_bad_alphamu_specs_raise_bot_spec_errors(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec)


# -- the search's pieces ------------------------------------------------------------------------


def test_pareto_keeps_the_vectors_no_other_beats_in_every_world() -> None:
    assert pareto([(1, 0), (0, 1), (1, 1), (0, 0), (1, 1)]) == [(1, 1)]
    assert pareto([(2, 0), (0, 2), (1, 1), (1, 0)]) == [(2, 0), (0, 2), (1, 1)]


def test_one_card_for_every_world_is_what_removes_strategy_fusion(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two worlds at the bot's last searched move, where its first card makes a trick only in
    world 0 and its second only in world 1.  PIMC counts a trick in each world; the bot's leaf
    front holds one vector per card, so its best plan makes half a trick a world."""
    state = endgame(ENDGAME)
    worlds = [state.clone(), state.clone()]
    first, second, third = state.legal_actions()
    solved = [{first: 1, second: 0, third: 0}, {first: 0, second: 1, third: 0}]
    bot = AlphaMuBot(seed=0)
    monkeypatch.setattr(bot, "_solve_all", lambda _worlds: solved)
    front = bot._leaf(worlds, [made(w, 0, 0) for w in worlds])
    pimc = sum(max(values.values()) for values in solved) / 2
    assert pimc == 1.0
    assert sorted(front) == [(0.0, 1.0), (1.0, 0.0)]
    assert max(sum(v) / 2 for v in front) == 0.5


def test_an_opponent_takes_each_worlds_minimum_over_its_legal_actions() -> None:
    """Three worlds; action x legal in worlds 0 and 1, y in 1 and 2: world 1 takes the worse."""
    x = (0, 1), [(3.0, 2.0)]
    y = (1, 2), [(1.0, 5.0), (4.0, 0.0)]
    combined = _combine([([0, 1], x[1]), ([1, 2], y[1])], 3, worst=True)
    assert sorted(combined) == sorted([(3.0, 1.0, 5.0), (3.0, 2.0, 0.0)])
    assert all(math.isfinite(v) for vector in combined for v in vector)


POINT_VARIANTS = {"tute-pairs": ("tute", {}), "tute-three": ("tute", {"players": 3}),
                  "tute-habanero": ("tute", {"players": 2}), "marjapussi": ("marjapussi", {}),
                  "bondtolva": ("bondtolva", {}), "bondtolva-two": ("bondtolva", {"players": 2}),
                  "huutopussi": ("huutopussi", {}), "huutopussi-three": ("huutopussi", {"players": 3}),
                  "huutopussi-two": ("huutopussi", {"players": 2})}
"""Every point-game variant αμ searches (Avomarjapussi is not searched: its face-down cards turn
up differently in each world, so the bot's own later choices differ between worlds)."""


def check_made_plus_value_counts_from_the_root(state: State) -> int:
    """Check, for each action, that what the mover's side makes on the way plus the solver's
    value after it (when that side moves again) or at the hand's end equals the action's value;
    return how many actions were checked."""
    hand, mover = state.hand_number, state.current_player
    assert mover is not None
    side = side_of(state, mover)
    checked = 0
    for action, value in solve(state).values.items():
        child = state.clone()
        child.apply(action)
        gained = made(child, side, hand) - made(state, side, hand)
        if child.is_over() or child.hand_number != hand:
            assert gained == value, (str(action), gained, value)
        elif side_of(child, child.current_player) == side:
            assert gained + solve(child).value == value, (str(action), gained, value)
        else:
            continue
        checked += 1
    return checked


def test_made_tricks_plus_the_solvers_value_count_from_the_root() -> None:
    """What makes leaves of different branches comparable: after an action, the tricks made on
    the way plus the solver's value there equal the solver's value of that action before it
    (rami and nolo hands of random play, from four cards left to the end)."""
    checked: dict[str, int] = {"rami": 0, "nolo": 0}
    for seed in range(8):
        rng = random.Random(seed)
        contract = ("rami", "nolo")[seed % 2]
        state = tt.new_game("tuppi", bid_cards=True, sooli=False).new_hand(seed=seed, dealer=0)
        for bid in (contract, "nolo", "nolo", "nolo"):
            state.apply(f"bid {bid}")
        assert state.contract == contract
        while not state.is_over() and state.hand_number == 0:
            mover = state.current_player
            assert mover is not None
            if len(state.hand(mover)) <= 4:
                checked[contract] += check_made_plus_value_counts_from_the_root(state)
            state.apply(rng.choice(state.legal_actions()))
    assert min(checked.values()) >= 10, checked


@pytest.mark.parametrize("variant", sorted(POINT_VARIANTS))
def test_made_points_plus_the_solvers_value_count_from_the_root(variant: str) -> None:
    """The same in every point game αμ searches: card points, cantes, marriages, calls and the
    last trick made on the way (random play, the last three cards of each seat after any stock)."""
    name, options = POINT_VARIANTS[variant]
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = tt.new_game(name, **options).new_hand(seed=seed)
        while not state.is_over() and state.hand_number == 0:
            mover = state.current_player
            assert mover is not None
            observation = state.observation(mover)
            if (state.phase in ("play", "declare", "answer") and not observation.get("stock_size")
                    and cards_to_play(observation, mover) <= 3):
                checked += check_made_plus_value_counts_from_the_root(state)
            state.apply(rng.choice(state.legal_actions()))
    assert checked >= 6, checked


# -- play ------------------------------------------------------------------------------------



def test_alphamu_never_values_an_action_above_pimc() -> None:
    """One plan for every world can do no better than the best plan for each world apart."""
    state = endgame(ENDGAME)
    bot = searching(seed=2, worlds=16)
    bot.act(view_of(state, 0))
    scores = bot.last_scores
    assert set(scores["alphamu"]) == set(state.legal_actions())
    for action, value in scores["alphamu"].items():
        assert value <= scores["pimc"][action] + 1e-9


def test_an_all_seeing_partner_values_every_action_at_least_as_the_rules_partner() -> None:
    """``partner=best`` takes in each world the partner's best card, so no plan of the bot gets
    less than with the rules-played partner, and still no more than PIMC's."""
    state = endgame(ENDGAME)
    by_rules, by_best = searching(seed=2, worlds=16), searching(seed=2, worlds=16, partner="best")
    by_rules.act(view_of(state, 0))
    by_best.act(view_of(state, 0))
    assert by_best.last_scores["pimc"] == by_rules.last_scores["pimc"]  # the same worlds
    rules_scores, best_scores, pimc_scores = (by_rules.last_scores["alphamu"], by_best.last_scores["alphamu"],
                                              by_best.last_scores["pimc"])
    for action, value in best_scores.items():
        assert rules_scores[action] - 1e-9 <= value <= pimc_scores[action] + 1e-9
    assert best_scores != rules_scores


def test_alphamu_with_m1_plays_exactly_as_pimc() -> None:
    """In the bidding of a new hand and to the end of an endgame, decision by decision."""
    for state in (tt.new_game("tuppi").new_hand(seed=4), endgame(ENDGAME)):
        one, pimc = make_bot("alphamu:m=1:worlds=4", seed=9), make_bot("pimc:worlds=4", seed=9)
        for _ in range(4 if state.phase == "bid" else 12):
            view = view_of(state, state.current_player)
            action = one.act(view)
            assert action is pimc.act(view)
            state.apply(action)


def test_alphamu_decides_from_the_view_alone() -> None:
    """Two true deals the seat cannot tell apart get the same decision and the same scores."""
    state = endgame(ENDGAME)
    twin = view_of(state, 0).sample_world(random.Random(5))
    assert [twin.hand(s) for s in range(4)] != [state.hand(s) for s in range(4)]
    assert twin.observation(0) == state.observation(0)
    one, other = searching(seed=7, worlds=12), searching(seed=7, worlds=12)
    assert one.act(view_of(state, 0)) is other.act(view_of(twin, 0))
    assert one.last_scores == other.last_scores


def test_alphamu_replays_exactly_from_a_seed_and_only_plays_legal_actions() -> None:
    def endgame_played(seed: int) -> list[str]:
        state = endgame(["AD 2S 2H", "AH 3H 3S", "AS KS 2C", "KH 4H 4S"])
        bots = [searching(seed=seed + s, worlds=8) for s in range(4)]
        played = []
        while not state.is_over() and state.hand_number == 0:
            seat = state.current_player
            assert seat is not None
            view = view_of(state, seat)
            action = bots[seat].act(view)
            assert action in view.legal_actions
            played.append(str(action))
            state.apply(action)
        assert sum(bot.searches for bot in bots) >= 4
        return played

    assert endgame_played(5) == endgame_played(5)


def test_alphamu_plays_pimc_outside_small_card_play() -> None:
    """Big hands go to PIMC's code: a Tute hand's first tricks are played with no search."""
    state = tt.new_game("tute").new_hand(seed=3)
    bot = make_bot("alphamu:worlds=2", seed=1)
    assert isinstance(bot, AlphaMuBot)
    for _ in range(12):
        seat = state.current_player
        assert seat is not None
        view = view_of(state, seat)
        action = bot.act(view)
        assert action in view.legal_actions
        state.apply(action)
    assert bot.searches == 0


@pytest.mark.parametrize("variant", sorted(POINT_VARIANTS))
def test_alphamu_searches_the_last_cards_of_every_point_game(variant: str) -> None:
    """From four cards each to the end, every seat an αμ bot: the search takes the card plays,
    never values an action above PIMC, and plays only legal actions (calls included)."""
    name, options = POINT_VARIANTS[variant]
    assert SEARCH_CARDS[name] >= 4
    rng = random.Random(1)
    state = tt.new_game(name, **options).new_hand(seed=2)
    while True:
        observation = state.observation(state.current_player)
        if (state.phase == "play" and not observation.get("stock_size")
                and cards_to_play(observation, state.current_player) <= 4):
            break
        state.apply(rng.choice(state.legal_actions()))
    bots = [make_bot("alphamu:worlds=6", seed=seat) for seat in range(state.num_players)]
    while not state.is_over() and state.hand_number == 0:
        seat = state.current_player
        assert seat is not None
        view = view_of(state, seat)
        bot = bots[seat]
        assert isinstance(bot, AlphaMuBot)
        searched = bot.searches
        action = bot.act(view)
        assert action in view.legal_actions
        if bot.searches > searched:
            for choice, value in bot.last_scores["alphamu"].items():
                assert value <= bot.last_scores["pimc"][choice] + 1e-9
        state.apply(action)
    assert sum(bot.searches for bot in bots if isinstance(bot, AlphaMuBot)) >= 4


def test_alphamu_leaves_avomarjapussi_to_pimc() -> None:
    """Its face-down cards turn up differently in each world, so the bot's own later choices are
    not one set for every world: no search, PIMC's card."""
    assert "avomarjapussi" not in SEARCH_CARDS
    rng = random.Random(3)
    state = tt.new_game("avomarjapussi").new_hand(seed=3)
    bot = make_bot("alphamu:worlds=4", seed=1)
    assert isinstance(bot, AlphaMuBot)
    while not state.is_over() and state.hand_number == 0:
        view = view_of(state, state.current_player)
        if len(view.legal_actions) > 1 and rng.random() < 0.3:
            assert not bot.searches_here(view)
            assert bot.act(view) in view.legal_actions
        state.apply(rng.choice(state.legal_actions()))
    assert bot.searches == 0


def test_a_spent_time_budget_falls_back_without_an_illegal_action() -> None:
    state = endgame(ENDGAME)
    bot = searching(seed=1, worlds=200, time=1e-4)
    view = view_of(state, 0)
    assert bot.act(view) in view.legal_actions
    assert bot.searches == 0


def test_alphamu_decides_an_endgame_well_within_a_second() -> None:
    state = endgame(ENDGAME)
    took = []
    for seed in range(3):
        start = time.perf_counter()
        searching(seed=seed, worlds=24).act(view_of(state, 0))
        took.append(time.perf_counter() - start)
    assert sorted(took)[1] < 1.0
