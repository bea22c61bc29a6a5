"""Every Huutopussi rule of RULES.md (section Huutopussi) and seeds/marjapussi-huutopussi.txt
(lines 60-121 and the Huutopussi variants, lines 186-191), one or more tests each.

Most tests build the deal by hand (``game.new_hand(deal=[...], dealer=0)``: four hands of nine;
with three players three hands of eleven and the kitty of three) and play a script of
``seat action`` steps (:func:`run`; a lone card means ``play`` it).  Many deals are variations
of a few layouts:

- the *suit deal* (:func:`suit_deal`): each seat holds one whole suit, seat 0 the spades.
  Seat 0 deals, opens and is left declarer; his partner gives three diamonds and gets them
  back (:func:`exchange_back`), and seat 0 leads spades: nobody can follow, so he takes every
  trick (a läpiajo) and his side collects all 160 card points;
- the *four-marriage deal* (:data:`MARRIAGES_DEAL`): the declarer gets the spade, heart and
  diamond marriages, his partner holds the clubs one; played out, his side takes every trick
  and all four marriages, the seed's maximum of 440;
- the *duty deal* (:func:`duty_state`): the declarer leads the ace of clubs, which everyone
  follows with a small club, declares hearts trumps and leads the nine of spades; what seats
  1, 2 and 3 hold is the test's.

Rules from the module docstring of ``tricktaker.games.huutopussi`` (decisions where the texts
are silent) are tested as such.  Scoring and legal actions are also checked against an
independent re-computation (:mod:`huutopussi_helpers`) over random hands and matches.
"""

from __future__ import annotations

import json
import random

import pytest
from huutopussi_helpers import (
    FIVES,
    FOUR_SIXES_DEAL,
    PIPS,
    SIXES_DEAL,
    STRONG_FIRST,
    SUIT_CARDS,
    Rules,
    assert_illegal,
    check_deal,
    check_results,
    drive,
    hand,
    huutopussi,
    last_trick,
    legal,
    legal_calls,
    legal_plays,
    match_with,
    play_first,
    record,
    result,
    run,
    suit_deal,
)

import tricktaker as tt

ALL_BIDS = [f"bid {v}" for v in range(50, 445, 5)]


def rotate(deal: list[str], k: int) -> list[str]:
    """The same four-player deal with every hand moved ``k`` seats clockwise."""
    return [deal[(s - k) % 4] for s in range(4)]


SOLO_AUCTION = "0 bid {bid}, 1 pass, 2 pass, 3 pass"
"""Seat 0 deals and opens; everyone passes: seat 0 is declarer at the opening bid."""


def exchange_back(cards: str, raise_to: int | None = None) -> str:
    """Seat 2 gives ``cards`` to the declarer seat 0, who keeps (or raises) the contract and gives
    the same cards back."""
    keep = f"raise {raise_to}" if raise_to else "pass"
    return f"2 give {cards}, 0 {keep}, 0 give {cards}"


def solo(game: tt.Game, deal: list[str], back: str, bid: int = 50, raise_to: int | None = None,
         scores=None) -> tt.State:
    """Seat 0 declarer at ``bid`` after the solo auction and the exchange of ``back``, to lead."""
    state = game.new_hand(deal=deal, dealer=0, scores=scores)
    run(state, SOLO_AUCTION.format(bid=bid))
    run(state, exchange_back(back, raise_to))
    return state


def sweep(game: tt.Game | None = None, bid: int = 50, raise_to: int | None = None, calls: str = "",
          scores=None) -> tt.State:
    """The suit deal played out: seat 0 declares at ``bid`` and takes every trick; ``calls`` are
    his calls after trick 1 (e.g. ``declare S``)."""
    state = solo(game or huutopussi(), suit_deal(), "8D 7D 6D", bid, raise_to, scores)
    run(state, "0 AS, 1 6H, 2 6D, 3 6C")
    if calls:
        run(state, f"0 {calls}")
    play_first(state)
    assert state.is_over() and result(state)["tricks_won"] == [9, 0]
    return state


# The four-marriage deal: seat 2 gives AD KD QD and gets 8C 7C 6C.  The declarer seat 0 then
# holds the spade, heart and diamond marriages, seat 2 the clubs one.
MARRIAGES_DEAL = check_deal(["AS KS QS AH KH QH 6C 7C 8C", "TS JS 9S 8S TH JH 9H 8H TD",
                             "AD KD QD AC KC QC TC JC 9C", "7S 6S 7H 6H JD 9D 8D 7D 6D"])
FOUR_MARRIAGES = ("0 AS, 1 8S, 2 6C, 3 6S, 0 declare S, 0 AH, 1 8H, 2 7C, 3 6H, 0 declare H, "
                  "0 AD, 1 TD, 2 8C, 3 6D, 0 declare D, 0 KD, 1 TS, 2 9C, 3 7D, 0 ask whole, 2 answer C")


def marriages_state(bid: int = 50, **options) -> tt.State:
    state = huutopussi(**options).new_hand(deal=MARRIAGES_DEAL, dealer=0)
    run(state, SOLO_AUCTION.format(bid=bid))
    run(state, "2 give AD KD QD, 0 pass, 0 give 8C 7C 6C")
    return state


# The trumps deal: the declarer seat 0 declares spades after trick 1 and hearts after trick 2;
# in trick 3 he leads 6D, which seat 1 (no diamonds, no hearts, spades) need not trump.
TRUMPS_DEAL = check_deal(["AS KS QS AH KH QH 6D 6C 7C", "TS JS 9S 8S 6H AC KC QC JC",
                          "7D TH JH 9H 7S AD TD KD QD", "8D JD 9D 8H 7H 6S TC 9C 8C"])


TRUMPS_PLAY = ("0 AS, 1 8S, 2 7S, 3 6S, 0 declare S, 0 AH, 1 6H, 2 9H, 3 7H, 0 declare H, "
               "0 6D, 1 JS, 2 7D, 3 8D")


def trumps_state(**options) -> tt.State:
    return solo(huutopussi(**options), TRUMPS_DEAL, "AD KD QD")


def trumps_hand(scores=None) -> tt.State:
    """The trumps deal played out: side 0 makes 50 (collected 255), side 1 collects 45."""
    state = solo(huutopussi(), TRUMPS_DEAL, "AD KD QD", scores=scores)
    run(state, TRUMPS_PLAY)
    play_first(state)
    assert result(state)["points"] == [50, 45]
    return state


# The lost deal: seat 0 declares with nothing; side 1 takes every trick.
LOST_DEAL = check_deal(["6H 7H 8H 6D 7D 8D 6C 7C 8C", "AS TS KS QS JS 9S AH TH KH",
                        "9H JH 9D JD 9C JC 6S 7S 8S", "QH AD TD KD QD AC TC KC QC"])


def lost_hand(bid: int = 50, raise_to: int | None = None, scores=None, **options) -> tt.State:
    state = solo(huutopussi(**options), LOST_DEAL, "8S 7S 6S", bid, raise_to, scores)
    play_first(state)
    assert result(state)["tricks_won"] == [0, 9]
    return state


# Three players: seat 0 holds the spades, seat 1 the big hearts and diamonds (and both their
# marriages), seat 2 the rest; the kitty is KC QC JC.
THREE_DEAL = check_deal(["AS KS QS JS TS 9S 8S 7S 6S 6H 7H", "AH TH KH QH JH 9H 8H AD TD KD QD",
                         "JD 9D 8D 7D 6D AC TC 9C 8C 7C 6C", "KC QC JC"])
# Three players, seat 0 holds every spade and the red aces: he takes every trick.
SWEEP3_DEAL = check_deal(["AS KS QS JS TS 9S 8S 7S 6S AH AD", "TH KH QH JH 9H 8H TD KD QD JD 9D",
                          "AC TC KC QC JC 9C 8C 7C 6C 8D 7D", "6H 7H 6D"])


def three(**options) -> tt.Game:
    return huutopussi(players=3, **options)


def three_state(deal: list[str] = THREE_DEAL, dealer: int = 0, scores=None, **options) -> tt.State:
    return three(**options).new_hand(deal=deal, dealer=dealer, scores=scores)


def sweep3(bid: int = 50, scores=None, **options) -> tt.State:
    """Seat 0 declares at ``bid`` in the three-player sweep deal, discards the kitty and takes
    every trick."""
    state = three_state(SWEEP3_DEAL, scores=scores, **options)
    run(state, f"0 bid {bid}, 1 pass, 2 pass, 0 pass, 0 discard 7H 6H 6D")
    play_first(state)
    assert result(state)["tricks_won"] == [11, 0, 0]
    return state


