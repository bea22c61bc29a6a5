"""The no-leak property (DESIGN.md): observations hold exactly what a seat may know.

For states in every phase and every seat, each world ``state.sample_world(seat, rng)``
must give that seat the identical observation, keep its own cards, be a legal full
state, and the worlds must actually vary the hidden cards.  Observations must not
contain another seat's hidden cards.
"""

from __future__ import annotations

import json
import random

import pytest
from contract_checks import check_worlds
from tuppi_helpers import CARD_RE, fill_deal, play_random

import tricktaker as tt


def collect_states(preset: str | None, seeds: range, per_match: int) -> list[tt.State]:
    """States from random play, cut in every phase: bidding part-way, sooli answers, discard, give, play."""
    game = tt.new_game("tuppi", preset=preset)
    states: list[tt.State] = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_match(seed=seed)
        cut = []
        while not state.is_over() and state.hand_number < 2:
            cut.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        # every non-bid, non-play phase state, and a random sample of the rest
        special = [s for s in cut if s.phase not in ("bid", "play")]
        bids = [s for s in cut if s.phase == "bid"]
        plays = [s for s in cut if s.phase == "play"]
        states += special
        states += rng.sample(bids, min(len(bids), per_match // 3))
        states += rng.sample(plays, min(len(plays), per_match))
    return states


def world_cards(world: tt.State) -> list[str]:
    public = world.observation(None)
    out = [c.text for s in range(4) for c in world.hand(s)]
    out += [card for t in public["tricks"] for _, card in t["cards"]]
    out += [card for _, card in public["trick"]]
    if public["soloist"] is not None:
        d = world.observation(public["soloist"]).get("discard")
        if d:
            out.append(d)
    return out


@pytest.mark.parametrize("preset", [None, "tournament"])
def test_sampled_worlds_give_the_same_observation_in_every_phase_and_seat(preset):
    states = collect_states(preset, range(30), per_match=6)
    phases = {s.phase for s in states}
    assert {"bid", "play"} <= phases
    if preset is None:
        assert {"sooli", "discard", "give"} <= phases
    for i, state in enumerate(states):
        for seat in range(4):
            check_worlds(state, seat, 4, world_cards, deep=(i % 7 == 0))


def test_sampled_worlds_vary_the_hidden_cards():
    states = collect_states(None, range(12, 18), per_match=4)
    varied = checked = 0
    for state in states:
        public = state.observation(None)
        if len(public["tricks"]) > 6:
            continue
        for seat in range(4):
            worlds = [state.sample_world(seat, random.Random(k)) for k in range(12)]
            others = [s for s in range(4) if s != seat]
            distinct = {tuple(tuple(c.text for c in w.hand(s)) for s in others) for w in worlds}
            checked += 1
            varied += len(distinct) > 1
    assert checked > 50
    assert varied == checked, f"only {varied} of {checked} seat views saw the hidden cards vary"


def test_sampled_worlds_vary_the_hidden_bids_during_the_bidding():
    state = tt.new_game("tuppi").new_match(seed=40)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    seen = set()
    for k in range(40):
        world = state.sample_world(0, random.Random(k))
        seen.add(world.observation(1)["bids"][0]["bid"])  # seat 1's own view of its bid in the world
        assert world.observation(0) == state.observation(0)
    assert len(seen) > 1, "seat 1's hidden bid card is always the same in seat 0's worlds"


def test_sampled_worlds_respect_public_facts():
    """Played cards stay, revealed bid cards stay with their bidder, voids hold in every world."""
    states = collect_states(None, range(20, 26), per_match=6)
    for state in states:
        public = state.observation(None)
        voids = {s: set() for s in range(4)}
        for t in public["tricks"] + ([{"cards": public["trick"]}] if public["trick"] else []):
            led = t["cards"][0][1][-1]
            for s, card in t["cards"][1:]:
                if card[-1] != led:
                    voids[s].add(led)
        for seat in range(4):
            for k in range(3):
                world = state.sample_world(seat, random.Random(k))
                wp = world.observation(None)
                assert wp["tricks"] == public["tricks"] and wp["trick"] == public["trick"]
                for s in range(4):
                    if s == public["sitting_out"]:
                        continue
                    suits = {c.suit.letter for c in world.hand(s)}
                    assert not suits & voids[s], f"seat {s} shown void but holds {suits & voids[s]}"


# -- observations never hold other seats' hidden cards -------------------------------------


def hidden_cards(state: tt.State, viewer: int) -> set[str]:
    """Cards in other seats' hands that ``viewer`` cannot know (revealed bid cards and, in sooli,
    the given card for the soloist and partner are public to them), plus the discard for others."""
    obs = state.observation(viewer)
    known = {b["bid"] for b in obs["bids"] if b["bid"]}
    known |= {obs.get("given")} - {None}
    hidden = set()
    for s in range(4):
        if s != viewer:
            hidden |= {c.text for c in state.hand(s)}
    soloist = obs["soloist"]
    if soloist is not None and viewer != soloist:
        d = state.observation(soloist).get("discard")
        if d:
            hidden.add(d)
    return hidden - known


@pytest.mark.parametrize("preset", [None, "tournament"])
def test_observations_never_contain_other_seats_hidden_cards(preset):
    states = collect_states(preset, range(30, 40), per_match=8)
    for state in states:
        for viewer in [0, 1, 2, 3, None]:
            obs = dict(state.observation(viewer))
            obs.pop("previous_hand")  # the last trick of the previous deal: other cards, public
            text = json.dumps(obs)
            shown = set(CARD_RE.findall(text))
            if viewer is None:
                hidden = {c.text for s in range(4) for c in state.hand(s)}
                hidden -= {b["bid"] for b in obs["bids"] if b["bid"]}
                if obs["soloist"] is not None:
                    hidden |= {state.observation(obs["soloist"]).get("discard")} - {None}
            else:
                hidden = hidden_cards(state, viewer)
            assert not shown & hidden, f"seat {viewer} sees hidden cards {shown & hidden}"


def test_observation_shows_own_hand_and_only_own_legal_actions():
    state = tt.new_game("tuppi").new_match(seed=50)
    play_random(state, random.Random(50), max_actions=9)
    turn = state.current_player
    for seat in range(4):
        obs = state.observation(seat)
        assert obs["hand"] == [c.text for c in state.hand(seat)]
        assert ("legal_actions" in obs) == (seat == turn)
    assert "legal_actions" not in state.observation(None)
    assert state.observation(None)["hand"] == []


def test_hidden_bids_are_not_in_other_seats_observations_in_either_bid_mode():
    for preset in (None, "tournament"):
        for seed in range(10):
            state = tt.new_game("tuppi", preset=preset).new_match(seed=seed)
            rng = random.Random(seed)
            while state.phase == "bid" or len(state.observation(None)["bids"]) < 4:
                state.apply(rng.choice(state.legal_actions()))
            bids = state.observation(0)["bids"]
            for viewer in range(4):
                for b in state.observation(viewer)["bids"]:
                    verbal = preset is None and b["seat"] != viewer and b["bid"] in ("rami", "nolo")
                    if not b["revealed"] and b["seat"] != viewer and not verbal:
                        assert b["bid"] is None
            assert len(bids) == 4


# -- sooli corner cases: a revealed bid card put away or given ------------------------------------


def test_worlds_when_soloist_puts_away_its_revealed_bid_card():
    # dealer 3: seat 0 bids 9S (revealed, nolo), seat 1 bids 8H (rami); seat 0 plays sooli and puts 9S away
    deal = [
        "AH 4D 7C 9S 8S 7S 6S 5S 4S 3S 2S JS QS",
        "2H 3H 4H 5H 6H 7H 8H 9H TH 3D 2D 6C 2C",
        "KS KH QH JH 6D 5D AC KC QC JC TC 9C 8C",
        "KD QD JD TD 9D 8D 7D AD 5C 4C 3C AS TS",
    ]
    state = tt.new_game("tuppi").new_hand(deal=deal, dealer=3)
    for a in ("bid 9S", "bid 8H", "bid 6D", "bid AS", "pass", "sooli", "discard 9S"):
        state.apply(a)
    for seat in range(4):
        check_worlds(state, seat, 20, world_cards, deep=True)
    state.apply("give KS")
    state.apply("play 2H")
    for seat in range(4):
        check_worlds(state, seat, 20, world_cards, deep=True)


def test_worlds_when_partner_gives_its_revealed_bid_card():
    # dealer 1: bids 2, 3, 0, 1.  Seat 2 bids 8C (revealed, nolo), seat 3 bids 7H (rami, declarer).
    # Seat 0 (left of declarer) plays sooli; partner seat 2 gives its revealed bid card 8C.
    deal = fill_deal({2: "8C 9C TC", 3: "7H", 0: "5S", 1: "6S"})
    state = tt.new_game("tuppi").new_hand(deal=deal, dealer=1)
    for a in ("bid 8C", "bid 7H", "bid 5S", "bid 6S", "sooli"):
        state.apply(a)
    assert state.soloist == 0 and state.declarer == 3
    state.apply(f"discard {state.hand(0)[0]}")
    state.apply("give 8C")
    for seat in range(4):
        check_worlds(state, seat, 20, world_cards, deep=True)
    rng = random.Random(3)
    for _ in range(4):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
        for seat in range(4):
            check_worlds(state, seat, 10, world_cards)


def test_worlds_after_a_verbal_bid_hold_no_bid_card_of_that_colour():
    no_red = "KH QH JH 2H KD QD JD 2D AS 9S 8S 7C 6C"
    state = tt.new_game("tuppi").new_hand(deal=fill_deal({1: no_red}), dealer=0)
    state.apply("bid rami")
    for seat in (0, 2, 3):
        for k in range(20):
            world = state.sample_world(seat, random.Random(k))
            red_bid_cards = [c for c in world.hand(1) if c.suit.letter in "HD" and c.rank.text in "AT9876543"]
            assert not red_bid_cards
            assert world.observation(seat) == state.observation(seat)
