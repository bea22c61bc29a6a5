"""The shared encoder of the research environments: action tables, tensors, no leaks.

Every game and variant of ``test_contract.VARIANTS`` is covered: each legal
action has a fixed index, the fast path of the encoder gives exactly what
reading the spectator view gives, and a seat's tensor (and information string)
is the same in every world ``sample_world(seat)`` returns, in every phase.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from test_contract import VARIANTS  # noqa: E402

import tricktaker as tt  # noqa: E402
from tricktaker.engine import TrickState  # noqa: E402
from tricktaker.envs.encoding import EnvSpec, describe, spec_for  # noqa: E402
from tricktaker.envs.session import (  # noqa: E402
    Session,
    hand_rewards,
    max_decisions,
    new_state,
    replay,
    reward_bound,
)

PHASES = {
    "tuppi": {"bid", "sooli", "discard", "give", "play"},
    "tuppi-tournament": {"bid", "play"},
    "tute-pairs": {"play", "declare"},
    "tute-habanero": {"play"},
    "tute-variants": {"play", "declare"},
    "tute-habanero-anytime": {"play"},
    "tute-three": {"play", "declare"},
    "tute-cabrero": {"play", "declare"},
    "tute-cabrero-three": {"play", "declare"},
    "tute-cabrero-five": {"play", "declare"},
    "tute-cabrero-six": {"play", "declare"},
    "marjapussi": {"play", "answer"},
    "marjapussi-ordered": {"play", "answer"},
    "bondtolva": {"play", "answer"},
    "bondtolva-two": {"play"},
    "avomarjapussi": {"play"},
    "huutopussi": {"bid", "give", "raise", "return", "play", "answer"},
    "huutopussi-three": {"bid", "raise", "discard", "play"},
    "huutopussi-three-kitty6": {"bid", "raise", "discard", "play"},
    "huutopussi-main-form": {"bid", "give", "raise", "return", "play", "answer"},
    "huutopussi-variants": {"bid", "give", "raise", "return", "play", "answer"},
    "huutopussi-2002": {"bid", "give", "return", "raise", "play", "answer"},
    "huutopussi-2002-three": {"bid", "discard", "raise", "play"},
    "huutopussi-two": {"bid", "raise", "discard", "play"},
    "huutopussi-2002-two": {"bid", "discard", "raise", "play"},
}
"""The phases the no-leak test must have visited, per variant."""


def make_game(variant: str) -> tt.Game:
    name, options = VARIANTS[variant]
    return tt.new_game(name, **options)


def play(session: Session, rng: random.Random, limit: int = 400) -> int:
    """Random legal indices until the state is over (or ``limit`` actions); returns the count."""
    steps = 0
    while session.current_player is not None and steps < limit:
        session.apply(rng.choice(session.legal()))
        steps += 1
    return steps


def test_importing_tricktaker_and_the_envs_package_imports_no_dependency() -> None:
    code = ("import sys, tricktaker, tricktaker.envs, tricktaker.cli; "
            "print(sorted(m for m in ('numpy', 'pettingzoo', 'pyspiel', 'gymnasium') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- the action table --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_legal_action_has_an_index_that_applies_it(variant: str) -> None:
    game = make_game(variant)
    spec = spec_for(game)
    assert len(set(spec.action_texts)) == spec.num_actions
    rng = random.Random(1)
    seen = 0
    for seed in range(6):
        session = Session(new_state(game, seed % 3 == 0, seed, seed % game.num_players))
        while session.current_player is not None and session.state.hand_number < 2:
            legal = session.legal()
            assert legal and len(set(legal)) == len(legal)
            assert all(0 <= i < spec.num_actions for i in legal)
            mask = session.mask()
            assert mask.dtype == np.int8 and set(np.flatnonzero(mask)) == set(legal)
            if not session.picks and not spec.pick_kind_of.get(legal[0]):
                texts = sorted(a.text for a in session.state.legal_actions())
                assert sorted(spec.action_texts[i] for i in legal) == texts
            index = rng.choice(legal)
            before = len(session.state.history)
            session.apply(index)
            seen += 1
            if index not in spec.pick_kind_of:
                assert session.state.history[before].text == spec.action_texts[index]
    assert seen > 100


def test_action_indices_are_fixed() -> None:
    """Indices are part of the interface (docs/envs.md): these must never move."""
    tuppi = spec_for(tt.new_game("tuppi")).action_index
    assert (tuppi["play AS"], tuppi["play 2C"], tuppi["bid AS"], tuppi["bid rami"], tuppi["bid nolo"],
            tuppi["sooli"], tuppi["pass"], tuppi["discard AS"], tuppi["give 2C"]) == (
        0, 51, 52, 104, 105, 106, 107, 108, 211)
    tute = spec_for(tt.new_game("tute")).action_index
    assert (tute["play 12O"], tute["play 1B"], tute["sing 40"], tute["sing 20 B"], tute["tute"],
            tute["pass"]) == (0, 39, 40, 44, 45, 47)
    marja = spec_for(tt.new_game("marjapussi")).action_index
    assert (marja["play AS"], marja["declare S"], marja["ask whole"], marja["ask half C"],
            marja["answer S"], marja["answer no"]) == (0, 36, 40, 44, 45, 49)
    huuto = spec_for(tt.new_game("huutopussi")).action_index
    assert (huuto["bid 50"], huuto["bid 440"], huuto["pass"], huuto["redeal"], huuto["raise 55"],
            huuto["raise 440"], huuto["pick give AS"], huuto["pick discard 6C"]) == (
        50, 128, 129, 130, 131, 208, 209, 280)


def test_card_sets_are_picked_one_card_at_a_time_in_deck_order() -> None:
    game = tt.new_game("huutopussi")
    spec = spec_for(game)
    session = Session(new_state(game, False, 4, 0))
    rng = random.Random(4)
    while session.state.phase == "bid":
        session.apply(rng.choice(session.legal()))
    assert session.state.phase == "give"
    giver = session.current_player
    hand = sorted(spec.card_index[c.mask] for c in session.state.hand(giver))
    base = spec.pick_base["give"]
    assert sorted(session.legal()) == [base + c for c in hand[:-2]]  # two cards must remain above
    session.apply(base + hand[1])
    assert sorted(session.legal()) == [base + c for c in hand[2:-1]]
    with pytest.raises(tt.IllegalActionError):
        session.apply(base + hand[0])  # below a card already picked
    with pytest.raises(tt.IllegalActionError):
        session.apply(spec.action_index["pass"])  # not while picking
    picking = spec.layout["picking"].offset
    tensor = session.tensor(giver)
    assert tensor[picking + hand[1]] == 1 and tensor[picking:picking + len(spec.cards)].sum() == 1
    assert session.state.phase == "give" and not session.state.history[-1].kind == "give"
    session.apply(base + hand[4])
    session.apply(base + hand[7])
    given = session.state.history[-1]
    assert given.text == "give " + " ".join(spec.cards[c].text for c in (hand[1], hand[4], hand[7]))
    assert session.tensor(giver)[picking:picking + len(spec.cards)].sum() == 0


def test_an_illegal_index_raises_and_changes_nothing() -> None:
    session = Session(new_state(tt.new_game("tuppi"), False, 2, 0))
    before = session.state.to_json()
    tensor = session.tensor(1)
    for index in (session.spec.action_index["play AS"], 10_000, -1):
        if index in session.legal():
            continue
        with pytest.raises(tt.IllegalActionError):
            session.apply(index)
    assert session.state.to_json() == before
    assert np.array_equal(session.tensor(1), tensor)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_describe_lists_every_block_and_action_range(variant: str) -> None:
    game = make_game(variant)
    spec = spec_for(game)
    text = describe(game)
    assert f"tensor of {spec.size} floats, {spec.num_actions} actions" in text
    for block in spec.layout.blocks:
        assert f" {block.name} " in text
    offsets = [b.offset for b in spec.layout.blocks]
    last = spec.layout.blocks[-1]
    assert offsets == sorted(offsets) and last.offset + last.size == spec.size


# -- the tensor ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_fast_path_gives_what_reading_the_spectator_view_gives(variant: str) -> None:
    """Action by action, the incremental tensors equal a session that re-reads everything."""
    game = make_game(variant)
    for seed in range(4):
        match = seed % 2 == 0
        fast = Session(new_state(game, match, seed, seed % game.num_players))
        strict = Session(new_state(game, match, seed, seed % game.num_players), strict=True)
        rng = random.Random(seed)
        steps = 0
        for seat in range(game.num_players):
            assert np.array_equal(fast.tensor(seat), strict.tensor(seat)), (seat, steps)
        while fast.current_player is not None and steps < 250:
            mask = fast.mask()  # before legal(): the mask may come from the state's cards directly
            assert sorted(np.flatnonzero(mask)) == sorted(fast.legal()), steps
            index = rng.choice(fast.legal())
            fast.apply(index)
            strict.apply(index)
            steps += 1
            for seat in range(game.num_players):
                assert np.array_equal(fast.tensor(seat), strict.tensor(seat)), (seat, steps)


TUPPI_RULES = {
    "club": {},
    "tournament": {"preset": "tournament"},
    "13-tricks": {"sooli": False, "early_end": False},
    "keeps-points": {"reset_keeps_points": True, "target": 30},
    "bid-cards": {"bid_cards": True, "target": 40},
    "short-limit": {"preset": "tournament", "hand_limit": 16},
}


@pytest.mark.parametrize("rules", sorted(TUPPI_RULES))
def test_tuppis_fast_paths_give_what_reading_everything_gives_over_whole_matches(rules: str) -> None:
    """Tuppi never reads the spectator view outside strict mode: bids, answers, the discard and
    the give, every card, and the start and the end of each hand are written directly.  Over
    whole matches and single hands, action by action, every seat's tensor equals a session that
    re-reads everything, and the mask made from the legal actions in parts is the legal list."""
    game = tt.new_game("tuppi", **TUPPI_RULES[rules])
    later_hands = 0
    for seed in range(8):
        match = seed % 2 == 0
        if seed >= 6:  # a single hand with a score to start from
            # below the target: a start score at or over it would be a finished match
            score = min(8 * seed, game.options["target"] - 1)
            states = [game.new_hand(seed=seed, dealer=1, scores=(0, score)) for _ in range(2)]
        else:
            states = [new_state(game, match, seed, seed % 4) for _ in range(2)]
        assert isinstance(states[0], TrickState) and isinstance(states[1], TrickState)
        fast, strict = Session(states[0]), Session(states[1], strict=True)
        rng = random.Random(seed)
        steps = 0
        while True:
            for seat in range(4):
                assert np.array_equal(fast.tensor(seat), strict.tensor(seat)), (seed, seat, steps)
            if fast.current_player is None or steps == 1500:
                break
            assert sorted(np.flatnonzero(fast.mask())) == sorted(fast.legal()), (seed, steps)
            index = rng.choice(fast.legal())
            fast.apply(index)
            strict.apply(index)
            steps += 1
        later_hands += fast.state.hand_number
    assert later_hands >= 3  # matches went past their first hand


def test_a_restarted_session_is_a_new_one() -> None:
    """The PettingZoo env reuses its session from episode to episode (``Session.restart``)."""
    for name, options in [("tuppi", {}), ("tuppi", {"preset": "tournament"}), ("huutopussi", {})]:
        game = tt.new_game(name, **options)
        session = Session(new_state(game, False, 1, 0))
        play(session, random.Random(1))
        for seed in range(2, 6):
            session.restart(new_state(game, seed % 2 == 0, seed, seed % game.num_players))
            fresh = Session(new_state(game, seed % 2 == 0, seed, seed % game.num_players))
            rng = random.Random(seed)
            for _ in range(60):
                for seat in range(game.num_players):
                    assert np.array_equal(session.tensor(seat), fresh.tensor(seat))
                assert np.array_equal(session.mask(), fresh.mask())
                if session.current_player is None:
                    break
                index = rng.choice(fresh.legal())
                session.apply(index)
                fresh.apply(index)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_tensors_stay_within_the_documented_bounds_and_show_the_own_hand(variant: str) -> None:
    game = make_game(variant)
    spec = spec_for(game)
    hand, d = spec.layout["hand"].offset, len(spec.cards)
    rng = random.Random(7)
    for seed in range(3):
        session = Session(new_state(game, True, seed, 0))
        while session.current_player is not None and session.state.hand_number < 2:
            for seat in range(game.num_players):
                t = session.tensor(seat)
                assert t.dtype == np.float32 and t.shape == (spec.size,)
                assert (t >= spec.low).all() and (t <= spec.high).all()
                own = {spec.cards[c].text for c in np.flatnonzero(t[hand:hand + d])}
                assert own == set(session.state.observation(seat)["hand"])
                assert t[spec.layout["seat"].offset + seat] == 1
            session.apply(rng.choice(session.legal()))


def block_cards(spec: EnvSpec, tensor: np.ndarray, block: str, skip: int = 0) -> set[str]:
    """The cards marked in a card block of a tensor (after ``skip`` leading entries)."""
    off = spec.layout[block].offset + skip
    return {spec.cards[c].text for c in np.flatnonzero(tensor[off:off + len(spec.cards)])}


def test_private_blocks_hold_what_the_observation_says_the_seat_knows() -> None:
    """Tuppi: own bid, the sooli discard and the given card; Huutopussi: the exchange and discard."""
    checked = defaultdict(int)
    for name, options in [("tuppi", {}), ("huutopussi", {}), ("huutopussi", {"players": 3})]:
        game = tt.new_game(name, **options)
        spec = spec_for(game)
        for seed in range(40):
            session = Session(new_state(game, False, seed, 0))
            play(session, random.Random(seed), limit=14)
            for seat in range(game.num_players):
                obs = session.state.observation(seat)
                t = session.tensor(seat)
                sent, received = block_cards(spec, t, "sent"), block_cards(spec, t, "received")
                if name == "tuppi":
                    own = [b["bid"] for b in obs["bids"] if b["seat"] == seat]
                    if own and own[0] not in ("rami", "nolo"):
                        assert block_cards(spec, t, "my_bid", skip=2) == {own[0]}
                        checked["bid"] += 1
                    assert sent == {obs.get("discard"), obs.get("given")} - {None} - received
                    if obs.get("given") and seat == obs["soloist"]:
                        assert received == {obs["given"]}
                        checked["given"] += 1
                elif game.num_players == 4 and obs["given"] is not None:
                    declarer = seat == obs["declarer"]
                    assert sent == set(obs["returned"] if declarer else obs["given"])
                    assert received == set(obs["given"] if declarer else obs["returned"])
                    checked["exchange"] += 1
                elif game.num_players == 3 and seat == obs["declarer"] and obs["discard"]:
                    assert sent == set(obs["discard"])
                    assert received == set(obs["kitty"])
                    checked["discard"] += 1
    assert min(checked.values()) > 3 and len(checked) == 4, checked


# -- no leaks ------------------------------------------------------------------------------------


def world_session(session: Session, seat: int, k: int) -> Session:
    """A session replaying a world of ``seat`` from its hand's start."""
    world = session.state.sample_world(seat, random.Random(k))
    return replay(json.loads(world.to_json()))