def actions(state: tt.State) -> list[str]:
    """The actions of a single hand, to replay it inside a match."""
    return record(state)["hands"][0]["actions"]


def taken_points(state: tt.State, values: dict[str, int] = FIVES) -> list[int]:
    """The card points in the tricks each side (seat, with three players) took."""
    n = state.game.num_sides
    out = [0] * n
    for t in state.observation(None)["tricks"]:
        side = t["winner"] % 2 if n == 2 else t["winner"]
        out[side] += sum(values.get(c[0], 0) for _, c in t["cards"])
    return out


# -- the deck and the deal -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_four_players_get_nine_cards_each_of_the_36_card_deck(seed):
    state = huutopussi().new_match(seed=seed)
    hands = [hand(state, s) for s in range(4)]
    assert [len(h) for h in hands] == [9] * 4
    assert set().union(*hands) == {r + s for r in STRONG_FIRST for s in "SHDC"}
    assert state.num_players == 4 and state.scores == (0, 0)


@pytest.mark.parametrize("seed", range(3))
def test_three_players_get_eleven_cards_each_and_a_kitty_of_three(seed):
    state = three().new_match(seed=seed)
    hands = [hand(state, s) for s in range(3)]
    assert [len(h) for h in hands] == [11] * 3
    assert len(set().union(*hands)) == 33
    assert state.observation(0)["hand_sizes"] == [11, 11, 11]
    assert len(record(state)["hands"][0]["deal"][3].split()) == 3
    assert state.scores == (0, 0, 0)


def test_a_deal_must_be_four_nines_or_three_elevens_and_a_kitty():
    with pytest.raises(tt.OptionError, match="piles of 9, 9, 9, 9 cards; pile 1 has 11"):
        huutopussi().new_hand(deal=THREE_DEAL)
    with pytest.raises(tt.OptionError, match="piles of 11, 11, 11, 3 cards; pile 1 has 9"):
        three().new_hand(deal=suit_deal())
    with pytest.raises(tt.OptionError, match="dealt twice"):
        huutopussi().new_hand(deal=[SUIT_CARDS["S"]] * 4)


# -- the auction -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_the_dealer_opens_the_bidding_at_50_or_more_and_may_not_pass(dealer):
    state = huutopussi().new_hand(deal=suit_deal(), dealer=dealer)
    assert state.current_player == dealer and state.phase == "bid"
    assert state.hand_points is None and state.trump is None
    assert legal(state) == ALL_BIDS
    assert_illegal(state, "pass", "the dealer must open the bidding at 50 or more")
    assert_illegal(state, "bid 45", "cannot bid 45", "from 50")
    assert state.contract == 0 and state.declarer is None
    obs = state.observation(None)
    assert obs["high_bid"] is None and obs["high_bidder"] is None and obs["auction"] == []


def test_the_bidding_goes_clockwise_from_the_dealer():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=2)
    seen = []
    for text in ("bid 50", "bid 55", "bid 60", "bid 65", "bid 70"):
        seen.append(state.current_player)
        state.apply(text)
    assert seen == [2, 3, 0, 1, 2]


def test_bids_are_multiples_of_five_above_the_current_bid():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "0 bid 60")
    assert legal(state) == [f"bid {v}" for v in range(65, 445, 5)] + ["pass"]
    assert_illegal(state, "bid 60", "cannot bid 60: bids go from 65 in fives up to 440")
    assert_illegal(state, "bid 55", "cannot bid 55")
    assert_illegal(state, "bid 67", "cannot bid 67", "in fives")
    run(state, "1 bid 100")
    obs = state.observation(2)
    assert obs["high_bid"] == 100 and obs["high_bidder"] == 1
    assert obs["auction"] == [[0, "bid 60"], [1, "bid 100"]]
    assert legal(state)[0] == "bid 105"


def test_the_maximum_bid_is_440():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    assert state.game.max_bid == 440
    assert legal(state)[-1] == "bid 440"
    assert_illegal(state, "bid 445", "cannot bid 445", "up to 440")
    assert_illegal(state, "bid 1000", "up to 440")
    run(state, "0 bid 440")
    assert legal(state) == ["pass"]
    run(state, "1 pass, 2 pass, 3 pass")
    assert state.declarer == 0 and state.contract == 440


def test_a_pass_is_for_good_and_passed_players_are_skipped():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "0 bid 50, 1 pass, 2 bid 55, 3 bid 60, 0 bid 65")
    assert state.current_player == 2, "seat 1 passed: seat 2 is next after seat 0"
    assert state.observation(None)["passed"] == [False, True, False, False]
    assert_illegal(state, "bid 100", "not your turn", seat=1)
    run(state, "2 pass, 3 bid 70")
    assert state.current_player == 0
    run(state, "0 bid 75")
    assert state.current_player == 3, "seats 1 and 2 have passed"


def test_the_auction_ends_when_one_bidder_is_left_he_is_declarer():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "0 bid 50, 1 bid 55, 2 pass, 3 bid 60, 0 pass, 1 bid 65")
    assert state.phase == "bid" and state.declarer is None
    run(state, "3 pass")
    assert state.declarer == 1 and state.contract == 65
    assert state.phase == "give" and state.current_player == 3, "the declarer's partner gives"
    obs = state.observation(None)
    assert obs["declarer"] == 1 and obs["opening_bid"] == 65 and obs["contract"] == 65


def test_everyone_passing_leaves_the_dealer_declarer_at_his_opening():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=3)
    run(state, "3 bid 75, 0 pass, 1 pass, 2 pass")
    assert state.declarer == 3 and state.contract == 75
    assert state.current_player == 1


# -- three sixes: a redeal -------------------------------------------------------------------------

# seat 1 holds two sixes
TWO_SIXES_DEAL = check_deal(["AS KS QS JS TS 9S 8S 7S 6C", "6S 6H AH KH QH JH TH 9H 8H",
                             "AD KD QD JD TD 9D 8D 7D 6D", "AC KC QC JC TC 9C 8C 7C 7H"])


def test_three_sixes_allow_a_redeal_at_the_first_chance_to_bid():
    state = huutopussi().new_hand(deal=SIXES_DEAL, dealer=0)
    assert "redeal" not in legal(state)
    assert_illegal(state, "redeal", "redeal is possible only at a player's first bid, holding three sixes")
    run(state, "0 bid 50")
    assert legal(state) == ["redeal", *ALL_BIDS[1:], "pass"]
    run(state, "1 bid 55")
    assert "redeal" not in legal(state), "seat 2 has no sixes"


def test_redeal_only_at_the_first_chance_not_later_in_the_auction():
    state = huutopussi().new_hand(deal=SIXES_DEAL, dealer=0)
    run(state, "0 bid 50, 1 bid 55, 2 bid 60, 3 bid 65, 0 bid 70")
    assert state.current_player == 1
    assert "redeal" not in legal(state)
    assert_illegal(state, "redeal", "only at a player's first bid")


def test_a_dealer_with_three_sixes_may_redeal_instead_of_opening():
    state = huutopussi().new_hand(deal=rotate(SIXES_DEAL, -1), dealer=0)
    assert legal(state) == ["redeal", *ALL_BIDS]
    run(state, "0 redeal")
    assert state.is_over() and state.hand_points == (0, 0)


def test_four_sixes_also_allow_a_redeal_two_do_not():
    state = huutopussi().new_hand(deal=FOUR_SIXES_DEAL, dealer=0)
    run(state, "0 bid 50")
    assert "redeal" in legal(state)
    state = huutopussi().new_hand(deal=TWO_SIXES_DEAL, dealer=0)
    run(state, "0 bid 50")
    assert "redeal" not in legal(state)
    assert_illegal(state, "redeal", "holding three sixes")


def test_a_redeal_ends_the_hand_with_nothing_scored():
    state = huutopussi().new_hand(deal=SIXES_DEAL, dealer=0, scores=[120, -40])
    run(state, "0 bid 50, 1 redeal")
    assert state.is_over()
    assert state.hand_points == (0, 0) and state.scores == (120, -40)
    assert state.winner is None
    r = result(state)
    assert r["redeal"] == 1 and r["points"] == [0, 0] and r["declarer"] is None
    assert r["auction"] == [[0, "bid 50"], [1, "redeal"]]


