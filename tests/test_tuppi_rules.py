"""Every Tuppi rule of RULES.md (section Tuppi) and seeds/tuppi.txt, one or more tests each.

Most tests build the deal by hand (``game.new_hand(deal=...)``) so that the
outcome is forced, or drive the play with a script that reaches exact trick
counts.  The scripted deals (:func:`scripted_hand`) give every seat three
cards of every suit and one deuce; twelve tricks are played one suit at a
time with everybody following, the scheduled winner holding the top card; in
the last trick each seat holds only its deuce, so the leader (the winner of
trick 12) takes it.  Any sequence of trick winners can be scripted that way.
"""

from __future__ import annotations

import json
import random

import pytest
from tuppi_helpers import (
    check_match_against_replay,
    expected_points,
    fill_deal,
    hand_results,
    play_hand_random,
    play_random,
    record,
)

import tricktaker as tt
from tricktaker.engine import deal_from_seed

SUITS = "SHDC"
RED_SUITS = "HD"
GROUPS = ("AKQJ", "T987", "6543")
BID_RANKS = "AT98765432"[:-1]  # A and 10..3


def tuppi(**options):
    return tt.new_game("tuppi", **options)


# -- scripted deals ---------------------------------------------------------------------


def scripted_hand(first_leader: int, winners: list[int]):
    """A deal and a full trick script in which trick ``t`` is won by ``winners[t]`` (t < 12).

    Returns ``(deal, tricks)``: deal text per seat, and 13 tricks as lists of
    ``(seat, card)`` in play order.  The 13th trick goes to ``winners[11]``.
    """
    assert len(winners) == 12
    hands: list[list[str]] = [[] for _ in range(4)]
    tricks = []
    leader = first_leader
    for t, w in enumerate(winners):
        suit, ranks = SUITS[t % 4], GROUPS[t // 4]
        order = [(leader + i) % 4 for i in range(4)]
        others = [s for s in order if s != w]
        assign = {w: ranks[0], **{s: r for s, r in zip(others, ranks[1:], strict=True)}}
        trick = [(s, assign[s] + suit) for s in order]
        tricks.append(trick)
        for s, c in trick:
            hands[s].append(c)
        leader = w
    for s in range(4):
        hands[s].append("2" + SUITS[s])
    tricks.append([((leader + i) % 4, "2" + SUITS[(leader + i) % 4]) for i in range(4)])
    return [" ".join(h) for h in hands], tricks


def winners_from_sides(sides: str) -> list[int]:
    """Twelve trick winners from 13 side digits ("0001111111111"); the last two must agree."""
    assert len(sides) == 13 and sides[11] == sides[12]
    return [(0, 2, 1, 3)[2 * int(sd) + t % 2] for t, sd in enumerate(sides[:12])]


def winners_for(side: int, k: int) -> list[int]:
    """Twelve trick winners such that ``side`` takes exactly ``k`` of the 13 tricks, its tricks last."""
    s, o = str(side), str(1 - side)
    if k >= 2:
        sides = o * (13 - k) + s * k
    elif k == 1:
        sides = s + o * 12
    else:
        sides = o * 13
    return winners_from_sides(sides)


def lowest_bid_card(state, seat: int, colour: str) -> str:
    """The lowest allowed bid card (A, 10..3) of a colour in a seat's hand."""
    suits = RED_SUITS if colour == "red" else "SC"
    held = [c for c in state.hand(seat) if c.suit.letter in suits and c.rank.text in BID_RANKS]
    assert held, f"seat {seat} has no {colour} bid card"
    return min(held, key=lambda c: c.rank.value).text


def place_bids(state, colours: dict[int, str]) -> None:
    """Each seat in turn bids a card of the colour given for it ('red' / 'black')."""
    for _ in range(4):
        seat = state.current_player
        state.apply(f"bid {lowest_bid_card(state, seat, colours[seat])}", seat=seat)


def play_script(state, tricks, stop_when_over=True) -> int:
    """Play the scripted tricks, checking whose turn it is; returns the number of tricks played."""
    played = 0
    for trick in tricks:
        for seat, card in trick:
            if state.is_over() and stop_when_over:
                return played
            assert state.current_player == seat, (trick, state.current_player)
            state.apply(f"play {card}")
        played += 1
    return played


def rami_hand(declarer: int, dealer: int, side_tricks: int = 0, side: int = 0, scores=(0, 0),
              sides: str | None = None, **options):
    """A rami hand declared by ``declarer`` in which ``side`` takes exactly ``side_tricks`` tricks
    (or the trick winners' sides are given trick by trick in ``sides``)."""
    first = (declarer + 3) % 4
    winners = winners_from_sides(sides) if sides else winners_for(side, side_tricks)
    deal, tricks = scripted_hand(first, winners)
    state = tuppi(**options).new_hand(deal=deal, dealer=dealer, scores=scores)
    bidders = [(dealer + 1 + i) % 4 for i in range(4)]
    # everybody before the declarer bids black, the declarer red, the rest anything (red here)
    colours = {}
    for s in bidders:
        colours[s] = "black" if bidders.index(s) < bidders.index(declarer) else "red"
    place_bids(state, colours)
    assert state.contract == "rami" and state.declarer == declarer
    while state.phase == "sooli":
        state.apply("pass")
    return state, tricks


def nolo_hand(dealer: int, side_tricks: int, side: int, scores=(0, 0), **options):
    first = (dealer + 1) % 4
    deal, tricks = scripted_hand(first, winners_for(side, side_tricks))
    state = tuppi(**options).new_hand(deal=deal, dealer=dealer, scores=scores)
    place_bids(state, dict.fromkeys(range(4), "black"))
    assert state.contract == "nolo"
    return state, tricks


def result_of(state):
    return hand_results(state)[-1]


def test_scripted_hand_helper_deals_13_cards_each_and_plays_legally():
    deal, tricks = scripted_hand(1, [0, 1, 2, 3] * 3)
    assert sorted(" ".join(deal).split()) == sorted(c.text for c in tt.ANGLO_52.cards)
    assert all(len(h.split()) == 13 for h in deal)
    assert len(tricks) == 13 and tricks[-1][0][0] == 3


# -- the deck and the bid ------------------------------------------------------------------


def test_deal_is_52_cards_13_each():
    state = tuppi().new_match(seed=1)
    hands = [state.hand(s) for s in range(4)]
    assert [len(h) for h in hands] == [13] * 4
    assert len({c.text for h in hands for c in h}) == 52


@pytest.mark.parametrize("rank", list("AT98765432"))
def test_bid_card_ranks_ace_and_ten_to_three_allowed_two_and_court_cards_not(rank):
    allowed = rank in "AT9876543"
    suit_cards = " ".join(r + "S" for r in "AKQJT98765432")
    deal = fill_deal({1: suit_cards})
    state = tuppi().new_hand(deal=deal, dealer=0)
    legal = {str(a) for a in state.legal_actions()}
    assert (f"bid {rank}S" in legal) == allowed
    if not allowed:
        with pytest.raises(tt.IllegalActionError, match="may not be a bid card"):
            state.apply(f"bid {rank}S")
    else:
        state.apply(f"bid {rank}S")


@pytest.mark.parametrize("rank", list("KQJ2"))
def test_court_cards_and_twos_may_not_be_bid_cards_in_any_suit(rank):
    state = tuppi().new_hand(deal=fill_deal({1: f"{rank}S {rank}H {rank}D {rank}C 7S 7H"}), dealer=0)
    for suit in SUITS:
        with pytest.raises(tt.IllegalActionError, match="may not be a bid card"):
            state.apply(f"bid {rank}{suit}")


@pytest.mark.parametrize(("card", "contract"),
                         [("7H", "rami"), ("AD", "rami"), ("3S", "nolo"), ("TC", "nolo")])
def test_red_bid_card_is_rami_black_is_nolo(card, contract):
    deal = fill_deal({1: f"{card} 9S 9H 9D 9C", 2: "8S 8C", 3: "7S 7C", 0: "6S 6C"})
    state = tuppi(sooli=False).new_hand(deal=deal, dealer=0)
    for bid in (f"bid {card}", "bid 8S", "bid 7C", "bid 6S"):
        state.apply(bid)
    assert state.contract == contract
    assert state.declarer == (1 if contract == "rami" else None)


def test_bidding_starts_left_of_dealer_and_goes_clockwise():
    for dealer in range(4):
        state = tuppi().new_match(seed=dealer, dealer=dealer)
        order = []
        for _ in range(4):
            order.append(state.current_player)
            state.apply(state.legal_actions()[0])
        assert order == [(dealer + 1 + i) % 4 for i in range(4)]


def test_verbal_bid_rami_only_without_a_red_bid_card():
    # seat 1's only red cards are K, Q, J and 2: it may say "rami" but has no red bid card
    no_red = "KH QH JH 2H KD QD JD 2D AS 9S 8S 7C 6C"
    state = tuppi().new_hand(deal=fill_deal({1: no_red, 2: "AH"}), dealer=0)
    legal = {str(a) for a in state.legal_actions()}
    assert "bid rami" in legal and "bid nolo" not in legal
    assert not any(a.card is not None and a.card.suit.letter in RED_SUITS for a in state.legal_actions())
    # seat 2 holds a red bid card: saying rami is not allowed
    state.apply("bid rami")
    assert state.current_player == 2
    assert "bid rami" not in {str(a) for a in state.legal_actions()}
    with pytest.raises(tt.IllegalActionError, match="only allowed without a red bid card"):
        state.apply("bid rami")


def test_verbal_bid_nolo_only_without_a_black_bid_card():
    no_black = "KS QS JS 2S KC QC JC 2C AH 9H 8D 7D 6D"
    state = tuppi().new_hand(deal=fill_deal({1: no_black, 2: "AC"}), dealer=0)
    legal = {str(a) for a in state.legal_actions()}
    assert "bid nolo" in legal and "bid rami" not in legal
    state.apply("bid nolo")
    with pytest.raises(tt.IllegalActionError, match="only allowed without a black bid card"):
        state.apply("bid nolo")


def test_verbal_bid_is_public_at_once_and_counts_as_its_colour():
    no_red = "KH QH JH 2H KD QD JD 2D AS 9S 8S 7C 6C"
    state = tuppi().new_hand(deal=fill_deal({1: no_red}), dealer=0)
    state.apply("bid rami")
    for seat in (0, 2, 3, None):
        bids = state.observation(seat)["bids"]
        assert bids == [{"seat": 1, "bid": "rami", "revealed": False}]
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert state.contract == "rami" and state.declarer == 1


def test_card_bids_are_hidden_from_other_seats_until_revealed():
    state = tuppi().new_hand(deal=fill_deal({1: "7H", 2: "8S", 3: "9S", 0: "TS"}), dealer=0)
    state.apply("bid 7H")
    for seat in (0, 2, 3, None):
        assert state.observation(seat)["bids"] == [{"seat": 1, "bid": None, "revealed": False}]
    assert state.observation(1)["bids"] == [{"seat": 1, "bid": "7H", "revealed": False}]


def test_reveal_in_placement_order_stops_at_first_rami_and_later_bids_stay_hidden():
    # dealer 0: bids by 1, 2, 3, 0.  Seat 1 nolo, seat 2 rami (first), seat 3 rami, seat 0 nolo.
    deal = fill_deal({1: "8C", 2: "5H", 3: "6D", 0: "9S"})
    state = tuppi().new_hand(deal=deal, dealer=0)
    for bid in ("bid 8C", "bid 5H", "bid 6D", "bid 9S"):
        state.apply(bid)
    assert state.contract == "rami" and state.declarer == 2
    for viewer in range(4):
        bids = state.observation(viewer)["bids"]
        assert [b["seat"] for b in bids] == [1, 2, 3, 0]
        assert [b["revealed"] for b in bids] == [True, True, False, False]
        assert bids[0]["bid"] == "8C" and bids[1]["bid"] == "5H"
        assert bids[2]["bid"] == ("6D" if viewer == 3 else None)
        assert bids[3]["bid"] == ("9S" if viewer == 0 else None)
    assert state.observation(None)["bids"][2]["bid"] is None


def test_first_rami_wins_even_when_a_later_bid_is_also_red():
    deal = fill_deal({1: "3H", 2: "4H", 3: "5H", 0: "6H"})
    state = tuppi().new_hand(deal=deal, dealer=0)
    for bid in ("bid 3H", "bid 4H", "bid 5H", "bid 6H"):
        state.apply(bid)
    assert state.declarer == 1
    assert [b["revealed"] for b in state.observation(2)["bids"]] == [True, False, False, False]


def test_no_rami_bid_makes_the_hand_nolo_and_reveals_all_bids():
    deal = fill_deal({1: "8C", 2: "5S", 3: "6C", 0: "9S"})
    state = tuppi().new_hand(deal=deal, dealer=0)
    for bid in ("bid 8C", "bid 5S", "bid 6C", "bid 9S"):
        state.apply(bid)
    assert state.contract == "nolo" and state.declarer is None
    assert state.phase == "play"
    obs = state.observation(1)
    assert [b["bid"] for b in obs["bids"]] == ["8C", "5S", "6C", "9S"]
    assert all(b["revealed"] for b in obs["bids"])


def test_bid_cards_go_back_to_the_hands_and_revealed_ones_are_public():
    deal = fill_deal({1: "8C", 2: "5H", 3: "6D", 0: "9S"})
    state = tuppi(sooli=False).new_hand(deal=deal, dealer=0)
    for bid in ("bid 8C", "bid 5H", "bid 6D", "bid 9S"):
        state.apply(bid)
    for seat, card in ((1, "8C"), (2, "5H"), (3, "6D"), (0, "9S")):
        assert card in [c.text for c in state.hand(seat)]
        assert card in state.observation(seat)["hand"]
    assert state.observation(0)["hand_sizes"] == [13, 13, 13, 13]
    # seat 3 (not the bidder) sees seat 2's revealed bid card in the public record of bids
    assert state.observation(3)["bids"][1] == {"seat": 2, "bid": "5H", "revealed": True}
    # and the card can be played later from the bidder's hand
    assert "5H" in [c.text for c in state.hand(2)]


# -- sooli ----------------------------------------------------------------------------------

# Dealer 3, so bids come from 0, 1, 2, 3.  Seat 0 bids 9S (nolo), seat 1 bids 8H (rami, declarer 1).
SOOLI_DEAL = [
    "AH 4D 7C 9S 8S 7S 6S 5S 4S 3S 2S JS QS",          # 0: the soloist (right of the declarer)
    "2H 3H 4H 5H 6H 7H 8H 9H TH 3D 2D 6C 2C",          # 1: declarer
    "KS KH QH JH 6D 5D AC KC QC JC TC 9C 8C",          # 2: asked first, passes; sits out
    "KD QD JD TD 9D 8D 7D AD 5C 4C 3C AS TS",          # 3: declarer's partner, void in hearts
]


def sooli_state(**options):
    state = tuppi(**options).new_hand(deal=SOOLI_DEAL, dealer=3)
    for bid in ("bid 9S", "bid 8H", "bid 6D", "bid AS"):
        state.apply(bid)
    return state


def test_sooli_offered_left_of_declarer_first_then_the_other_defender():
    state = sooli_state()
    assert state.contract == "rami" and state.declarer == 1
    assert state.phase == "sooli" and state.current_player == 2
    assert {str(a) for a in state.legal_actions()} == {"sooli", "pass"}
    state.apply("pass")
    assert state.phase == "sooli" and state.current_player == 0
    state.apply("sooli")
    assert state.contract == "sooli" and state.soloist == 0 and state.declarer == 1
    assert state.observation(3)["sooli_answers"] == [[2, "pass"], [0, "sooli"]]


def test_sooli_first_yes_wins_and_the_other_defender_is_not_asked():
    state = sooli_state()
    state.apply("sooli")
    assert state.soloist == 2 and state.phase == "discard" and state.current_player == 2
    assert state.observation(0)["sooli_answers"] == [[2, "sooli"]]


def test_sooli_both_pass_plays_rami_with_right_of_declarer_leading():
    state = sooli_state()
    state.apply("pass")
    state.apply("pass")
    assert state.contract == "rami" and state.phase == "play" and state.current_player == 0
    assert state.soloist is None


def test_sooli_option_off_skips_the_question():
    state = sooli_state(sooli=False)
    assert state.phase == "play" and state.current_player == 0
    assert "sooli" not in {str(a) for a in state.legal_actions()}
    with pytest.raises(tt.IllegalActionError):
        state.apply("sooli")


def test_sooli_soloist_discards_partner_gives_card_moves_partner_sits_out():
    state = sooli_state()
    state.apply("pass")
    state.apply("sooli")
    assert state.phase == "discard" and state.current_player == 0
    assert {str(a) for a in state.legal_actions()} == {f"discard {c}" for c in SOOLI_DEAL[0].split()}
    state.apply("discard QS")
    assert "QS" not in [c.text for c in state.hand(0)] and len(state.hand(0)) == 12
    assert state.phase == "give" and state.current_player == 2
    assert {str(a) for a in state.legal_actions()} == {f"give {c}" for c in SOOLI_DEAL[2].split()}
    state.apply("give KS")
    assert "KS" in [c.text for c in state.hand(0)] and "KS" not in [c.text for c in state.hand(2)]
    assert len(state.hand(0)) == 13 and len(state.hand(2)) == 12
    # the discard is out of play and known only to the soloist; the given card to soloist and partner
    assert state.observation(0)["discard"] == "QS"
    assert all("discard" not in state.observation(s) for s in (1, 2, 3))
    assert state.observation(0)["given"] == "KS" and state.observation(2)["given"] == "KS"
    assert "given" not in state.observation(1) and "given" not in state.observation(3)
    assert state.observation(1)["sitting_out"] == 2
    # the partner never plays: run the hand to its end and check
    rng = random.Random(0)
    while not state.is_over():
        assert state.current_player != 2
        state.apply(rng.choice(state.legal_actions()))
    assert len(state.hand(2)) == 12


def start_sooli_play():
    state = sooli_state()
    state.apply("pass")
    state.apply("sooli")
    state.apply("discard QS")
    state.apply("give KS")
    return state


def test_sooli_declarer_leads_and_soloist_plays_last_to_every_trick():
    state = start_sooli_play()
    assert state.phase == "play" and state.current_player == 1
    state.apply("play 2H")
    assert state.current_player == 3  # the declarer's partner, then the soloist
    state.apply("play TS")
    assert state.current_player == 0
    assert [str(a) for a in state.legal_actions()] == ["play AH"]  # must follow with its only heart
    state.apply("play AH")


def test_sooli_ace_is_lowest_soloist_ace_loses_to_a_two():
    state = start_sooli_play()
    for card in ("2H", "TS", "AH"):
        state.apply(f"play {card}")
    assert not state.is_over()
    obs = state.observation(1)
    assert obs["tricks"][0]["winner"] == 1  # the 2 of hearts beats the soloist's ace
    assert obs["tricks_won"] == [0, 1, 0, 0]
    assert state.current_player == 1


def test_ace_is_highest_outside_sooli():
    deal = fill_deal({1: "2H 9S", 2: "3H", 3: "AH", 0: "TS"})
    state = tuppi().new_hand(deal=deal, dealer=3)
    # dealer 3: seat 0 bids first; all black -> nolo, seat 0 leads
    for _ in range(4):
        state.apply(f"bid {lowest_bid_card(state, state.current_player, 'black')}")
    assert state.contract == "nolo" and state.current_player == 0
    state.apply("play " + next(c.text for c in state.hand(0) if c.suit.letter == "H"))
    state.apply("play 2H")
    state.apply("play 3H")
    state.apply("play AH")
    assert state.observation(0)["tricks"][0]["winner"] == 3


def test_sooli_trick_won_by_rami_side_is_led_by_its_winner():
    state = start_sooli_play()
    for card in ("2H", "TS", "AH"):  # the declarer wins
        state.apply(f"play {card}")
    assert state.current_player == 1
    state.apply("play 3D")
    state.apply("play KD")
    state.apply("play 4D")  # seat 3's king wins
    assert state.observation(0)["tricks"][1]["winner"] == 3
    assert state.current_player == 3
    state.apply("play 5C")
    assert state.current_player == 1  # leader, leader's partner, soloist last
    state.apply("play 6C")
    assert state.current_player == 0


def test_sooli_soloist_first_trick_ends_the_hand_and_opponents_score_24():
    state = start_sooli_play()
    for card in ("2H", "TS", "AH", "3D", "KD", "4D", "5C", "6C", "7C"):
        state.apply(f"play {card}")
    assert state.is_over()
    res = result_of(state)
    assert res["contract"] == "sooli" and res["soloist"] == 0 and res["declarer"] == 1
    assert res["tricks"] == [1, 2]
    assert res["points"] == [0, 24] == expected_points(res)
    assert res["early_end"] is False
    assert state.hand_points == (0, 24) and state.scores == (0, 24)


# Soloist seat 2 holds every A, 2, 3 (and 4C); with the ace lowest it can never win a trick.
SOOLI_ZERO_DEAL = [
    "4S 4H 4D 5S 5H 5D 5C 6S 6H 6D 6C 7S 7H",   # 0: partner, sits out, gives 4S
    "8S 9S TS JS QS KS 8H 9H TH JH QH KH 7D",   # 1: declarer
    "AS 2S 3S AH 2H 3H AD 2D 3D AC 2C 3C 4C",   # 2: soloist (left of the declarer)
    "8D 9D TD JD QD KD 7C 8C 9C TC JC QC KC",   # 3: declarer's partner
]


@pytest.mark.parametrize("seed", range(5))
def test_sooli_soloist_takes_no_trick_scores_24_for_the_soloist_side(seed):
    state = tuppi().new_hand(deal=SOOLI_ZERO_DEAL, dealer=3)
    for bid in ("bid 4S", "bid 8H", "bid 3C", "bid 7C"):
        state.apply(bid)
    assert state.declarer == 1 and state.current_player == 2
    state.apply("sooli")
    state.apply("discard 4C")
    state.apply("give 4S")
    rng = random.Random(seed)
    order_ok = True
    while not state.is_over():
        trick = state.observation(None)["trick"]
        if len(trick) == 2:
            order_ok &= state.current_player == 2
        state.apply(rng.choice(state.legal_actions()))
    assert order_ok
    res = result_of(state)
    assert res["contract"] == "sooli" and res["tricks"] == [0, 13]
    assert res["points"] == [24, 0] == expected_points(res)
    assert len(state.observation(None)["tricks"]) == 13
    assert all(len(t["cards"]) == 3 for t in state.observation(None)["tricks"])


def test_sooli_24_resets_a_nousussa_opponent():
    state = tuppi().new_hand(deal=SOOLI_ZERO_DEAL, dealer=3, scores=(0, 40))
    for a in ("bid 4S", "bid 8H", "bid 3C", "bid 7C", "sooli", "discard 4C", "give 4S"):
        state.apply(a)
    play_random(state, random.Random(1))
    assert result_of(state)["points"] == [24, 0]
    assert state.scores == (0, 0)
    assert result_of(state)["kept"] is False


# -- first lead and play ------------------------------------------------------------------------


@pytest.mark.parametrize("declarer", range(4))
def test_first_lead_in_rami_is_right_of_declarer(declarer):
    dealer = (declarer + 2) % 4
    state, _ = rami_hand(declarer, dealer, 7, 0)
    assert state.phase == "play"
    assert state.current_player == (declarer + 3) % 4


@pytest.mark.parametrize("dealer", range(4))
def test_first_lead_in_nolo_is_left_of_dealer(dealer):
    state, _ = nolo_hand(dealer, 5, 0)
    assert state.current_player == (dealer + 1) % 4


def test_trick_winner_leads_next_and_play_goes_clockwise():
    state = tuppi(sooli=False).new_match(seed=4)
    rng = random.Random(4)
    while state.phase != "play":
        state.apply(rng.choice(state.legal_actions()))
    for _ in range(13):
        leader = state.current_player
        for i in range(4):
            assert state.current_player == (leader + i) % 4
            state.apply(rng.choice(state.legal_actions()))
        if state.hand_number > 0 or state.is_over():
            break
        assert state.current_player == state.observation(None)["tricks"][-1]["winner"]


def test_must_follow_suit_if_possible_otherwise_any_card():
    rng = random.Random(5)
    checked_follow = checked_void = 0
    for seed in range(30):
        state = tuppi().new_hand(seed=seed)
        while not state.is_over():
            if state.phase == "play":
                trick = state.observation(None)["trick"]
                hand = state.hand(state.current_player)
                legal = {str(a) for a in state.legal_actions()}
                if trick:
                    led = trick[0][1][-1]
                    same = {f"play {c}" for c in hand if c.suit.letter == led}
                    if same:
                        assert legal == same
                        checked_follow += 1
                    else:
                        assert legal == {f"play {c}" for c in hand}
                        checked_void += 1
                else:
                    assert legal == {f"play {c}" for c in hand}
            state.apply(rng.choice(state.legal_actions()))
    assert checked_follow > 100 and checked_void > 10


def test_highest_card_of_the_led_suit_wins_no_trumps_ace_low_only_in_sooli():
    high = {r: i for i, r in enumerate("23456789TJQKA")}
    low = {r: i for i, r in enumerate("A23456789TJQK")}
    contracts = set()
    for seed in range(60):
        state = tuppi().new_hand(seed=seed)
        play_random(state, random.Random(seed))
        contracts.add(state.contract)
        rank = low if state.contract == "sooli" else high
        for t in state.observation(None)["tricks"]:
            led = t["cards"][0][1][-1]
            best = max((c for c in t["cards"] if c[1][-1] == led), key=lambda c: rank[c[1][0]])
            assert t["winner"] == best[0]
            assert t["leader"] == t["cards"][0][0]
    assert contracts == {"rami", "nolo", "sooli"}


# -- hand points ----------------------------------------------------------------------------------


@pytest.mark.parametrize("k", range(14))
def test_rami_declarer_side_4_per_trick_over_6_defenders_8_per_trick_over_6(k):
    """Seed: "In rami, the declarer side gets four points for each trick in excess of 6" and
    "the defending side gets eight points for each trick in excess of 6"."""
    declarer = 2
    state, tricks = rami_hand(declarer, dealer=0, side_tricks=k, side=declarer % 2)
    assert play_script(state, tricks) == 13
    res = result_of(state)
    assert res["tricks"][declarer % 2] == k and sum(res["tricks"]) == 13
    if k >= 7:
        expected = [4 * (k - 6), 0]
    else:
        expected = [0, 8 * (13 - k - 6)]
    assert res["points"] == expected
    assert state.hand_points == tuple(expected)
    assert state.scores == tuple(expected)


def test_rami_defenders_eight_per_trick_example_nine_tricks_is_24():
    state, tricks = rami_hand(1, dealer=3, side_tricks=9, side=0)  # the defenders (side 0) take 9
    play_script(state, tricks)
    assert result_of(state)["points"] == [24, 0]


def test_rami_declarer_side_example_ten_tricks_is_16():
    state, tricks = rami_hand(1, dealer=3, side_tricks=10, side=1)
    play_script(state, tricks)
    assert result_of(state)["points"] == [0, 16]


@pytest.mark.parametrize("k", range(7))
def test_nolo_side_with_fewer_tricks_scores_4_per_trick_short_of_7(k):
    """Seed: "In nolo, the side that got less tricks, gets four points for each trick missing from 7"."""
    for side in (0, 1):
        state, tricks = nolo_hand(dealer=1, side_tricks=k, side=side)
        assert play_script(state, tricks) == 13
        res = result_of(state)
        assert res["tricks"][side] == k
        expected = [0, 0]
        expected[side] = 4 * (7 - k)
        assert res["points"] == expected == expected_points(res)


def test_nolo_nobody_took_a_trick_example_zero_tricks_scores_28():
    state, tricks = nolo_hand(dealer=0, side_tricks=0, side=1)
    play_script(state, tricks)
    assert result_of(state)["points"] == [0, 28]


# -- the match: nousussa --------------------------------------------------------------------------


def test_nousussa_side_adds_its_points():
    state, tricks = rami_hand(0, dealer=3, side_tricks=8, side=0, scores=(20, 0))
    play_script(state, tricks)
    assert state.hand_points == (8, 0)
    assert state.scores == (28, 0)
    assert result_of(state)["kept"] is True
    assert state.observation(0)["nousussa"] == 0


def test_nousussa_other_side_scoring_resets_to_0_0_and_points_not_kept():
    """Seed: "If the opponents of the partnership that are nousussa get points in a hand,
    the game is returned to a 0-0 situation"."""
    state, tricks = rami_hand(1, dealer=0, side_tricks=8, side=1, scores=(20, 0), early_end=False)
    play_script(state, tricks)
    assert state.hand_points == (0, 8)
    assert state.scores == (0, 0)
    res = result_of(state)
    assert res["kept"] is False and res["scores"] == [0, 0]
    assert state.observation(1)["nousussa"] is None


def test_nousussa_from_0_0_the_scoring_side_becomes_nousussa():
    state, tricks = nolo_hand(dealer=2, side_tricks=3, side=1)
    play_script(state, tricks)
    assert state.scores == (0, 16)
    assert state.observation(0)["nousussa"] == 1


def test_only_one_side_holds_points_in_every_match():
    for seed in range(40):
        state = tuppi().new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            assert min(state.scores) == 0
        check_match_against_replay(state)


def test_reset_keeps_points_option_scoring_side_keeps_the_hand_points():
    state, tricks = rami_hand(1, dealer=0, side_tricks=8, side=1, scores=(20, 0), reset_keeps_points=True)
    assert play_script(state, tricks) == 13  # no early end: the exact points matter now
    assert state.hand_points == (0, 8)
    assert state.scores == (0, 8)
    res = result_of(state)
    assert res["kept"] is True and res["early_end"] is False


def test_reset_keeps_points_matches_follow_the_rules():
    game = tuppi(reset_keeps_points=True)
    for seed in range(20):
        state = game.new_match(seed=seed)
        play_random(state, random.Random(seed))
        check_match_against_replay(state)


def test_win_on_reaching_52():
    """Seed: "The game is won by getting at least 52 points"."""
    state, tricks = rami_hand(0, dealer=3, side_tricks=7, side=0, scores=(48, 0))
    play_script(state, tricks)
    assert state.scores == (52, 0)
    assert state.winner == 0
    assert result_of(state)["match_over"] is True


def test_below_52_is_not_a_win():
    state, tricks = rami_hand(0, dealer=3, side_tricks=7, side=0, scores=(44, 0))
    play_script(state, tricks)
    assert state.scores == (48, 0) and state.winner is None
    assert result_of(state)["match_over"] is False


def test_target_option_changes_the_winning_score():
    state, tricks = nolo_hand(dealer=0, side_tricks=6, side=1, scores=(0, 4), target=8)
    play_script(state, tricks)
    assert state.scores == (0, 8) and state.winner == 1


def test_target_option_ends_a_match_after_the_first_hand():
    game = tuppi(target=4)
    for seed in range(10):
        state = game.new_match(seed=seed)
        play_random(state, random.Random(seed))
        res = hand_results(state)
        assert len(res) == 1
        assert state.winner == (0 if res[0]["points"][0] else 1)


def test_full_match_is_one_state_ending_with_a_winner():
    for seed in range(10):
        state = tuppi().new_match(seed=seed)
        play_random(state, random.Random(seed))
        assert state.is_over() and state.winner in (0, 1)
        assert state.scores[state.winner] >= 52
        results = hand_results(state)
        assert len(results) == len(record(state)["hands"])
        assert results[-1]["match_over"] is True
        assert all("match_over" not in r for r in results[:-1])
        check_match_against_replay(state)


def test_dealer_rotates_to_the_left_each_hand():
    for first in range(4):
        state = tuppi().new_match(seed=first, dealer=first)
        play_random(state, random.Random(first))
        dealers = [h["dealer"] for h in record(state)["hands"]]
        assert dealers == [(first + i) % 4 for i in range(len(dealers))]
        assert [h["hand_number"] for h in record(state)["hands"]] == list(range(len(dealers)))


def test_each_hand_of_a_match_bids_from_left_of_its_dealer():
    state = tuppi().new_match(seed=3, dealer=1)
    rng = random.Random(3)
    for n in range(5):
        assert state.hand_number == n and state.phase == "bid"
        assert state.current_player == (state.dealer + 1) % 4
        assert state.dealer == (1 + n) % 4
        play_hand_random(state, rng)
        if state.is_over():
            break


# -- early end -----------------------------------------------------------------------------------


def test_early_end_when_nousussa_side_certain_to_lose_rami_declared_by_other_side():
    # side 0 nousussa; side 1 declares rami and takes the first 7 tricks: the reset is certain
    state, tricks = rami_hand(1, dealer=0, sides="1111111000000", scores=(20, 0))
    played = play_script(state, tricks)
    assert played == 7
    res = result_of(state)
    assert res["early_end"] is True and res["tricks"] == [0, 7]
    assert res["kept"] is False and state.scores == (0, 0)
    assert state.is_over()


def test_early_end_when_nousussa_declarer_side_is_set():
    # side 0 nousussa and declares; the defenders take 7 tricks first
    state, tricks = rami_hand(0, dealer=3, side_tricks=6, side=0, scores=(20, 0))
    played = play_script(state, tricks)
    assert played == 7
    res = result_of(state)
    assert res["early_end"] is True and res["tricks"] == [0, 7] and state.scores == (0, 0)


def test_early_end_in_nolo_when_nousussa_side_takes_its_seventh_trick():
    # winners_for puts the side's tricks last: side 1 takes tricks 7..13; make side 0 take 7 first
    deal, tricks = scripted_hand(1, [0, 2] * 3 + [0] + [1, 3] * 2 + [1])
    state = tuppi().new_hand(deal=deal, dealer=0, scores=(12, 0))
    place_bids(state, dict.fromkeys(range(4), "black"))
    assert play_script(state, tricks) == 7
    res = result_of(state)
    assert res["early_end"] is True and res["tricks"] == [7, 0]
    assert state.scores == (0, 0)


def test_no_early_end_while_nousussa_side_can_still_win_the_hand():
    # side 1 takes 6 tricks first, then side 0 takes 7: side 0 (nousussa, declarer) wins the hand
    state, tricks = rami_hand(0, dealer=3, side_tricks=7, side=0, scores=(20, 0))
    assert play_script(state, tricks) == 13
    res = result_of(state)
    assert res["early_end"] is False and state.scores == (24, 0)


def test_no_early_end_when_nousussa_side_reaches_seven_in_rami():
    # the nousussa side declares and takes its 7th trick early: the exact count still matters
    deal, tricks = scripted_hand(3, [0] * 12)
    state = tuppi().new_hand(deal=deal, dealer=3, scores=(20, 0))
    place_bids(state, {0: "red", 1: "red", 2: "red", 3: "red"})
    state.apply("pass")
    state.apply("pass")
    assert state.declarer == 0
    assert play_script(state, tricks) == 13
    assert state.scores == (20 + 4 * 7, 0)


def test_no_early_end_at_0_0():
    state, tricks = rami_hand(1, dealer=0, side_tricks=7, side=1)
    assert play_script(state, tricks) == 13
    assert result_of(state)["early_end"] is False


def test_early_end_option_off_plays_all_13_tricks():
    state, tricks = rami_hand(1, dealer=0, side_tricks=7, side=1, scores=(20, 0), early_end=False)
    assert play_script(state, tricks) == 13
    res = result_of(state)
    assert res["early_end"] is False and res["tricks"] == [6, 7]
    assert res["points"] == [0, 4] and state.scores == (0, 0)


def test_early_end_in_a_match_goes_on_with_the_next_hand():
    for seed in range(60):
        state = tuppi().new_match(seed=seed)
        play_random(state, random.Random(seed))
        results = hand_results(state)
        for r in results:
            if r["early_end"]:
                assert sum(r["tricks"]) < 13 and r["kept"] is False and r["scores"] == [0, 0]
                assert max(r["tricks"]) == 7
        check_match_against_replay(state)


def test_early_end_happens_in_random_matches():
    found = 0
    for seed in range(40):
        state = tuppi().new_match(seed=seed)
        play_random(state, random.Random(seed))
        found += sum(r["early_end"] for r in hand_results(state))
    assert found > 0


# -- tournament -----------------------------------------------------------------------------------


def test_tournament_preset_options():
    game = tt.new_game("tuppi", preset="tournament")
    assert game.options["sooli"] is False
    assert game.options["bid_cards"] is True
    assert game.options["hand_limit"] == 20
    assert game.options["target"] == 52


def test_tournament_bid_cards_only_bid_rami_or_bid_nolo():
    state = tt.new_game("tuppi", preset="tournament").new_match(seed=1)
    for _ in range(4):
        assert [str(a) for a in state.legal_actions()] == ["bid rami", "bid nolo"]
        card = state.hand(state.current_player)[0]
        with pytest.raises(tt.IllegalActionError, match="bidding cards"):
            state.apply(f"bid {card}")
        state.apply("bid nolo")
    assert state.contract == "nolo"


def test_tournament_bids_hidden_until_revealed_and_no_hand_card_shown():
    state = tt.new_game("tuppi", preset="tournament").new_match(seed=2, dealer=0)
    state.apply("bid rami")  # seat 1
    for viewer in (0, 2, 3, None):
        assert state.observation(viewer)["bids"] == [{"seat": 1, "bid": None, "revealed": False}]
    assert state.observation(1)["bids"][0]["bid"] == "rami"
    state.apply("bid nolo")  # seat 2
    state.apply("bid rami")  # seat 3
    state.apply("bid nolo")  # seat 0
    assert state.declarer == 1 and state.contract == "rami"
    for viewer in (0, 2, 3):
        bids = state.observation(viewer)["bids"]
        assert bids[0] == {"seat": 1, "bid": "rami", "revealed": True}
        assert all(b["bid"] is None for b in bids[1:] if b["seat"] != viewer)
    # no sooli in the tournament: play starts at once, right of the declarer
    assert state.phase == "play" and state.current_player == 0


def test_tournament_no_sooli_ever():
    game = tt.new_game("tuppi", preset="tournament")
    for seed in range(20):
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            assert state.phase in ("bid", "play")
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("limit", [0, 16, 17, 20, 24])
def test_tournament_hand_limit_allowed_0_or_16_to_24(limit):
    assert tt.new_game("tuppi", preset="tournament", hand_limit=limit).options["hand_limit"] == limit


@pytest.mark.parametrize("limit", [-1, 1, 8, 15, 25, 100])
def test_tournament_hand_limit_other_values_rejected(limit):
    with pytest.raises(tt.OptionError, match="hand_limit"):
        tt.new_game("tuppi", preset="tournament", hand_limit=limit)


@pytest.mark.parametrize("limit", [16, 20, 24])
def test_tournament_match_ends_by_target_or_after_limit_when_nousussa_side_loses(limit):
    """Independent re-computation of every tournament match from its per-hand results."""
    game = tt.new_game("tuppi", preset="tournament", hand_limit=limit)
    kinds = {"target": 0, "at_limit": 0, "extended": 0}
    for seed in range(120):
        state = game.new_match(seed=seed)
        play_random(state, random.Random(seed))
        replay = check_match_against_replay(state)
        results = hand_results(state)
        n = len(results)
        if max(replay.scores) >= 52:
            kinds["target"] += 1
            assert n <= limit or results[-2]["scores"] != [0, 0]
        else:
            assert n >= limit
            # the last hand was lost by the side nousussa before it
            before = results[-2]["scores"]
            rising = 0 if before[0] else 1 if before[1] else None
            assert rising is not None and results[-1]["points"][rising] == 0
            # no earlier hand at or past the limit was lost by a nousussa side
            for i in range(limit - 1, n - 1):
                prev = results[i - 1]["scores"]
                r = 0 if prev[0] else 1 if prev[1] else None
                assert r is None or results[i]["points"][r] > 0
            kinds["at_limit" if n == limit else "extended"] += 1
            totals = replay.totals
            assert state.draw == (totals[0] == totals[1])
            assert state.winner == (None if state.draw else 0 if totals[0] > totals[1] else 1)
    assert all(kinds.values()), kinds


def test_tournament_winner_is_the_side_with_more_points_collected_while_nousussa():
    game = tt.new_game("tuppi", preset="tournament", hand_limit=16)
    checked = 0
    for seed in range(60):
        state = game.new_match(seed=seed)
        play_random(state, random.Random(seed))
        results = hand_results(state)
        if max(state.scores) >= 52:
            continue
        collected = [0, 0]
        for r in results:
            if r["kept"]:
                side = 0 if r["points"][0] else 1
                collected[side] += r["points"][side]
        assert list(state.totals) == collected
        if collected[0] != collected[1]:
            assert state.winner == (0 if collected[0] > collected[1] else 1)
            checked += 1
    assert checked > 5


def test_tournament_equal_totals_is_a_draw():
    game = tt.new_game("tuppi", preset="tournament", hand_limit=16)
    for seed in range(3000):
        state = game.new_match(seed=seed)
        play_random(state, random.Random(seed))
        if state.draw:
            break
    else:
        pytest.fail("no drawn tournament match in 3000 random ones")
    assert state.is_over() and state.winner is None
    assert state.totals[0] == state.totals[1]
    check_match_against_replay(state)
    assert record(state)["result"]["draw"] is True


def test_tournament_draw_from_a_record_with_equal_totals_before_the_last_hand():
    """A constructed match: hand 20 starts with side 0 nousussa and totals 8-8; side 1 wins it."""
    game = tt.new_game("tuppi", preset="tournament")
    for seed in range(200):
        base = json.loads(game.new_match(seed=seed).to_json())
        base["start"] = {"hand_number": 19, "dealer": 3, "scores": [8, 0], "totals": [8, 8], "previous": None}
        masks = deal_from_seed(seed, 19, tt.ANGLO_52, [13] * 4)
        base["hands"] = [{"hand_number": 19, "dealer": 3, "deal": [tt.ANGLO_52.format(m) for m in masks],
                          "actions": [], "result": None}]
        base["result"] = None
        state = tt.load(json.dumps(base))
        play_hand_random(state, random.Random(seed))
        res = hand_results(state)[-1]
        if res["points"][1] > 0:
            assert state.is_over() and state.draw and state.winner is None
            assert state.totals == (8, 8)
            return
        # side 0 kept its points: the match is extended (or won), never a draw
        assert not state.draw
    pytest.fail("side 1 never won the constructed hand")


def test_tournament_extension_runs_until_the_nousussa_side_loses_a_hand():
    game = tt.new_game("tuppi", preset="tournament", hand_limit=16)
    seen = 0
    for seed in range(200):
        state = game.new_match(seed=seed)
        play_random(state, random.Random(seed))
        results = hand_results(state)
        if len(results) > 16:
            seen += 1
            # hand 16 and every extension hand but the last kept its points (no nousussa side lost)
            for i in range(15, len(results) - 1):
                assert results[i]["kept"] is True
            if max(state.scores) < 52:
                assert results[-1]["kept"] is False
    assert seen > 5


def test_worlds_are_found_when_a_verbal_nolo_soloist_got_a_hidden_gift() -> None:
    """A verbal bid says its bidder held no allowed card of the other colour, and a sooli gift
    the seat did not see may be the one such card the soloist now holds: a world must put at
    most that one card there.  Found in an arena run, where one deal in five of 200 tries agreed
    with it and a bot's decision failed; every sample must succeed and agree with the view."""
    state = tt.new_game("tuppi").new_hand(seed=11000042, dealer=1)
    for text in ("bid 4S", "bid 3C", "bid nolo", "bid 9H", "pass", "sooli", "discard KS", "give AH"):
        state.apply(text)
    seat = 1  # the declarer: it saw the soloist's verbal nolo, not the discard or the gift
    view = state.observation(seat)
    assert view["contract"] == "sooli" and view["soloist"] == 0
    rng = random.Random(7)
    for _ in range(40):
        world = state.sample_world(seat, rng)
        assert world.observation(seat) == view