def states_by_phase(game: tt.Game, seeds: range, per_phase: int) -> list[Session]:
    """Sessions cut in every phase the games reach (a few per phase), hands and matches."""
    out: list[Session] = []
    for seed in seeds:
        rng = random.Random(seed)
        session = Session(new_state(game, seed % 2 == 0, seed, seed % game.num_players))
        counts: dict[str, int] = defaultdict(int)
        while session.current_player is not None and session.state.hand_number < 2:
            phase = session.state.phase
            if not session.picks and counts[phase] < per_phase and rng.random() < 0.3:
                counts[phase] += 1
                out.append(session.clone())
            session.apply(rng.choice(session.legal()))
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_seats_tensor_is_the_same_in_every_world_it_cannot_tell_apart(variant: str) -> None:
    game = make_game(variant)
    sessions = states_by_phase(game, range(10), per_phase=3)
    assert {s.state.phase for s in sessions} >= PHASES[variant]
    for session in sessions:
        for seat in range(game.num_players):
            tensor = session.tensor(seat)
            info = session.info_string(seat)
            for k in range(2):
                world = world_session(session, seat, k)
                assert np.array_equal(world.tensor(seat), tensor), (session.state.phase, seat)
                assert world.info_string(seat) == info


def test_the_world_check_catches_a_tensor_that_shows_another_seats_cards() -> None:
    """A leak is caught: the next seat's cards in the tensor differ between worlds."""
    game = tt.new_game("tuppi")
    session = Session(new_state(game, False, 5, 0))
    play(session, random.Random(5), limit=9)
    spec = session.spec
    hand, d = spec.layout["hand"].offset, len(spec.cards)

    def leaky(s: Session, seat: int) -> np.ndarray:
        return np.concatenate([s.tensor(seat), s.tensor((seat + 1) % 4)[hand:hand + d]])

    worlds = [world_session(session, 0, k) for k in range(4)]
    assert all(np.array_equal(w.tensor(0), session.tensor(0)) for w in worlds)
    assert not all(np.array_equal(leaky(w, 0), leaky(session, 0)) for w in worlds)