def test_after_a_redeal_the_same_dealer_deals_again():
    match = match_with(huutopussi(), [(0, SIXES_DEAL, ["bid 50", "redeal"]), (0, suit_deal(), [])],
                       scores=[10, 20])
    assert not match.is_over()
    assert match.hand_number == 1 and match.dealer == 0
    assert match.current_player == 0 and match.phase == "bid"
    assert match.scores == (10, 20) and match.hand_points == (0, 0)
    assert hand(match, 0) == set(SUIT_CARDS["S"].split()), "a new deal"
    obs = match.observation(2)
    assert obs["previous_hand"]["redeal"] == 1 and obs["previous_hand"]["points"] == [0, 0]
    assert obs["auction"] == [] and obs["high_bid"] is None
    # after the new hand is played, seat 1 deals
    match = match_with(huutopussi(), [(0, SIXES_DEAL, ["bid 50", "redeal"]),
                                      (0, suit_deal(), actions(sweep())),
                                      (1, rotate(suit_deal(), 1), [])], scores=[10, 20])
    assert match.hand_number == 2 and match.dealer == 1 and match.scores == (60, -30)
    check_results(match)


@pytest.mark.parametrize("players", [4, 3])
def test_a_redeal_in_a_seeded_match_deals_a_fresh_hand_by_the_same_dealer(players):
    game = huutopussi(players=players)
    for seed in range(500):
        state = game.new_match(seed=seed, dealer=2)
        if "redeal" in legal(state):
            break
    else:
        pytest.fail("no seed gives the dealer three sixes")
    before = hand(state, 2)
    run(state, "2 redeal")
    assert state.hand_number == 1 and state.dealer == 2 and state.current_player == 2
    assert hand(state, 2) != before
    assert state.scores == (0,) * game.num_sides


def test_redeal_option_off_gives_no_redeal():
    state = huutopussi(redeal=False).new_hand(deal=SIXES_DEAL, dealer=0)
    run(state, "0 bid 50")
    assert "redeal" not in legal(state)
    assert_illegal(state, "redeal", "option redeal is off")


# -- the -500 ban ----------------------------------------------------------------------------------


def test_a_side_at_minus_500_may_not_bid_its_dealer_opens_at_exactly_50():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0, scores=[-500, 0])
    assert legal(state) == ["bid 50"]
    assert_illegal(state, "bid 55", "seat 0's side is at -500 or below and may not bid",
                   "the dealer opens at 50")
    assert_illegal(state, "pass", "the dealer must open")
    run(state, "0 bid 50, 1 bid 55")
    assert legal(state) == ["pass"], "seat 2 is on the banned side"
    assert_illegal(state, "bid 60", "seat 2's side is at -500 or below and may not bid")
    run(state, "2 pass, 3 pass")
    assert legal(state) == ["pass"]
    run(state, "0 pass")
    assert state.declarer == 1 and state.contract == 55


def test_a_banned_dealer_left_alone_is_declarer_at_50():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=2, scores=[-730, 100])
    run(state, "2 bid 50, 3 pass, 0 pass, 1 pass")
    assert state.declarer == 2 and state.contract == 50


def test_a_side_above_minus_500_may_bid():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0, scores=[-495, -500])
    assert legal(state) == ALL_BIDS
    run(state, "0 bid 100")
    assert legal(state) == ["pass"], "side 1 is at -500"


def test_the_ban_keeps_the_redeal():
    state = huutopussi().new_hand(deal=SIXES_DEAL, dealer=0, scores=[0, -600])
    run(state, "0 bid 50")
    assert legal(state) == ["redeal", "pass"]


# -- the exchange (four players) --------------------------------------------------------------------


def test_the_partner_gives_three_cards_to_the_declarer():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "0 bid 50, 1 bid 55, 2 pass, 3 pass, 0 pass")
    assert state.declarer == 1 and state.phase == "give" and state.current_player == 3
    gives = legal(state)
    assert len(gives) == 84 and all(g.startswith("give ") for g in gives)
    assert {c for g in gives for c in g.split()[1:]} == hand(state, 3)
    run(state, "3 give AC 7C 6C")
    assert state.phase == "raise" and state.current_player == 1
    assert hand(state, 1) == set(SUIT_CARDS["H"].split()) | {"AC", "7C", "6C"}
    assert state.observation(None)["hand_sizes"] == [9, 12, 9, 6]


def test_the_declarer_may_raise_in_fives_up_to_the_maximum_or_keep_the_contract():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "0 bid 50, 1 pass, 2 pass, 3 pass, 2 give 8D 7D 6D")
    assert legal(state) == [f"raise {v}" for v in range(55, 445, 5)] + ["pass"]
    assert_illegal(state, "raise 50", "cannot raise to 50: a raise goes above 50 in fives, up to 440")
    assert_illegal(state, "raise 53", "cannot raise to 53")
    assert_illegal(state, "raise 445", "up to 440")
    assert_illegal(state, "bid 100", "not possible now", "raise N", "pass")
    run(state, "0 raise 120")
    assert state.contract == 120 and state.phase == "return" and state.current_player == 0
    obs = state.observation(None)
    assert obs["contract"] == 120 and obs["opening_bid"] == 50


def test_keeping_the_contract_with_pass():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "0 bid 50, 1 bid 80, 2 pass, 3 pass, 0 pass, 3 give 8C 7C 6C, 1 pass")
    assert state.contract == 80 and state.phase == "return" and state.current_player == 1


def test_a_contract_at_the_maximum_cannot_be_raised():
    state = marriages_state(bid=440)
    assert state.contract == 440
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "0 bid 440, 1 pass, 2 pass, 3 pass, 2 give 8D 7D 6D")
    assert legal(state) == ["pass"]


def test_the_declarer_gives_three_back_and_leads_the_first_trick_with_any_card():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "0 bid 50, 1 pass, 2 pass, 3 pass, 2 give AD KD 6D, 0 pass")
    gives = legal(state)
    assert len(gives) == 220, "any three of his twelve cards"
    assert "give AD KD 6D" in gives, "he may give back what he got"
    run(state, "0 give KS QS 6D")
    assert state.phase == "play" and state.current_player == 0
    assert state.observation(None)["hand_sizes"] == [9, 9, 9, 9]
    assert hand(state, 0) == set(SUIT_CARDS["S"].split()) - {"KS", "QS"} | {"AD", "KD"}
    assert hand(state, 2) >= {"KS", "QS", "6D"}
    assert legal_plays(state) == hand(state, 0), "no duty to lead an ace"
    assert not legal_calls(state)
    run(state, "0 7S")


def test_exchanged_cards_are_seen_by_the_declarer_and_his_partner_only():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "0 bid 50, 1 bid 55, 2 pass, 3 pass, 0 pass")
    for seat in (None, 0, 1, 2, 3):
        assert state.observation(seat)["given"] in (None, [])
    run(state, "3 give AC KC 6C, 1 pass, 1 give AH TH 6H")
    assert state.phase == "play" and state.current_player == 1, "the declarer leads"
    for seat in (1, 3):
        obs = state.observation(seat)
        assert sorted(obs["given"]) == ["6C", "AC", "KC"]
        assert sorted(obs["returned"]) == ["6H", "AH", "TH"]
    for seat in (None, 0, 2):
        obs = state.observation(seat)
        assert obs["given"] is None and obs["returned"] is None
        text = json.dumps(obs)
        assert not [c for c in ("AC", "KC", "6C", "AH", "TH", "6H") if f'"{c}"' in text]
    assert state.observation(0)["hand_sizes"] == [9, 9, 9, 9]


@pytest.mark.parametrize(("action", "fragment"), [
    ("give 9H 7C 6D", "seat 2 cannot give 9H 7C: not in hand"),
    ("give 8D 7D", "give exactly 3 cards, not 2"),
    ("give 9D 8D 7D 6D", "give exactly 3 cards, not 4"),
    ("give 9D", "give exactly 3 cards, not 1"),
    ("give 9D 9D 7D", "malformed: write 'give' and distinct cards"),
    ("give", "malformed"),
    ("give 9D 8D x", "'x' in 'give 9D 8D x' is neither a card"),
    ("pass", "seat 2 must give 3 cards"),
    ("play AD", "seat 2 must give 3 cards"),
    ("bid 60", "seat 2 must give 3 cards"),
    ("discard 9D 8D 7D", "seat 2 must give 3 cards"),
])
def test_exchange_errors_name_the_problem_and_leave_the_state_unchanged(action, fragment):
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, SOLO_AUCTION.format(bid=50))
    assert_illegal(state, action, fragment)


def test_exchange_4_option_passes_four_cards_each_way():
    state = huutopussi(exchange=4).new_hand(deal=suit_deal(), dealer=0)
    run(state, SOLO_AUCTION.format(bid=50))
    assert len(legal(state)) == 126
    assert_illegal(state, "give 8D 7D 6D", "give exactly 4 cards, not 3")
    run(state, "2 give 9D 8D 7D 6D")
    assert state.observation(None)["hand_sizes"] == [13, 9, 5, 9]
    run(state, "0 pass")
    assert len(legal(state)) == 715
    run(state, "0 give 9S 8S 7S 6S")
    assert state.observation(None)["hand_sizes"] == [9, 9, 9, 9]
    assert sorted(state.observation(2)["returned"]) == ["6S", "7S", "8S", "9S"]


def test_exchange_4_is_an_error_with_three_players():
    with pytest.raises(tt.OptionError, match="apply to four players only"):
        huutopussi(players=3, exchange=4)
    with pytest.raises(tt.OptionError, match="calls_after_any_trick"):
        huutopussi(players=3, calls_after_any_trick=True)
    with pytest.raises(tt.OptionError, match="exchange"):
        tt.new_game("huutopussi", preset="three", exchange=4)


# -- play: duties -----------------------------------------------------------------------------------

DUTY_LEADER = "AC KH QH 9S 7S KC QC JC TC"
DUTY_TRICK_1 = "0 AC, 1 6C, 2 7C, 3 8C"


def duty_state(s1: str, s2: str, s3: str, trumps: bool = True) -> tt.State:
    """The duty deal after trick 1 (and ``declare H`` if ``trumps``) and the lead of 9S.  Seats
    1, 2 and 3 also hold the 6C, 7C and 8C they play to trick 1; seat 2 gives its last three
    cards in the exchange and gets them back."""
    deal = check_deal([DUTY_LEADER, f"6C {s1}", f"7C {s2}", f"8C {s3}"])
    state = solo(huutopussi(), deal, " ".join(s2.split()[-3:]))
    run(state, DUTY_TRICK_1)
    if trumps:
        run(state, "0 declare H")
        assert state.trump == "H"
    run(state, "0 9S")
    return state


# seat 1 has one low spade, seat 2 spades either side of 9S, seat 3 no spades but trumps
FOLLOW = dict(s1="6S AH TH 6D 7D 8D 9D JD", s2="8S JS QS KS TS AS QD KD", s3="JH 9H 8H 7H 6H TD AD 9C")
# seat 1 trumps with 8H, seat 2 has trumps either side of it, seat 3 all the other spades
OVERTRUMP = dict(s1="8H 6D 7D 8D 9D JD QD KD", s2="AH TH 9H 7H 6H TD AD 9C", s3="AS TS KS QS JS 8S 6S JH")
# as OVERTRUMP but seat 2's trumps are all below seat 1's ten
UNDERTRUMP = dict(s1="TH 6D 7D 8D 9D JD QD KD", s2="JH 9H 8H 7H 6H TD AD 9C", s3="AS TS KS QS JS 8S 6S AH")
# seat 1 has neither spades nor hearts
VOID = dict(s1="6D 7D 8D 9D JD QD KD TD", s2="AH TH JH 9H 8H 7H 6H AD", s3="AS TS KS QS JS 8S 6S 9C")


def test_no_trumps_at_first_the_highest_card_of_the_suit_led_wins():
    state = duty_state(**FOLLOW, trumps=False)
    assert state.trump is None
    run(state, "1 6S, 2 JS")
    assert legal_plays(state) == hand(state, 3), "no trumps: seat 3, void in spades, plays anything"
    run(state, "3 AD")
    assert last_trick(state)["winner"] == 2


def test_must_follow_suit_even_without_beating():
    state = duty_state(**FOLLOW)
    assert legal_plays(state) == {"6S"}
    assert_illegal(state, "play AH", "must follow suit: seat 1 holds spades", "cannot play AH")


def test_must_beat_the_high_card_of_the_suit_led_if_possible():
    state = duty_state(**FOLLOW)
    run(state, "1 6S")
    assert legal_plays(state) == {"JS", "QS", "KS", "TS", "AS"}
    assert_illegal(state, "play 8S", "must beat the high card")


def test_void_in_the_suit_led_must_trump():
    state = duty_state(**FOLLOW)
    run(state, "1 6S, 2 AS")
    assert legal_plays(state) == {"JH", "9H", "8H", "7H", "6H"}
    assert_illegal(state, "play AD", "must trump")
    run(state, "3 6H")
    assert last_trick(state)["winner"] == 3, "the lowest trump beats the ace of the suit led"


def test_void_must_overtrump_when_it_can_and_else_still_trump():
    state = duty_state(**OVERTRUMP)
    run(state, "1 8H")
    assert legal_plays(state) == {"AH", "TH", "9H"}
    assert_illegal(state, "play 7H", "must overtrump")
    state = duty_state(**UNDERTRUMP)
    run(state, "1 TH")
    assert legal_plays(state) == {"JH", "9H", "8H", "7H", "6H"}


def test_void_in_the_suit_led_and_in_trumps_may_play_anything():
    state = duty_state(**VOID)
    assert legal_plays(state) == hand(state, 1)


def test_the_duty_to_beat_holds_against_the_partners_card_too():
    # seat 2 (partner of the leader) must beat seat 0's 9S although it wins for his side already
    state = duty_state(**FOLLOW)
    run(state, "1 6S")
    assert "8S" not in legal_plays(state)


# -- calls: when ------------------------------------------------------------------------------------

# seat 0 leads 9H; seat 1 (hearts, diamonds and clubs marriages) wins it with AH
LEAD_DEAL = check_deal(["9H AS TS KS QS JS 9S 8S 7S", "AH KH QH AD KD QD AC KC QC",
                        "TH JH 8H TD JD 9D 8D 7D 6D", "7H 6H 6S TC JC 9C 8C 7C 6C"])


def lead_state(**options) -> tt.State:
    state = solo(huutopussi(**options), LEAD_DEAL, "8D 7D 6D")
    run(state, "0 9H, 1 AH, 2 8H, 3 6H")
    assert last_trick(state)["winner"] == 1 and state.current_player == 1
    return state


def test_no_call_after_winning_a_trick_someone_else_led():
    state = lead_state()
    assert not legal_calls(state)
    assert legal_plays(state) == hand(state, 1)
    assert_illegal(state, "declare H", "not possible now", "led himself")
    assert_illegal(state, "ask whole", "not possible now")


def test_a_call_after_winning_a_trick_one_led_oneself():
    state = lead_state()
    run(state, "1 AD, 2 6D, 3 6C, 0 7S")
    assert last_trick(state)["winner"] == 1
    assert legal_calls(state) == {"declare H", "declare D", "declare C", "ask whole"}
    run(state, "1 declare H")
    assert state.trump == "H"


def test_a_refused_call_says_the_trick_must_be_one_he_led_himself():
    state = lead_state()
    msg = assert_illegal(state, "declare H")
    assert "a trick he led himself" in msg, msg


def test_calls_after_any_trick_option_calls_after_winning_anyone_s_lead():
    state = lead_state(calls_after_any_trick=True)
    assert legal_calls(state) == {"declare H", "declare D", "declare C", "ask whole"}
    run(state, "1 declare D")
    assert state.trump == "D"
    assert state.observation(None)["marriages"] == [[1, "D", 80]]


def test_the_declarer_may_call_after_winning_the_first_trick():
    state = marriages_state()
    assert not legal_calls(state), "no call before the first trick"
    assert_illegal(state, "declare S", "not possible now")
    run(state, "0 AS, 1 8S, 2 6C, 3 6S")
    assert legal_calls(state) == {"declare S", "declare H", "declare D", "ask whole"}


def test_one_call_per_trick():
    state = marriages_state()
    run(state, "0 AS, 1 8S, 2 6C, 3 6S, 0 declare S")
    assert not legal_calls(state)
    assert_illegal(state, "declare H", "not possible now")


def test_a_call_only_before_leading():
    state = marriages_state()
    run(state, "0 AS, 1 8S, 2 6C, 3 6S, 0 KS")
    assert not legal_calls(state)
    assert_illegal(state, "declare H", "not your turn", seat=0)
    assert_illegal(state, "declare H", "not possible now")


def test_declare_needs_the_king_and_queen_in_the_own_hand():
    state = lead_state()
    run(state, "1 AD, 2 6D, 3 6C, 0 7S")
    assert_illegal(state, "declare S", "seat 1 does not hold the king and queen of spades")


# -- calls: every marriage makes trumps ---------------------------------------------------------------


def test_every_marriage_makes_its_suit_trumps_the_old_trumps_become_plain():
    state = trumps_state()
    run(state, "0 AS, 1 8S, 2 7S, 3 6S, 0 declare S")
    assert state.trump == "S"
    run(state, "0 AH, 1 6H, 2 9H, 3 7H, 0 declare H")
    assert state.trump == "H"
    run(state, "0 6D")
    # seat 1 has no diamonds and no hearts: spades are plain again, he need not play them
    assert legal_plays(state) == {"TS", "JS", "9S", "AC", "KC", "QC", "JC"}
    run(state, "1 JS, 2 7D, 3 8D")
    assert last_trick(state)["winner"] == 3, "a spade no longer wins"
    assert state.observation(None)["marriages"] == [[0, "S", 40], [0, "H", 100]]