# -- rewards -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_hand_rewards_are_the_sides_points_minus_the_others_and_sum_to_zero(variant: str) -> None:
    game = make_game(variant)
    spec = spec_for(game)
    for seed in range(4):
        session = Session(new_state(game, False, seed, 0))
        steps = play(session, random.Random(seed))
        assert steps <= max_decisions(spec)
        assert session.hand_over and session.rewards == hand_rewards(spec, session.state)
        assert max(abs(r) for r in session.rewards) <= reward_bound(spec)
        points = session.state.hand_points
        payoffs = getattr(session.state, "hand_returns", lambda: None)()
        if payoffs is not None:  # Tute cabrero: -1 per loser of the hand, the others sharing
            assert session.rewards == payoffs and -1.0 in payoffs
            continue
        for seat, reward in enumerate(session.rewards):
            side = game.side_of(seat)
            others = [p for s, p in enumerate(points) if s != side]
            assert reward == pytest.approx(points[side] - sum(others) / len(others))
        assert sum(session.rewards) == pytest.approx(0.0)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_docs_give_the_size_of_every_variant(variant: str) -> None:
    """docs/envs.md lists each variant's tensor size, action count, OpenSpiel length and utility."""
    spec = spec_for(make_game(variant))
    row = f"| {spec.size} | {spec.num_actions} | {max_decisions(spec)} | ±{reward_bound(spec):g} |"
    docs = (Path(__file__).parent.parent / "docs" / "envs.md").read_text()
    assert row in docs, row