def test_each_suit_can_be_declared_only_once_per_hand():
    state = trumps_state()
    run(state, "0 AS, 1 8S, 2 7S, 3 6S, 0 declare S, 0 AH, 1 6H, 2 9H, 3 7H")
    assert hand(state, 0) >= {"KS", "QS", "KH", "QH"}
    assert legal_calls(state) == {"declare H", "ask whole"}
    assert_illegal(state, "declare S", "spades have already been declared this hand")


def test_trumps_can_change_three_times_in_a_hand():
    state = marriages_state()
    trumps = []
    for step in FOUR_MARRIAGES.split(","):
        run(state, step)
        if not trumps or state.trump != trumps[-1]:
            trumps.append(state.trump)
    assert trumps == [None, "S", "H", "D", "C"]
    assert not legal_calls(state)


def test_no_call_is_offered_once_every_suit_is_declared():
    state = marriages_state()
    run(state, FOUR_MARRIAGES)
    run(state, "0 KS, 1 JS, 2 AC, 3 7S")
    assert last_trick(state)["winner"] == 2
    run(state, "2 TC, 3 7H, 0 QS, 1 9S")
    assert last_trick(state)["winner"] == 2 and not legal_calls(state)


@pytest.mark.parametrize(("option", "values"), [
    ("spades_low", {"S": 40, "C": 60, "D": 80, "H": 100}),
    ("spades_high", {"S": 100, "H": 80, "D": 60, "C": 40}),
])
def test_marriage_values(option, values):
    assert huutopussi().options["marriage_values"] == "spades_low", "the default"
    state = marriages_state(marriage_values=option)
    run(state, FOUR_MARRIAGES)
    obs = state.observation(None)
    assert obs["marriages"] == [[0, "S", values["S"]], [0, "H", values["H"]], [0, "D", values["D"]],
                                [2, "C", values["C"]]]
    cards = 10 + 10 + 20 + 15  # AS; AH; AD TD; KD TS
    assert obs["points"] == [280 + cards, 0]


# -- calls: asking the partner ------------------------------------------------------------------------

# seat 0 holds KH and KD; his partner seat 2 holds QH and the clubs marriage; QD is with seat 1
ASK_DEAL = check_deal(["AS KH KD 6C 7C 8C 9C JC TC", "TS JS 9S 8S 7S 6S QD AD TD",
                       "QH KC QC AH TH JH 9H 8H 7H", "KS QS JD 9D 8D 7D 6D AC 6H"])


def ask_state() -> tt.State:
    state = solo(huutopussi(), ASK_DEAL, "9H 8H 7H")
    run(state, "0 AS, 1 6S, 2 7H, 3 QS")
    return state


def test_ask_half_and_whole_are_offered_as_in_marjapussi():
    state = ask_state()
    assert legal_calls(state) == {"ask half H", "ask half D", "ask whole"}


def test_ask_half_partner_with_the_other_half_makes_the_marriage():
    state = ask_state()
    run(state, "0 ask half H")
    assert state.phase == "answer" and state.current_player == 2
    assert legal(state) == ["answer H"]
    assert_illegal(state, "answer no", "seat 2 must answer truthfully")
    assert_illegal(state, "play QH", "must answer the ask")
    run(state, "2 answer H")
    assert state.trump == "H" and state.current_player == 0
    assert state.observation(None)["marriages"] == [[2, "H", 100]]
    assert state.observation(None)["points"] == [100 + 15, 0], "the marriage and AS QS"
    assert not legal_calls(state), "the asker now leads"


def test_ask_half_partner_without_the_other_half_answers_no():
    state = ask_state()
    run(state, "0 ask half D")
    assert legal(state) == ["answer no"]
    assert_illegal(state, "answer D", "must answer truthfully")
    run(state, "2 answer no")
    assert state.trump is None and state.current_player == 0
    assert not legal_calls(state), "a no uses up the call"


def test_ask_whole_partner_answers_with_his_marriage():
    state = ask_state()
    run(state, "0 ask whole")
    assert legal(state) == ["answer C"]
    run(state, "2 answer C")
    assert state.trump == "C"
    assert state.observation(None)["marriages"] == [[2, "C", 60]]
    calls = state.observation(1)["calls"]
    assert calls == [[0, "ask whole"], [2, "answer C"]], "answers are public"


def test_an_answer_needs_an_ask():
    state = ask_state()
    assert_illegal(state, "answer no", "nobody has asked")


# -- points -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rank", list(STRONG_FIRST))
def test_card_points_are_a10_t10_k5_q5_j5_others_0(rank):
    state = solo(huutopussi(), suit_deal(), "8D 7D 6D")
    run(state, f"0 AS, 1 {rank}H, 2 {rank}D, 3 {rank}C")
    assert state.observation(None)["points"] == [10 + 3 * FIVES.get(rank, 0), 0]


@pytest.mark.parametrize("rank", list(STRONG_FIRST))
def test_pips_option_card_points_are_a11_t10_k4_q3_j2(rank):
    state = solo(huutopussi(card_values="pips"), suit_deal(), "8D 7D 6D")
    run(state, f"0 AS, 1 {rank}H, 2 {rank}D, 3 {rank}C")
    assert state.observation(None)["points"] == [11 + 3 * PIPS.get(rank, 0), 0]


def test_the_last_trick_is_worth_20():
    state = solo(huutopussi(), suit_deal(), "8D 7D 6D")
    while len(state.observation(None)["tricks"]) < 8:
        state.apply(legal(state)[0])
    before = state.observation(None)["points"]
    play_first(state)
    last = last_trick(state)
    value = sum(FIVES.get(c[0], 0) for _, c in last["cards"])
    assert last["winner"] == 0 and result(state)["last_trick"] == 0
    assert result(state)["collected"] == [before[0] + value + 20, 0]
    assert state.observation(None)["points"] == [before[0] + value + 20, 0]


def test_card_points_add_up_to_160_with_the_last_trick():
    state = sweep()
    r = result(state)
    assert r["collected"] == [160, 0] and r["marriages"] == []
    assert state.observation(None)["points"] == [160, 0]


def test_pips_option_card_points_add_up_to_140_and_the_maximum_bid_is_420():
    game = huutopussi(card_values="pips")
    assert game.max_bid == 420
    state = sweep(game)
    assert result(state)["collected"] == [140, 0]
    state = game.new_hand(deal=suit_deal(), dealer=0)
    assert legal(state)[-1] == "bid 420"
    assert_illegal(state, "bid 425", "up to 420")


def test_the_most_a_hand_gives_is_440_all_marriages_all_cards_and_the_last_trick():
    """The seed: "the theoretical maximum bid is 440 points (every marriage and all play points)"."""
    state = marriages_state(bid=440)
    run(state, FOUR_MARRIAGES)
    play_first(state)
    r = result(state)
    assert r["tricks_won"] == [9, 0] and len(r["marriages"]) == 4
    assert r["collected"] == [440, 0]
    assert r["made"] is True and r["points"] == [440, -440]


def test_collected_points_are_the_cards_taken_the_marriages_and_the_last_trick():
    state = trumps_hand()
    r = result(state)
    cards = taken_points(state)
    assert sum(cards) == 140
    assert r["collected"] == [cards[0] + 140 + 20 * (r["last_trick"] == 0),
                              cards[1] + 20 * (r["last_trick"] == 1)]
    assert sum(r["collected"]) == 160 + 140


# -- scoring -----------------------------------------------------------------------------------------


def test_declarers_reaching_the_contract_score_it_and_the_opponents_what_they_collected():
    state = trumps_hand()
    r = result(state)
    assert r["collected"] == [255, 45] and r["made"] is True
    assert r["points"] == [50, 45] and state.hand_points == (50, 45) and state.scores == (50, 45)


def test_collecting_exactly_the_contract_makes_it():
    state = sweep(bid=160)
    r = result(state)
    assert r["collected"] == [160, 0] and r["made"] is True
    assert r["points"] == [160, -160]


def test_declarers_falling_short_lose_the_contract():
    state = lost_hand(bid=50, raise_to=60)
    r = result(state)
    assert r["collected"] == [0, 160] and r["made"] is False
    assert r["points"][0] == -60 - 50, "the contract, and the opening bid for taking no trick"
    assert r["points"][1] == 160, "the opponents score what they collected"


def test_a_side_without_a_trick_loses_the_opening_bid_not_the_raised_contract():
    state = sweep(bid=100, raise_to=150)
    r = result(state)
    assert r["opening_bid"] == 100 and r["contract"] == 150
    assert r["made"] is True and r["no_tricks"] == [1] and r["penalised"] == [1]
    assert r["points"] == [150, -100]


def test_lapiajo_over_160_failing_both_sides_pay():
    state = sweep(bid=165)
    r = result(state)
    assert r["collected"] == [160, 0] and r["made"] is False
    assert r["points"] == [-165, -165]
    state = sweep(bid=120, raise_to=300, calls="declare S")
    r = result(state)
    assert r["collected"] == [200, 0] and r["made"] is False
    assert r["points"] == [-300, -120]


def test_defender_penalty_off_spares_the_defenders_when_the_declarers_sweep_and_fail():
    game = huutopussi(defender_penalty=False)
    state = sweep(game, bid=120, raise_to=300, calls="declare S")
    r = result(state)
    assert r["made"] is False and r["penalised"] == [] and r["points"] == [-300, 0]
    # ... but not when the declarers make it
    state = sweep(game, bid=120)
    assert result(state)["points"] == [120, -120]
    # ... and the declarers still pay for taking no trick
    state = lost_hand(bid=50, raise_to=60, defender_penalty=False)
    assert result(state)["points"] == [-110, 160]


def test_a_marriage_counts_for_the_contract_even_when_its_suit_is_no_longer_trumps():
    state = sweep(bid=200, calls="declare S")
    r = result(state)
    assert r["collected"] == [200, 0] and r["made"] is True and r["points"] == [200, -200]


def test_hand_points_are_the_change_of_the_match_score():
    state = trumps_hand(scores=[-100, 250])
    assert state.hand_points == (50, 45)
    assert state.scores == (-50, 295)
    assert result(state)["scores"] == [-50, 295]
    assert state.observation(None)["previous_hand"]["points"] == [50, 45]


# -- the match ----------------------------------------------------------------------------------------


def test_the_first_side_to_500_wins():
    state = sweep(bid=50, scores=[450, 0])
    assert state.scores == (500, -50)
    assert state.winner == 0 and state.is_over()
    assert state.observation(None)["previous_hand"]["match_over"] is True


def test_the_opponents_can_win_with_what_they_collect():
    state = lost_hand(scores=[0, 400])
    assert state.scores == (-100, 560) and state.winner == 1


def test_a_match_goes_on_below_500_with_the_next_dealer():
    match = match_with(huutopussi(), [(0, suit_deal(), actions(sweep())), (1, rotate(suit_deal(), 1), [])],
                       scores=[400, 0])
    assert match.scores == (450, -50) and not match.is_over() and match.winner is None
    assert match.hand_number == 1 and match.dealer == 1 and match.current_player == 1
    assert "match_over" not in match.observation(0)["previous_hand"], "only the last hand has it"


def test_a_match_ends_when_a_side_reaches_500():
    match = match_with(huutopussi(), [(0, suit_deal(), actions(sweep()))], scores=[460, 0])
    assert match.is_over() and match.winner == 0 and match.scores == (510, -50)
    assert match.hand_number == 0
    assert record(match)["result"] == {"over": True, "scores": [510, -50], "winner": 0, "draw": False}
    assert legal(match) == []


@pytest.mark.parametrize(("scores", "winner"), [([460, 470], 1), ([470, 460], 0), ([455, 470], 1)])
def test_both_sides_over_500_in_one_hand_the_higher_score_wins(scores, winner):
    state = trumps_hand(scores=scores)
    assert min(state.scores) >= 500
    assert state.winner == winner and state.is_over()
    assert state.observation(None)["previous_hand"]["match_over"] is True


def test_both_sides_equal_over_500_play_on():
    match = match_with(huutopussi(), [(0, TRUMPS_DEAL, actions(trumps_hand())), (1, suit_deal(), [])],
                       scores=[465, 470])
    assert match.scores == (515, 515)
    assert not match.is_over() and match.winner is None
    assert match.hand_number == 1 and match.dealer == 1
    assert "match_over" not in match.observation(None)["previous_hand"]
    check_results(match)


def test_scores_given_must_be_below_500():
    with pytest.raises(tt.OptionError, match="below 500"):
        huutopussi().new_hand(deal=suit_deal(), scores=[500, 0])
    with pytest.raises(tt.OptionError, match="below 500"):
        three().new_hand(deal=THREE_DEAL, scores=[0, 0, 650])
    with pytest.raises(tt.OptionError, match="one per side"):
        huutopussi().new_hand(deal=suit_deal(), scores=[0, 0, 0])


@pytest.mark.parametrize("dealer", range(4))
def test_the_deal_passes_clockwise_from_hand_to_hand(dealer):
    assert huutopussi().new_match(seed=1).dealer == 0, "seat 0 deals first"
    state = huutopussi().new_match(seed=5, dealer=dealer)
    drive(state, random.Random(5), max_hands=8, check=False)
    check_results(state)
    assert state.hand_number >= 1


# -- the seed's worked examples (docs/rules/huutopussi.md) -----------------------------------------------


def test_example_a_contract_made_four_players():
    deal = check_deal(["AS TS KS QS TD JH 8H 7D 6D", "9S 8S 7H AD KD AC KC QC JC",
                       "AH TH KH QH 9H 8D 7S 6S 6C", "JS 6H QD JD 9D TC 9C 8C 7C"])
    state = huutopussi().new_hand(deal=deal, dealer=0)
    run(state, "0 bid 50, 1 bid 100, 2 bid 150, 3 pass, 0 pass, 1 bid 160, 2 bid 170, 1 pass")
    assert state.declarer == 2 and state.contract == 170
    run(state, "0 give AS TS TD, 2 raise 220, 2 give 7S 6S 6C")
    run(state, "2 AS, 3 JS, 0 6S, 1 8S, 2 ask whole, 0 answer S, 2 TS, 3 7C, 0 7S, 1 9S, 2 declare H")
    run(state, "2 AH, 3 6H, 0 8H, 1 7H, 2 TH, 3 8C, 0 JH, 1 JC, 2 KH, 3 9C, 0 KS, 1 KD")
    run(state, "2 QH, 3 9D, 0 QS, 1 QC, 2 9H, 3 JD, 0 7D, 1 KC")
    assert not legal_calls(state)
    run(state, "2 8D, 3 QD, 0 6D, 1 AD")
    assert last_trick(state)["winner"] == 1 and not legal_calls(state), "seat 1 did not lead it"
    run(state, "1 AC, 2 TD, 3 TC, 0 6C")
    r = result(state)
    assert r["opening_bid"] == 170 and r["contract"] == 220
    assert r["marriages"] == [[0, "S", 40], [2, "H", 100]]
    assert r["collected"] == [235, 65] and r["points"] == [220, 65]


def test_example_lapiajo_and_still_a_failed_contract():
    deal = check_deal(["AS TS 9S AD 7D 6D 8C 7C 6C", "KS JS 8S KD QD JD AC TC 9C",
                       "AH TH KH QH JH 9H 8H TD 6S", "QS 7S 7H 6H 9D 8D KC QC JC"])
    for penalty, side1 in ((True, [-200, 110]), (False, [0, 310])):
        state = huutopussi(defender_penalty=penalty).new_hand(deal=deal, dealer=0, scores=[120, 310])
        run(state, "0 bid 50, 1 bid 60, 2 bid 200, 3 pass, 0 pass, 1 pass")
        run(state, "0 give AS AD TS, 2 raise 280, 2 give 9H 8H 6S")
        run(state, "2 AS, 3 7S, 0 9S, 1 8S, 2 declare H, 2 TS")
        run(state, "3 QS, 0 6S, 1 KS")
        assert last_trick(state)["winner"] == 2
        run(state, "2 ask whole, 0 answer no")
        play_first(state)
        r = result(state)
        assert r["tricks_won"] == [9, 0] and r["collected"] == [260, 0]
        assert r["points"] == [-280, side1[0]] and state.scores == (-160, side1[1])


def test_example_three_players():
    deal = check_deal(["AS KS QS 9S TD 9D 8D 7D JC 9C 8C", "TS 8S 7S 6S AD KD QD JD AC TC KC",
                       "AH TH KH QH 9H 8H 7H JS 6D QC 7C", "JH 6H 6C"])
    state = three().new_hand(deal=deal, dealer=0)
    run(state, "0 bid 50, 1 bid 100, 2 bid 120, 0 bid 130, 1 pass, 2 bid 140, 0 pass")
    assert state.declarer == 2 and state.observation(0)["kitty"] == ["JH", "6H", "6C"]
    run(state, "2 raise 180, 2 discard JS QC 7C, 2 AH, 0 9S, 1 6S, 2 declare H")
    # seat 0 keeps AS and TD, seat 1 AD and AC
    hearts = "TH KH QH JH 9H 8H 7H 6H".split()
    zero = "KS QS 9D 8D 7D JC 9C 8C".split()
    one = "TS 8S 7S KD QD JD TC KC".split()
    for h, a, b in zip(hearts, zero, one, strict=True):
        run(state, f"2 {h}, 0 {a}, 1 {b}")
    run(state, "2 6D, 0 TD, 1 AD, 1 AC, 2 6C, 0 AS")
    r = result(state)
    assert r["collected"] == [0, 60, 200] and r["discard"] is not None
    assert r["points"] == [-140, 60, 180]


# -- three players --------------------------------------------------------------------------------------


def test_three_players_bid_as_four_do_the_dealer_opens_and_passes_are_for_good():
    state = three_state(dealer=1)
    assert state.current_player == 1 and legal(state) == ALL_BIDS
    assert_illegal(state, "pass", "the dealer must open")
    run(state, "1 bid 50, 2 bid 60, 0 pass, 1 bid 70")
    assert state.current_player == 2
    run(state, "2 bid 80")
    assert state.current_player == 1, "seat 0 passed"
    run(state, "1 pass")
    assert state.declarer == 2 and state.contract == 80


def test_three_players_the_kitty_is_public_after_the_auction_and_the_declarer_takes_it():
    state = three_state()
    for seat in (None, 0, 1, 2):
        assert state.observation(seat)["kitty"] is None
    text = json.dumps([state.observation(s) for s in (None, 0, 1, 2)])
    assert not [c for c in ("KC", "QC", "JC") if f'"{c}"' in text]
    run(state, "0 bid 50, 1 bid 55, 2 pass, 0 pass")
    assert state.declarer == 1
    for seat in (None, 0, 1, 2):
        assert state.observation(seat)["kitty"] == ["KC", "QC", "JC"]
    assert hand(state, 1) >= {"KC", "QC", "JC"} and len(hand(state, 1)) == 14
    assert state.observation(None)["hand_sizes"] == [11, 14, 11]
    assert state.phase == "raise" and state.current_player == 1
    assert legal(state) == [f"raise {v}" for v in range(60, 445, 5)] + ["pass"]


def test_three_players_the_declarer_discards_three_but_no_aces_or_tens():
    state = three_state()
    run(state, "0 bid 50, 1 pass, 2 pass, 0 raise 60")
    assert state.phase == "discard" and state.current_player == 0
    discards = legal(state)
    assert len(discards) == 220, "any three of the twelve cards that are not aces or tens"
    assert not [d for d in discards if "AS" in d.split() or "TS" in d.split()]
    assert_illegal(state, "discard AS 6H 7H", "aces and tens may not be discarded: AS")
    assert_illegal(state, "discard TS 6H 7H", "aces and tens may not be discarded: TS")
    assert_illegal(state, "discard 6H 7H", "discard exactly 3 cards, not 2")
    assert_illegal(state, "discard 6H 7H 8H", "cannot discard 8H: not in hand")
    assert_illegal(state, "discard 6H 6H 7H", "malformed")
    assert_illegal(state, "give 6H 7H KC", "the declarer must discard 3 cards")
    assert_illegal(state, "play AS", "the declarer must discard 3 cards")
    run(state, "0 discard QS JS 9S")
    assert state.phase == "play" and state.current_player == 0, "the declarer leads"
    assert state.observation(None)["hand_sizes"] == [11, 11, 11]
    assert legal_plays(state) == hand(state, 0)


def test_three_players_the_discard_is_seen_by_the_declarer_only():
    state = three_state()
    run(state, "0 bid 50, 1 pass, 2 pass, 0 pass")
    assert state.observation(0)["discard"] == []
    run(state, "0 discard QS JS 9S")
    assert sorted(state.observation(0)["discard"]) == ["9S", "JS", "QS"]
    for seat in (None, 1, 2):
        obs = state.observation(seat)
        assert obs["discard"] is None
        assert not [c for c in ("QS", "JS", "9S") if f'"{c}"' in json.dumps(obs)]
    for seat in (None, 0, 1, 2):
        assert state.observation(seat)["given"] is None


def test_three_players_the_discard_counts_for_the_declarer():
    state = three_state()
    run(state, "0 bid 50, 1 pass, 2 pass, 0 pass, 0 discard KC QC JC")
    assert state.observation(0)["points"] == [0, 0, 0], "the discard is not in the running points"
    run(state, "0 6H, 1 AH, 2 6C")
    play_first(state)
    r = result(state)
    assert sorted(r["discard"].split()) == ["JC", "KC", "QC"]
    assert r["collected"][0] == 15
    assert sum(r["collected"]) == 160
    assert sum(state.observation(None)["points"]) == 145


def test_three_players_calls_after_any_won_trick_from_the_own_hand_only():
    state = three_state()
    run(state, "0 bid 50, 1 pass, 2 pass, 0 pass, 0 discard KC QC JC, 0 6H, 1 AH, 2 6C")
    assert last_trick(state)["winner"] == 1 and last_trick(state)["leader"] == 0
    assert legal_calls(state) == {"declare H", "declare D"}, "no asking: no partners"
    assert_illegal(state, "ask whole", "there are no partners in this game")
    assert_illegal(state, "ask half H", "no partners")
    run(state, "1 declare D")
    assert state.trump == "D" and state.observation(2)["marriages"] == [[1, "D", 80]]


def test_three_players_every_player_without_a_trick_pays_the_opening_bid():
    state = sweep3(bid=100)
    r = result(state)
    assert r["collected"] == [160, 0, 0] and r["no_tricks"] == [1, 2]
    assert r["points"] == [100, -100, -100] and state.scores == (100, -100, -100)


def test_three_players_a_declarer_without_a_trick_pays_twice():
    state = three_state()
    run(state, "0 bid 50, 1 bid 55, 2 pass, 0 bid 60, 1 pass, 0 pass, 0 discard KC QC JC, 0 6H, 1 AH, 2 6C")
    play_first(state)
    r = result(state)
    assert r["tricks_won"] == [0, 11, 0]
    assert r["collected"] == [15, 145, 0] and r["made"] is False
    assert r["points"] == [-120, 145, -60], "individual scores; both seats without a trick pay 60"


def test_three_players_sweep_and_fail_defender_penalty_off_only_the_declarer_pays():
    state = sweep3(bid=200)
    assert result(state)["points"] == [-200, -200, -200]
    state = sweep3(bid=200, defender_penalty=False)
    assert result(state)["points"] == [-200, 0, 0]


def test_three_players_the_first_seat_to_500_wins():
    state = sweep3(bid=100, scores=[420, 490, 0])
    assert state.scores == (520, 390, -100) and state.winner == 0


def test_three_players_the_minus_500_ban_is_per_seat():
    state = three_state(scores=[-500, 0, -10])
    assert legal(state) == ["bid 50"]
    run(state, "0 bid 50, 1 bid 55")
    assert "bid 60" in legal(state)
    run(state, "2 bid 60")
    assert legal(state) == ["pass"]


# -- options and presets ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "value", "fragment"), [
    ("trumps", "H", "unknown option 'trumps'"),
    ("players", 5, "option players must be one of 4, 3, 2"),
    ("card_values", "tens", "option card_values must be one of fives, pips"),
    ("marriage_values", "hearts_high", "option marriage_values must be one of spades_low, spades_high"),
    ("calls_after_any_trick", "yes", "option calls_after_any_trick takes true or false"),
    ("exchange", 2, "option exchange must be one of 3, 4"),
    ("defender_penalty", 0, "option defender_penalty takes true or false"),
    ("redeal", None, "option redeal takes true or false"),
    ("target", 1000, "unknown option 'target'"),
])
def test_unknown_options_and_bad_values_are_refused_by_name(option, value, fragment):
    with pytest.raises(tt.OptionError, match=fragment):
        huutopussi(**{option: value})


def test_presets_four_three_and_two():
    assert tt.new_game("huutopussi", preset="four").options["players"] == 4
    game = tt.new_game("huutopussi", preset="three")
    assert game.options["players"] == 3 and game.num_players == 3
    assert tt.new_game("huutopussi", preset="two").num_players == 2
    assert tt.new_game("huutopussi").options == tt.new_game("huutopussi", preset="four").options
    with pytest.raises(tt.OptionError, match="unknown preset"):
        tt.new_game("huutopussi", preset="five")


def test_default_options():
    assert huutopussi().options == {"players": 4, "card_values": "fives", "marriage_values": "spades_low",
                                    "calls_after_any_trick": False, "exchange": 3,
                                    "defender_penalty": True, "redeal": True,
                                    "redeal_hand": "three_sixes", "opener": "dealer",
                                    "forced_opening": True, "bid_ban": -500, "kitty": 3,
                                    "kitty_shown": True, "ask_lockouts": "none", "last_trick": 20,
                                    "declarer_no_trick": "side", "all_pass": "last_opens",
                                    "bid_ban_reopen": False, "redeal_window": "first_bid",
                                    "defender_rounding": False, "discard_needs_trick": False,
                                    "win_by": "reaching", "win_tie": "higher",
                                    "raise_when": "before_return", "min_bid": 50, "first_trick": "free"}


# -- errors and observations --------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "fragment"), [
    ("bid", "'bid' is malformed: write 'bid' and a number"),
    ("bid x", "'x' in 'bid x' is neither a card"),
    ("bid 60 70", "malformed"),
    ("bid AS", "malformed"),
    ("pass 5", "'pass 5' is malformed: write 'pass' alone"),
    ("redeal now", "neither a card"),
    ("raise", "malformed"),
    ("raise 100", "raise 100 is not possible now: seat 1 must bid, pass"),
    ("give 9H 7C 6D", "not possible now"),
    ("give 9H 9H 7C", "malformed"),
    ("give 9H", "not possible now"),
    ("discard 9H 7C 6D", "not possible now"),
    ("play AH", "play AH is not possible now"),
    ("declare H", "not possible now"),
    ("ask whole", "not possible now"),
    ("answer no", "not possible now"),
    ("dance", "unknown action word 'dance'"),
    ("", "empty action"),
    ("bid 40", "cannot bid 40: bids go from 55 in fives up to 440"),
    ("bid 50", "cannot bid 50"),
    ("bid 57", "cannot bid 57"),
    ("bid 445", "up to 440"),
])
def test_illegal_auction_actions_name_the_problem_and_leave_the_state_unchanged(action, fragment):
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "0 bid 50")
    assert_illegal(state, action, fragment)


def test_illegal_play_actions_name_the_problem_and_leave_the_state_unchanged():
    state = solo(huutopussi(), suit_deal(), "8D 7D 6D")
    assert_illegal(state, "play AH", "seat 0 cannot play AH", "does not hold it")
    assert_illegal(state, "bid 100", "bid 100 is not possible now: seat 0 must play a card")
    assert_illegal(state, "raise 100", "not possible now")
    assert_illegal(state, "give 9S 8S 7S", "not possible now")
    assert_illegal(state, "discard 9S 8S 7S", "not possible now")
    assert_illegal(state, "pass", "not possible now")
    assert_illegal(state, "redeal", "not possible now")
    assert_illegal(state, "play AS", "not your turn", seat=1)
    run(state, "0 AS")
    assert_illegal(state, "play AS", "does not hold it")
    play_first(state)
    assert state.is_over()
    assert_illegal(state, "play 6H", "the game is over")
    assert legal(state) == []


def test_observations_show_the_own_hand_and_the_auction():
    state = huutopussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "0 bid 50, 1 bid 60")
    for seat in range(4):
        obs = state.observation(seat)
        assert set(obs["hand"]) == hand(state, seat)
        assert obs["auction"] == [[0, "bid 50"], [1, "bid 60"]]
        assert ("legal_actions" in obs) == (seat == 2)
        others = set().union(*(hand(state, s) for s in range(4) if s != seat))
        assert not [c for c in others if f'"{c}"' in json.dumps(obs)]
    assert state.observation(None)["hand"] == []


# -- random hands and matches: invariants -----------------------------------------------------------------

VARIANTS = {
    "four": {},
    "three": {"players": 3},
    "pips_spades_high": {"card_values": "pips", "marriage_values": "spades_high"},
    "any_trick_exchange_4": {"calls_after_any_trick": True, "exchange": 4},
    "no_defender_penalty_no_redeal": {"defender_penalty": False, "redeal": False},
    "three_pips_no_penalty": {"players": 3, "card_values": "pips", "defender_penalty": False},
    "left_opens_low_redeal_ban_250": {"opener": "left_of_dealer", "redeal_hand": "three_sixes_or_low",
                                      "bid_ban": -250},
    "no_forced_opening_four_sixes": {"forced_opening": False, "redeal_hand": "four_sixes"},
    "three_no_forced_opening_left": {"players": 3, "forced_opening": False, "opener": "left_of_dealer"},
    "three_kitty_6_hidden": {"players": 3, "kitty": 6, "kitty_shown": False},
    "ask_lockouts_main_form": {"ask_lockouts": "main_form"},
    "ask_lockouts_2002_any_trick": {"ask_lockouts": "illisoft_2002", "calls_after_any_trick": True},
    "main_form": {"preset": "main_form"},
    "no_contract_ban_250": {"forced_opening": False, "all_pass": "no_contract", "bid_ban": -250},
    "redeal_in_exchange": {"redeal_window": "bid_and_exchange", "redeal_hand": "three_sixes_or_low"},
    "three_redeal_in_exchange": {"players": 3, "redeal_window": "bid_and_exchange"},
    "bid_ban_reopen": {"forced_opening": False, "all_pass": "no_contract", "bid_ban_reopen": True,
                       "opener": "left_of_dealer"},
    "three_last_trick_10_seat_double": {"players": 3, "last_trick": 10, "declarer_no_trick": "seat_double"},
    "side_double": {"declarer_no_trick": "side_double", "calls_after_any_trick": True},
    "exceeding_declarer_wins_ties": {"win_by": "exceeding", "win_tie": "declarer"},
    "raise_after_exchange": {"raise_when": "after_exchange", "exchange": 4, "calls_after_any_trick": True},
    "three_raise_after_discard": {"players": 3, "raise_when": "after_exchange"},
    "three_exceeding_declarer_wins_ties": {"players": 3, "win_by": "exceeding", "win_tie": "declarer"},
    "rounding_no_contract": {"defender_rounding": True, "card_values": "pips", "forced_opening": False,
                             "all_pass": "no_contract"},
    "three_discard_needs_trick": {"players": 3, "discard_needs_trick": True, "defender_rounding": True,
                                  "card_values": "pips"},
    "rules_2002": {"preset": "rules_2002"},
    "rules_2002_three": {"preset": "rules_2002_three"},
    "three_no_contract_hidden_kitty": {"players": 3, "forced_opening": False, "all_pass": "no_contract",
                                       "kitty_shown": False, "min_bid": 60, "bid_ban": -1},
    "first_trick_ace_shows": {"first_trick": "ace_shows"},
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_hands_keep_the_invariants(variant):
    """Sane random play (small bids, rare raises): at every step the legal actions are the rules',
    every hand scores as the rules say, the points add up, and the record replays."""
    game = huutopussi(**VARIANTS[variant])
    rules = Rules(game)
    for seed in range(40):
        rng = random.Random(seed)
        scores = [rng.randrange(-600, 450, 5) for _ in range(game.num_sides)]
        state = game.new_hand(seed=seed, dealer=seed % game.num_players, scores=scores)
        drive(state, rng)
        assert state.is_over()
        r = result(state)
        assert list(state.hand_points) == r["points"]
        assert list(state.scores) == [s + p for s, p in zip(scores, r["points"], strict=True)]
        if r["redeal"] is None:
            marriages = sum(v for _, _, v in r["marriages"])
            discard = rules.points(r["discard"].split()) if r["discard"] else 0
            needs = game.options["discard_needs_trick"]  # three players: the declarer is his own side
            declarer = r["declarer"]
            lost = discard if needs and declarer is not None and not r["tricks_won"][declarer] else 0
            if r["declarer"] is None and game.num_players == 3:  # no contract: the kitty is out of play
                discard = lost = rules.points(json.loads(state.to_json())["hands"][-1]["deal"][3].split())
            assert sum(r["collected"]) == rules.card_total + marriages - lost
            assert sum(state.observation(None)["points"]) == rules.card_total + marriages - discard
            assert sum(taken_points(state, rules.values)) == rules.card_total - rules.last_trick - discard
        else:
            assert r["points"] == [0] * game.num_sides
        check_results(state)
        assert tt.load(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_matches_keep_the_invariants(variant):
    game = huutopussi(**VARIANTS[variant])
    for seed in range(6):
        state = game.new_match(seed=seed)
        drive(state, random.Random(seed), max_hands=15)
        results = check_results(state)
        scores = [0] * game.num_sides
        for r in results:
            scores = [s + p for s, p in zip(scores, r["points"], strict=True)]
            assert scores == r["scores"]
        assert list(state.scores) == scores
        if results:
            assert list(state.hand_points) == results[-1]["points"]
        assert tt.load(state.to_json()).to_json() == state.to_json()
