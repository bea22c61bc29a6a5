"""Every Marjapussi rule of RULES.md (section Marjapussi) and seeds/marjapussi-huutopussi.txt
(the four-handed game and the Variants section), one or more tests each.

Most tests build the deal by hand (``game.new_hand(deal=[...], dealer=0)``: four hands of
nine, seat 1 leads) and play a script of ``seat action`` steps (:func:`run`; a lone card
means ``play`` it).  Many deals are variations of two layouts:

- the *suit deal* (:func:`suit_deal`): each seat holds one whole suit, seat 1 the spades,
  so seat 1 leads the ace of spades, nobody can follow, and seat 1 takes every trick;
- the *duty deal* (:func:`duty_state`): seat 1 holds ``AC KH QH 9S 7S KC QC JC TC``,
  leads the ace of clubs, which everyone follows with a small club (trick 1), declares
  hearts trumps and leads the nine of spades; what seats 2, 3 and 0 hold is the test's.

Rules from the module docstring of ``tricktaker.games.marjapussi`` (decisions where the
texts are silent) are tested as such.  Scoring is also checked against an independent
re-computation (:mod:`marjapussi_helpers`) over random matches.
"""

from __future__ import annotations

import json
import random

import pytest
from marjapussi_helpers import (
    CARD_PIPS,
    STRONG_FIRST,
    assert_illegal,
    check_deal,
    check_results,
    drive,
    hand,
    last_trick,
    legal,
    legal_calls,
    legal_plays,
    match_of,
    play_first,
    record,
    result,
    results,
    run,
)

import tricktaker as tt


def marjapussi(**options) -> tt.Game:
    return tt.new_game("marjapussi", **options)


SUIT_CARDS = {s: " ".join(r + s for r in STRONG_FIRST) for s in "SHDC"}


def suit_deal(s0: str = "C", s1: str = "S", s2: str = "H", s3: str = "D") -> list[str]:
    """Each seat holds one whole suit (by default seat 1 the spades)."""
    return check_deal([SUIT_CARDS[s] for s in (s0, s1, s2, s3)])


def rotate(deal: list[str], k: int) -> list[str]:
    """The same deal with every hand moved ``k`` seats clockwise."""
    return [deal[(s - k) % 4] for s in range(4)]


DUTY_LEADER = "AC KH QH 9S 7S KC QC JC TC"
DUTY_TRICK_1 = "1 AC, 2 6C, 3 7C, 0 8C"


def duty_state(s2: str, s3: str, s0: str, trumps: bool = True, **options) -> tt.State:
    """The duty deal after trick 1 (and ``declare H`` if ``trumps``), seat 1 to lead.
    Seats 2, 3 and 0 also hold the 6C, 7C and 8C they play to trick 1."""
    deal = check_deal([f"8C {s0}", DUTY_LEADER, f"6C {s2}", f"7C {s3}"])
    state = marjapussi(**options).new_hand(deal=deal, dealer=0)
    run(state, DUTY_TRICK_1)
    if trumps:
        run(state, "1 declare H")
        assert state.trump == "H"
    return state


# the follow / beat / trump deal: seat 2 has one low spade, seat 3 spades either side of 9S,
# seat 0 no spades but trumps
FOLLOW = dict(s2="6S AH TH 6D 7D 8D 9D JD", s3="8S JS QS KS TS AS QD KD", s0="JH 9H 8H 7H 6H TD AD 9C")
# seat 2 trumps with 8H, seat 3 has trumps either side of it, seat 0 all the other spades
OVERTRUMP = dict(s2="8H 6D 7D 8D 9D JD QD KD", s3="AH TH 9H 7H 6H TD AD 9C", s0="AS TS KS QS JS 8S 6S JH")
# as OVERTRUMP but seat 3's trumps are all below seat 2's ten
UNDERTRUMP = dict(s2="TH 6D 7D 8D 9D JD QD KD", s3="JH 9H 8H 7H 6H TD AD 9C", s0="AS TS KS QS JS 8S 6S AH")
# seat 2 has neither spades nor hearts
VOID = dict(s2="6D 7D 8D 9D JD QD KD TD", s3="AH TH JH 9H 8H 7H 6H AD", s0="AS TS KS QS JS 8S 6S 9C")
# seat 2 trumps with 8H, seat 3 follows, seat 0 (seat 2's partner) has trumps either side of 8H
PARTNER_TRUMPS = dict(s2="8H 6D 7D 8D 9D JD QD KD", s3="AS TS KS QS JS 8S 6S TD",
                      s0="AH 7H TH JH 9H 6H AD 9C")
# seat 2 follows low, seat 3 (the leader's partner) has spades either side of 9S
PARTNER_FOLLOWS = dict(s2="6S 8H 6D 7D 8D 9D JD QD", s3="AS TS KS QS JS 8S KD TD",
                       s0="AH 7H TH JH 9H 6H AD 9C")
# seat 2 can beat the leader's 9S, seat 3 can beat seat 2's queen
OPPONENT_HIGH = dict(s2="6S QS 8H 6D 7D 8D 9D JD", s3="AS TS KS JS 8S QD KD TD", s0="AH 7H TH JH 9H 6H AD 9C")

# A hand found by random play in which the sides split the pips 60-60 (no calls are made);
# side 1 takes the last trick.
TIE_DEAL = ["QS JS 9S 8S TH 7H 8D AC JC", "AS 6S AH QH 8H 7D 6D KC QC",
            "KS 9H KD JD 9D TC 9C 8C 7C", "TS 7S KH JH 6H AD QD TD 6C"]
TIE_PLAYS = ("AH 9H JH 7H KC TC 6C AC 8S AS KS TS 6S 9D 7S JS 9S QC 9C KH TH 8H KD 6H JC 6D 8C TD "
             "8D 7D JD QD AD QS QH 7C").split()


def play_cards(state: tt.State, plays: list[str]) -> None:
    for card in plays:
        state.apply(f"play {card}")


def tie_hand(game: tt.Game, dealer: int = 0, scores=None) -> tt.State:
    """The 60-60 hand, turned so that ``dealer`` deals (the seats move with him)."""
    state = game.new_hand(deal=rotate(TIE_DEAL, dealer), dealer=dealer, scores=scores)
    play_cards(state, TIE_PLAYS)
    assert state.is_over()
    return state


def suit_hand(game: tt.Game, dealer: int = 0, scores=None, calls: str = "") -> tt.State:
    """The suit deal turned so that the seat left of ``dealer`` holds the spades and takes every
    trick; ``calls`` are made by him after trick 1."""
    leader = (dealer + 1) % 4
    state = game.new_hand(deal=rotate(suit_deal(), dealer), dealer=dealer, scores=scores)
    others = [(leader + i) % 4 for i in (1, 2, 3)]
    run(state, f"{leader} AS, " + ", ".join(f"{s} 6{'SHDC'[(others.index(s) + 1)]}" for s in others))
    if calls:
        run(state, ", ".join(f"{leader} {c}" for c in calls.split(",")))
    play_first(state)
    return state


def replay(game: tt.Game, played: tt.State, scores=None) -> tt.State:
    """The hand of a finished single-hand state played again (same deal and actions) in ``game``."""
    h = record(played)["hands"][0]
    state = game.new_hand(deal=h["deal"], dealer=h["dealer"], scores=scores)
    for a in h["actions"]:
        state.apply(a)
    return state


def random_hands(game: tt.Game, count: int = 400, dealer: int = 0):
    """Finished single hands from seeded deals and seeded random play."""
    for seed in range(count):
        state = game.new_hand(seed=seed, dealer=dealer)
        drive(state, random.Random(seed), check=False)
        yield state


def side_cards(state: tt.State) -> list[list[str]]:
    taken: list[list[str]] = [[], []]
    for t in state.observation(None)["tricks"]:
        taken[t["winner"] % 2] += [c for _, c in t["cards"]]
    return taken


def aces_tens(cards: list[str]) -> int:
    return sum(c[0] in "AT" for c in cards)


def card_pips(cards: list[str]) -> int:
    return sum(CARD_PIPS.get(c[0], 0) for c in cards)


# -- the deck, the deal, rank and pips -------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_deck_is_36_cards_ace_to_six_dealt_nine_each(seed):
    state = marjapussi().new_match(seed=seed)
    hands = [hand(state, s) for s in range(4)]
    assert [len(h) for h in hands] == [9] * 4
    everything = set().union(*hands)
    assert len(everything) == 36
    assert everything == {r + s for r in "AKQJT9876" for s in "SHDC"}
    assert state.observation(0)["hand_sizes"] == [9, 9, 9, 9]


def test_a_deal_must_be_four_hands_of_nine():
    deal = suit_deal()
    with pytest.raises(tt.OptionError, match="piles of 9, 9, 9, 9 cards; pile 1 has 10"):
        marjapussi().new_hand(deal=[deal[0] + " AS", deal[1].replace("AS ", ""), *deal[2:]])
    with pytest.raises(ValueError, match="not a card of the anglo-36 deck"):
        marjapussi().new_hand(deal=[deal[0].replace("6C", "5C"), *deal[1:]])
    with pytest.raises(tt.OptionError, match="4 piles"):
        marjapussi().new_hand(deal=deal[:3])
    with pytest.raises(tt.OptionError, match="dealt twice"):
        marjapussi().new_hand(deal=[deal[0], deal[0], deal[2], deal[3]])


ADJACENT = list(zip(STRONG_FIRST, STRONG_FIRST[1:], strict=False))


@pytest.mark.parametrize(("led", "followed"), ADJACENT + [(lo, hi) for hi, lo in ADJACENT])
def test_card_rank_is_a_10_k_q_j_9_8_7_6(led, followed):
    """Trick 2: seat 1 leads a spade, seat 2 follows with its only spade; the higher one wins."""
    x, y = led + "S", followed + "S"
    spades = [r + "S" for r in STRONG_FIRST if r + "S" not in (x, y)]
    deal = check_deal([SUIT_CARDS["C"], " ".join(["AH", x, *spades]),
                       f"{y} KH QH JH TH 9H 8H 7H 6H", SUIT_CARDS["D"]])
    state = marjapussi().new_hand(deal=deal, dealer=0)
    run(state, "1 AH, 2 6H, 3 6D, 0 6C")
    run(state, f"1 {x}, 2 {y}, 3 7D, 0 7C")
    higher = 1 if STRONG_FIRST.index(led) < STRONG_FIRST.index(followed) else 2
    assert last_trick(state)["winner"] == higher
    assert state.current_player == higher


@pytest.mark.parametrize("rank", list(STRONG_FIRST))
def test_card_pips_are_a11_t10_k4_q3_j2_others_0(rank):
    state = marjapussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, f"1 AS, 2 {rank}H, 3 {rank}D, 0 {rank}C")
    expected = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
    assert state.observation(None)["pips"] == [0, 11 + 3 * expected.get(rank, 0)]


def test_card_pips_add_up_to_120():
    state = suit_hand(marjapussi())
    assert result(state)["pips"] == [0, 120]
    for state in random_hands(marjapussi(), count=20):
        assert sum(result(state)["pips"]) == 120


# -- the lead --------------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_player_left_of_the_dealer_leads_first(dealer):
    state = marjapussi().new_hand(seed=11, dealer=dealer)
    assert state.current_player == (dealer + 1) % 4
    assert state.observation(None)["dealer"] == dealer


@pytest.mark.parametrize("dealer", range(4))
def test_the_deal_passes_clockwise_from_hand_to_hand(dealer):
    state = marjapussi().new_match(seed=3, dealer=dealer)
    drive(state, random.Random(3), check=False)
    dealers = [h["dealer"] for h in record(state)["hands"]]
    assert dealers == [(dealer + k) % 4 for k in range(len(dealers))]


def test_first_lead_must_be_an_ace_if_held():
    deal = check_deal(["KS QS JS TS 9S 8S 7S 6S AS", "AH AD KC QC 6H 7H 6D 7D 8D",
                       "KH QH JH TH 9H 8H KD QD JD", "TD 9D AC JC TC 9C 8C 7C 6C"])
    state = marjapussi().new_hand(deal=deal, dealer=0)
    assert legal_plays(state) == {"AH", "AD"} and not legal_calls(state)
    assert_illegal(state, "play KC", "the first lead must be an ace", "seat 1 holds one")
    assert state.observation(None)["lead_rule"] == ["AS", "AH", "AD", "AC"]


def test_first_lead_may_be_any_card_without_an_ace():
    deal = check_deal(["AS KS QS JS TS 9S 8S 7S 6S", "KH KD KC QC 6H 7H 6D 7D 8D",
                       "AH QH JH TH 9H 8H AD QD JD", "TD 9D AC JC TC 9C 8C 7C 6C"])
    state = marjapussi().new_hand(deal=deal, dealer=0)
    assert legal_plays(state) == hand(state, 1)
    run(state, "1 6H")


def test_the_ace_duty_binds_only_the_first_lead():
    deal = check_deal(["KS QS JS TS 9S 8S 7S 6S 6C", "AH AD KC QC 6H 7H 6D 7D 8D",
                       "KH QH JH TH 9H 8H KD QD JD", "AS TD 9D AC JC TC 9C 8C 7C"])
    state = marjapussi().new_hand(deal=deal, dealer=0)
    run(state, "1 AH, 2 8H, 3 AS, 0 6C")  # seat 1 wins with the ace of the suit led
    assert state.current_player == 1
    assert legal_plays(state) == hand(state, 1)  # still holding the AD, seat 1 may lead anything


@pytest.mark.parametrize(("seat1", "allowed"), [
    ("AH AD KS QC 6H 7H 6D 7D 8D", {"AH", "AD"}),
    ("KS 7S KH KC QC 6H 7H 6D 7D", {"KS", "7S"}),
    ("KH KD KC QC 6H 7H 6D 7D 8D", None),
])
def test_first_lead_ace_or_spade_option_leads_an_ace_else_a_spade(seat1, allowed):
    listed = set(seat1.split())
    rest = [c for s in "SHDC" for c in SUIT_CARDS[s].split() if c not in listed]
    deal = check_deal([" ".join(rest[0:9]), seat1, " ".join(rest[9:18]), " ".join(rest[18:27])])
    state = marjapussi(first_lead="ace_or_spade").new_hand(deal=deal, dealer=0)
    assert legal_plays(state) == (allowed or hand(state, 1))
    if allowed == {"KS", "7S"}:
        assert_illegal(state, "play KH", "the first lead must be an ace, else spades")
    default = marjapussi().new_hand(deal=deal, dealer=0)
    assert legal_plays(default) == ({"AH", "AD"} if allowed == {"AH", "AD"} else hand(default, 1))


def test_the_trick_winner_leads_the_next_trick():
    state = duty_state(**OVERTRUMP)
    run(state, "1 9S, 2 8H, 3 9H, 0 6S")
    assert last_trick(state)["winner"] == 3
    assert state.current_player == 3


# -- trumps ----------------------------------------------------------------------------------------


def test_no_trumps_before_a_marriage_the_suit_led_wins():
    state = marjapussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "1 AS, 2 6H, 3 6D, 0 6C")
    assert state.trump is None and state.observation(2)["trump"] is None
    run(state, "1 6S")
    assert legal_plays(state) == hand(state, 2)  # void and no trumps: anything
    run(state, "2 AH, 3 AD, 0 AC")
    assert last_trick(state)["winner"] == 1  # the six of spades beats three other aces


def test_first_marriage_makes_trumps_and_is_worth_two():
    state = duty_state(**FOLLOW, trumps=False)
    assert state.trump is None
    run(state, "1 declare H")
    assert state.trump == "H"
    obs = state.observation(0)
    assert obs["trump"] == "H"
    assert obs["marriages"] == [[1, "H", 2]]
    assert obs["points"] == [0, 2]
    assert obs["shown"][1] == ["KH", "QH"]


TWO_MARRIAGES = check_deal([SUIT_CARDS["C"], "AS KS QS JS TS 9S 8S KH QH",
                            "7S 6S AH JH TH 9H 8H 7H 6H", SUIT_CARDS["D"]])


def test_later_marriages_are_little_ones_worth_one_and_keep_the_trumps():
    state = marjapussi().new_hand(deal=TWO_MARRIAGES, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C, 1 declare S")
    assert state.trump == "S"
    run(state, "1 TS, 2 7S, 3 7D, 0 7C, 1 declare H")
    assert state.trump == "S"
    obs = state.observation(None)
    assert obs["marriages"] == [[1, "S", 2], [1, "H", 1]]
    assert obs["points"] == [0, 3]


def test_each_suit_is_declared_only_once_per_hand():
    state = marjapussi().new_hand(deal=TWO_MARRIAGES, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C, 1 declare S, 1 TS, 2 7S, 3 7D, 0 7C")
    assert "declare S" not in legal(state)
    assert_illegal(state, "declare S", "spades have already been declared this hand")
    run(state, "1 declare H, 1 KS, 2 6H, 3 8D, 0 8C")
    assert state.current_player == 1
    assert not {"declare S", "declare H", "ask half S", "ask half H"} & legal_calls(state)
    assert_illegal(state, "declare H", "hearts have already been declared")


def test_lowest_trump_beats_the_ace_of_the_suit_led():
    state = duty_state(**FOLLOW)
    run(state, "1 9S, 2 6S, 3 AS, 0 6H")
    assert last_trick(state)["winner"] == 0


# -- duties ----------------------------------------------------------------------------------------


def test_must_follow_suit_even_without_beating():
    state = duty_state(**FOLLOW)
    run(state, "1 9S")
    assert legal_plays(state) == {"6S"}
    assert_illegal(state, "play AH", "must follow suit", "seat 2 holds spades")
    assert_illegal(state, "play 6D", "must follow suit")


def test_must_beat_the_high_card_of_the_suit_led_if_possible():
    state = duty_state(**FOLLOW)
    run(state, "1 9S, 2 6S")
    assert legal_plays(state) == {"AS", "TS", "KS", "QS", "JS"}
    assert_illegal(state, "play 8S", "must beat the high card", "seat 3 holds a higher card of spades")


def test_void_in_the_suit_led_must_trump():
    state = duty_state(**FOLLOW)
    run(state, "1 9S, 2 6S, 3 AS")
    assert legal_plays(state) == {"JH", "9H", "8H", "7H", "6H"}
    assert_illegal(state, "play AD", "must trump", "seat 0 has no spades but holds hearts")


def test_void_must_overtrump_when_it_can():
    state = duty_state(**OVERTRUMP)
    run(state, "1 9S")
    assert legal_plays(state) == {"8H"}
    run(state, "2 8H")
    assert legal_plays(state) == {"AH", "TH", "9H"}
    assert_illegal(state, "play 7H", "must overtrump")
    assert_illegal(state, "play AD", "must overtrump")


def test_void_that_cannot_overtrump_must_still_trump():
    state = duty_state(**UNDERTRUMP)
    run(state, "1 9S, 2 TH")
    assert legal_plays(state) == {"JH", "9H", "8H", "7H", "6H"}
    assert_illegal(state, "play AD", "must trump")


def test_void_in_the_suit_led_and_in_trumps_may_play_anything():
    state = duty_state(**VOID)
    run(state, "1 9S")
    assert legal_plays(state) == hand(state, 2)


def test_when_the_trick_is_trumped_a_follower_just_follows_suit():
    state = duty_state(**OVERTRUMP)
    run(state, "1 9S, 2 8H, 3 9H")
    # seat 0 follows spades with any spade: no need to beat the nine, may not trump
    assert legal_plays(state) == {"AS", "TS", "KS", "QS", "JS", "8S", "6S"}
    assert_illegal(state, "play JH", "must follow suit")


def test_when_trumps_are_led_the_others_follow_and_beat_in_trumps():
    state = duty_state(**FOLLOW)
    run(state, "1 9S, 2 6S, 3 AS, 0 6H, 0 7H")  # seat 0 won with the six of hearts and leads a trump
    assert legal_plays(state) == {"KH", "QH"}
    run(state, "1 QH")
    assert legal_plays(state) == {"AH", "TH"}
    assert_illegal(state, "play 6D", "must beat the high card")
    run(state, "2 TH")
    assert legal_plays(state) == hand(state, 3)  # void in trumps: anything


def test_no_duty_to_beat_without_partner_exception_the_partners_card_too():
    state = duty_state(**PARTNER_FOLLOWS)
    run(state, "1 9S, 2 6S")
    assert legal_plays(state) == {"AS", "TS", "KS", "QS", "JS"}  # must beat the partner's nine
    state = duty_state(**PARTNER_TRUMPS)
    run(state, "1 9S, 2 8H, 3 6S")
    assert legal_plays(state) == {"AH", "TH", "JH", "9H"}  # must overtrump the partner's eight


def test_partner_exception_no_duty_to_beat_the_partners_high_card():
    state = duty_state(**PARTNER_FOLLOWS, partner_exception=True)
    run(state, "1 9S, 2 6S")
    assert legal_plays(state) == {"AS", "TS", "KS", "QS", "JS", "8S"}
    assert_illegal(state, "play KD", "must follow suit")
    run(state, "3 8S")
    assert state.current_player == 0


def test_partner_exception_still_requires_trumping_but_not_overtrumping_the_partner():
    state = duty_state(**PARTNER_TRUMPS, partner_exception=True)
    run(state, "1 9S, 2 8H, 3 6S")
    assert legal_plays(state) == {"AH", "TH", "JH", "9H", "7H", "6H"}
    assert_illegal(state, "play AD", "must trump")


def test_partner_exception_still_requires_beating_an_opponent():
    state = duty_state(**OPPONENT_HIGH, partner_exception=True)
    run(state, "1 9S")
    assert legal_plays(state) == {"QS"}  # seat 2 must beat its opponent's nine
    run(state, "2 QS")
    assert legal_plays(state) == {"AS", "TS", "KS"}  # seat 3 must beat its opponent's queen


# -- calls: who and when ---------------------------------------------------------------------------


def test_no_call_before_the_first_trick():
    state = marjapussi().new_hand(deal=suit_deal(), dealer=0)
    assert legal(state) == ["play AS"]
    assert_illegal(state, "declare S", "made only by the winner of a trick, before he leads")
    assert_illegal(state, "ask whole", "made only by the winner of a trick")


def test_calls_only_by_the_trick_winner_before_he_leads():
    state = marjapussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "1 AS, 2 6H, 3 6D, 0 6C")
    assert state.current_player == 1
    assert legal_calls(state) == {"declare S", "ask whole"}
    run(state, "1 TS")  # leading a card means no call
    assert not legal_calls(state)
    # seat 2 holds KH QH but did not win the trick
    assert_illegal(state, "declare H", "made only by the winner of a trick, before he leads")
    run(state, "2 7H, 3 7D")
    assert_illegal(state, "declare C", "made only by the winner of a trick")
    run(state, "0 7C")
    assert legal_calls(state) == {"declare S", "ask whole"}  # seat 1 won again: a new call


def test_one_call_per_trick():
    state = marjapussi().new_hand(deal=TWO_MARRIAGES, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C")
    assert {"declare S", "declare H"} <= legal_calls(state)
    run(state, "1 declare S")
    assert not legal_calls(state)
    assert legal_plays(state) == hand(state, 1)
    assert_illegal(state, "declare H", "made only by the winner of a trick, before he leads")
    assert_illegal(state, "ask whole", "made only by the winner of a trick")


def test_declare_needs_the_king_and_queen_in_the_own_hand():
    deal = check_deal([SUIT_CARDS["C"], "AS KS QS JS TS 9S 8S 7S KH",
                       "6S AH QH JH TH 9H 8H 7H 6H", SUIT_CARDS["D"]])
    state = marjapussi().new_hand(deal=deal, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C")
    assert "declare H" not in legal(state)
    assert_illegal(state, "declare H", "seat 1 does not hold the king and queen of hearts")
    assert_illegal(state, "declare D", "seat 1 does not hold the king and queen of diamonds")


# -- calls: asking ---------------------------------------------------------------------------------


HALF_YES = check_deal([SUIT_CARDS["C"], "AS KS QS JS TS 9S 8S 7S KH",
                       "6S AH JH TH 9H 8H 7H 6H AD", "QH KD QD JD TD 9D 8D 7D 6D"])
HALF_NO = check_deal([SUIT_CARDS["C"], "AS KS QS JS TS 9S 8S 7S KH",
                      "6S AH QH JH TH 9H 8H 7H 6H", "AD KD QD JD TD 9D 8D 7D 6D"])
WHOLE_TWO = check_deal(["AC JC TC 9C 8C 7C 6C AD 6D", SUIT_CARDS["S"], SUIT_CARDS["H"],
                        "KD QD JD TD 9D 8D 7D KC QC"])
WHOLE_NONE = check_deal(["AC KC JC TC 9C 8C 7C 6C QD", SUIT_CARDS["S"], SUIT_CARDS["H"],
                         "AD KD JD TD 9D 8D 7D 6D QC"])


def test_ask_half_needs_exactly_one_of_the_king_and_queen_of_the_suit():
    state = marjapussi().new_hand(deal=HALF_YES, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C")
    calls = legal_calls(state)
    assert "ask half H" in calls  # holds KH only
    assert "ask half S" not in calls  # holds both
    assert "ask half D" not in calls and "ask half C" not in calls  # holds neither
    assert_illegal(state, "ask half S", "only holding just one of its king and queen")
    assert_illegal(state, "ask half C", "only holding just one of its king and queen")


def test_ask_half_partner_with_the_other_half_makes_the_marriage():
    state = marjapussi().new_hand(deal=HALF_YES, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C, 1 ask half H")
    assert state.current_player == 3 and state.phase == "answer"
    assert legal(state) == ["answer H"]
    assert_illegal(state, "answer no", "seat 3 must answer truthfully", "'answer H'")
    run(state, "3 answer H")
    assert state.trump == "H"
    assert state.observation(None)["points"] == [0, 2]
    assert state.current_player == 1  # the asker leads


def test_ask_half_partner_without_the_other_half_answers_no():
    state = marjapussi().new_hand(deal=HALF_NO, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C, 1 ask half H")
    assert legal(state) == ["answer no"]
    assert_illegal(state, "answer H", "must answer truthfully", "'answer no'")
    run(state, "3 answer no")
    assert state.trump is None
    assert state.observation(None)["marriages"] == []


def test_ask_half_names_the_suit_but_not_which_half():
    state = marjapussi().new_hand(deal=HALF_YES, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C, 1 ask half H, 3 answer H")
    obs = state.observation(0)
    assert obs["calls"] == [[1, "ask half H"], [3, "answer H"]]
    assert obs["shown"] == [[], [], [], []]  # who holds the king and who the queen stays hidden


def test_ask_whole_partner_answers_with_his_marriage():
    state = marjapussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "1 AS, 2 6H, 3 6D, 0 6C, 1 ask whole")
    assert state.current_player == 3
    assert legal(state) == ["answer D"]
    assert_illegal(state, "answer no", "must answer truthfully")
    assert_illegal(state, "answer H", "must answer truthfully")
    run(state, "3 answer D")
    assert state.trump == "D"
    obs = state.observation(2)
    assert obs["marriages"] == [[3, "D", 2]] and obs["points"] == [0, 2]
    assert obs["shown"][3] == ["KD", "QD"]


def test_ask_whole_partner_chooses_among_his_marriages():
    for answer in ("D", "C"):
        state = marjapussi().new_hand(deal=WHOLE_TWO, dealer=0)
        run(state, "1 AS, 2 6H, 3 7D, 0 6C, 1 ask whole")
        assert set(legal(state)) == {"answer D", "answer C"}
        run(state, f"3 answer {answer}")
        assert state.trump == answer


def test_ask_whole_partner_without_a_marriage_answers_no():
    state = marjapussi().new_hand(deal=WHOLE_NONE, dealer=0)
    run(state, "1 AS, 2 6H, 3 6D, 0 6C, 1 ask whole")
    assert legal(state) == ["answer no"]
    assert_illegal(state, "answer D", "must answer truthfully")
    run(state, "3 answer no")
    assert state.trump is None


def test_a_no_uses_up_the_call_and_the_asker_must_lead():
    state = marjapussi().new_hand(deal=WHOLE_NONE, dealer=0)
    run(state, "1 AS, 2 6H, 3 6D, 0 6C, 1 ask whole, 3 answer no")
    assert state.current_player == 1
    assert legal_plays(state) == hand(state, 1) and not legal_calls(state)
    assert_illegal(state, "declare S", "made only by the winner of a trick, before he leads")


def test_answers_are_public():
    state = marjapussi().new_hand(deal=WHOLE_NONE, dealer=0)
    run(state, "1 AS, 2 6H, 3 6D, 0 6C, 1 ask whole, 3 answer no")
    for seat in (None, 0, 1, 2, 3):
        assert state.observation(seat)["calls"] == [[1, "ask whole"], [3, "answer no"]]


def test_while_asked_the_partner_must_answer():
    state = marjapussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "1 AS, 2 6H, 3 6D, 0 6C, 1 ask whole")
    assert_illegal(state, "play KD", "seat 3 must answer the ask")
    assert_illegal(state, "play TS", "must answer the ask", seat=None)
    assert_illegal(state, "answer D", "not your turn", seat=1)


def test_an_answer_needs_an_ask():
    state = marjapussi().new_hand(deal=suit_deal(), dealer=0)
    run(state, "1 AS, 2 6H, 3 6D, 0 6C")
    assert_illegal(state, "answer no", "nobody has asked")
    assert_illegal(state, "answer S", "nobody has asked")


# -- hand points -----------------------------------------------------------------------------------


def test_hand_points_trumps_two_little_one_last_trick_one_more_pips_one():
    state = suit_hand(marjapussi(), calls="declare S")
    assert state.hand_points == (0, 4)  # trumps 2, last trick 1, pips 1
    state = marjapussi().new_hand(deal=suit_deal(), dealer=0, scores=(3, 4))
    run(state, "1 AS, 2 6H, 3 6D, 0 6C, 1 declare S, 1 TS, 2 7H, 3 7D, 0 7C, 1 ask whole, 3 answer D")
    play_first(state)
    res = result(state)
    assert res["marriages"] == [[1, "S", 2], [3, "D", 1]]
    assert res["last_trick"] == 1 and res["pips"] == [0, 120] and res["pip_point"] == 1
    assert state.hand_points == (0, 5)  # trumps 2, little one 1, last trick 1, pips 1
    assert state.scores == (0, 9)  # side 0 took no trick: Porvoo


def test_last_trick_is_worth_one_point():
    state = tie_hand(marjapussi())
    res = result(state)
    assert res["last_trick"] == 1 and res["marriages"] == []
    assert state.hand_points == (0, 1)


def test_equal_pips_give_the_pip_point_to_nobody():
    state = tie_hand(marjapussi())
    res = result(state)
    assert res["pips"] == [60, 60]
    assert res["pip_point"] is None and res["carry"] == 0
    assert state.hand_points == (0, 1)


def test_more_pips_is_worth_one_point():
    state = suit_hand(marjapussi())
    assert result(state)["pip_point"] == 1
    assert state.hand_points == (0, 2)


def test_pip_tie_carries_to_the_next_hand_pip_winner():
    game = marjapussi(pip_tie_carries=True)
    match = match_of([tie_hand(game, 0), suit_hand(game, 1)])
    first, second = results(match)
    assert first["pip_point"] is None and first["carry"] == 1 and first["points"] == [0, 1]
    assert second["pip_point"] == 0 and second["carry"] == 0
    assert second["points"] == [3, 0]  # last trick 1, pips 1 + 1 carried
    assert match.observation(None)["carry"] == 0
    check_results(match)


def test_pip_tie_carry_piles_up_over_several_ties():
    game = marjapussi(pip_tie_carries=True)
    match = match_of([tie_hand(game, 0), tie_hand(game, 1), suit_hand(game, 2)])
    res = results(match)
    assert [r["carry"] for r in res] == [1, 2, 0]
    assert res[1]["points"] == [1, 0]  # the turned tie hand: side 0 takes the last trick
    assert res[2]["points"] == [0, 4] and res[2]["pip_point"] == 1  # 1 last trick + 1 pips + 2 carried
    check_results(match)


def test_pip_tie_carry_is_shown_in_the_next_hands_observation():
    game = marjapussi(pip_tie_carries=True)
    state = game.new_hand(deal=rotate(suit_deal(), 1), dealer=1)
    match = match_of([tie_hand(game, 0), state])
    assert match.observation(2)["carry"] == 1
    assert match.observation(2)["previous_hand"]["pip_point"] is None


def test_without_pip_tie_carries_a_tied_point_is_lost():
    game = marjapussi()
    match = match_of([tie_hand(game, 0), suit_hand(game, 1)])
    first, second = results(match)
    assert first["carry"] == 0 and second["points"] == [2, 0]
    check_results(match)


# -- the match -------------------------------------------------------------------------------------


def test_match_is_won_with_exactly_12():
    state = suit_hand(marjapussi(), scores=(0, 10))
    assert state.hand_points == (0, 2)
    assert state.scores == (0, 12)
    assert state.is_over() and state.winner == 1
    assert result(state)["match_over"] is True


def test_going_over_12_drops_the_side_to_7():
    state = suit_hand(marjapussi(), scores=(5, 9), calls="declare S")
    assert state.hand_points == (0, 4)
    assert state.scores == (0, 7)
    assert state.winner is None and result(state)["match_over"] is False


def test_a_side_that_takes_no_trick_goes_to_porvoo():
    state = suit_hand(marjapussi(), scores=(11, 3))
    res = result(state)
    assert res["tricks_won"] == [0, 9] and res["porvoo"] == [0]
    assert state.scores == (0, 5)


def test_porvoo_spares_a_side_with_a_trick():
    state = tie_hand(marjapussi(), scores=(9, 4))
    res = result(state)
    assert res["porvoo"] == [] and state.scores == (9, 5)


def test_target_10_option_and_short_preset():
    for game in (marjapussi(target=10), tt.new_game("marjapussi", preset="short")):
        assert game.options["target"] == 10
        state = suit_hand(game, scores=(0, 8))
        assert state.scores == (0, 10) and state.winner == 1
        state = suit_hand(game, scores=(0, 9))
        assert state.scores == (0, 7) and state.winner is None
        with pytest.raises(tt.OptionError, match="0..9"):
            game.new_hand(seed=1, scores=(10, 0))


def test_seed_preset_is_the_default_rules():
    assert tt.new_game("marjapussi", preset="seed").options == marjapussi().options
    assert marjapussi().options == {
        "target": 12, "pips": "cards", "pip_tie_carries": False, "first_lead": "ace",
        "clubs_ace_opens": False, "lead_from_marriage": False, "declaration_order": "free",
        "partner_exception": False,
    }


def test_match_scores_given_must_be_below_the_target():
    with pytest.raises(tt.OptionError, match="0..11"):
        marjapussi().new_hand(seed=1, scores=(12, 0))
    with pytest.raises(tt.OptionError):
        marjapussi().new_hand(seed=1, scores=(0, -1))
    assert marjapussi().new_hand(seed=1, scores=(11, 11)).scores == (11, 11)


def test_both_sides_reaching_12_in_one_hand_the_last_trick_side_wins():
    game = marjapussi()
    for played in random_hands(game, count=200):
        points = played.hand_points
        res = result(played)
        if min(points) > 0 and not res["porvoo"]:
            break
    else:
        pytest.fail("no hand in which both sides score")
    state = replay(game, played, scores=(12 - points[0], 12 - points[1]))
    assert state.scores == (12, 12)
    assert state.winner == res["last_trick"]


def test_match_continues_hand_after_hand_until_a_side_has_exactly_12():
    for seed in range(6):
        state = marjapussi().new_match(seed=seed)
        drive(state, random.Random(seed))
        expected = check_results(state)
        assert state.is_over() and state.winner is not None
        assert state.scores[state.winner] == 12
        assert all(max(e["scores"]) < 12 for e in expected[:-1])
        assert all(sum(e["pips"]) == 120 for e in expected)


# -- variant options -------------------------------------------------------------------------------


def test_aces_tens_pips_point_goes_to_more_aces_and_tens():
    game = marjapussi(pips="aces_tens")
    for played in random_hands(marjapussi()):
        taken = side_cards(played)
        at = [aces_tens(t) for t in taken]
        cp = [card_pips(t) for t in taken]
        if at[0] != at[1] and cp[0] != cp[1] and (at[0] > at[1]) != (cp[0] > cp[1]):
            break
    else:
        pytest.fail("no hand where aces and tens and card pips disagree")
    assert result(played)["pip_point"] == cp.index(max(cp))
    state = replay(game, played)
    res = result(state)
    assert res["pips"] == at and sum(res["pips"]) == 8
    assert res["pip_point"] == at.index(max(at))


def test_aces_tens_tie_is_broken_by_card_pips():
    game = marjapussi(pips="aces_tens")
    for played in random_hands(marjapussi()):
        taken = side_cards(played)
        at = [aces_tens(t) for t in taken]
        cp = [card_pips(t) for t in taken]
        if at == [4, 4] and cp[0] != cp[1]:
            break
    else:
        pytest.fail("no hand with four aces and tens each")
    res = result(replay(game, played))
    assert res["pips"] == [4, 4]
    assert res["pip_point"] == cp.index(max(cp))


def test_clubs_ace_opens_the_first_hand():
    deal = suit_deal(s0="D", s3="C")  # seat 3 holds the clubs
    state = marjapussi(clubs_ace_opens=True).new_hand(deal=deal, dealer=0)
    assert state.current_player == 3
    assert legal(state) == ["play AC"]
    assert_illegal(state, "play KC", "the first lead must be the AC")
    default = marjapussi().new_hand(deal=deal, dealer=0)
    assert default.current_player == 1


def test_clubs_ace_holder_deals_the_second_hand_then_the_deal_rotates():
    game = marjapussi(clubs_ace_opens=True)
    for seed in range(50):
        state = game.new_match(seed=seed)
        holder = next(s for s in range(4) if "AC" in hand(state, s))
        if holder != 1:
            break
    assert state.current_player == holder and legal(state) == ["play AC"]
    rng = random.Random(seed)
    while state.hand_number == 0:
        state.apply(rng.choice(state.legal_actions()))
    assert not state.is_over()
    assert state.dealer == holder
    # only the match's first hand: now the ordinary ace rule, led from the dealer's left
    assert state.current_player == (holder + 1) % 4
    assert state.observation(None)["lead_rule"] == ["AS", "AH", "AD", "AC"]
    drive(state, rng)
    dealers = [h["dealer"] for h in record(state)["hands"]]
    assert dealers == [0] + [(holder + k) % 4 for k in range(len(dealers) - 1)]
    check_results(state)


LEAD_FROM = check_deal([SUIT_CARDS["C"], "AS KS QS JS TS 9S 8S KH QH",
                        "7S 6S AH JH TH 9H 8H 7H 6H", SUIT_CARDS["D"]])


def test_lead_from_marriage_option_after_declaring():
    state = marjapussi(lead_from_marriage=True).new_hand(deal=LEAD_FROM, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C, 1 declare H")
    assert legal_plays(state) == {"KH", "QH"}
    assert_illegal(state, "play KS", "the lead must come from the marriage just declared",
                   "holds the king or queen of hearts")
    run(state, "1 QH")
    state = marjapussi().new_hand(deal=LEAD_FROM, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C, 1 declare H")
    assert legal_plays(state) == hand(state, 1)  # off by default


def test_lead_from_marriage_binds_only_the_next_lead():
    state = marjapussi(lead_from_marriage=True).new_hand(deal=LEAD_FROM, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C, 1 declare S, 1 KS, 2 7S, 3 7D, 0 7C")
    assert state.current_player == 1
    assert legal_plays(state) == hand(state, 1)


def test_lead_from_marriage_after_a_half_the_asker_leads_his_half():
    state = marjapussi(lead_from_marriage=True).new_hand(deal=HALF_YES, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6C, 1 ask half H, 3 answer H")
    assert legal_plays(state) == {"KH"}


def test_lead_from_marriage_after_a_whole_the_asker_usually_cannot():
    state = marjapussi(lead_from_marriage=True).new_hand(deal=suit_deal(), dealer=0)
    run(state, "1 AS, 2 6H, 3 6D, 0 6C, 1 ask whole, 3 answer D")
    assert legal_plays(state) == hand(state, 1)


# seat 1 wins every spade trick; it holds KS QS and KH; nobody can answer a whole
ORDER_DEAL = check_deal(["AC KC QD JC TC 9C 8C 7C 6C", "AS KS QS JS TS 9S 8S 7S KH",
                         "6S AH QH JH TH 9H 8H 7H 6H", "AD KD QC JD TD 9D 8D 7D 6D"])
ORDER_TRICK = {1: "1 AS, 2 6S, 3 6D, 0 6C", 2: "1 TS, 2 6H, 3 7D, 0 7C", 3: "1 9S, 2 7H, 3 8D, 0 8C"}


def order_state(option: str) -> tt.State:
    state = marjapussi(declaration_order=option).new_hand(deal=ORDER_DEAL, dealer=0)
    run(state, ORDER_TRICK[1])
    return state


def test_free_declaration_order_any_call_any_time():
    state = order_state("free")
    assert legal_calls(state) == {"declare S", "ask whole", "ask half H"}
    run(state, "1 ask half H, 3 answer no, " + ORDER_TRICK[2])
    assert legal_calls(state) == {"declare S", "ask whole", "ask half H"}


def test_ordered_calls_no_own_declaring_after_asking():
    state = order_state("ordered")
    assert legal_calls(state) == {"declare S", "ask whole", "ask half H"}
    run(state, "1 ask whole, 3 answer no, " + ORDER_TRICK[2])
    assert legal_calls(state) == {"ask whole", "ask half H"}
    assert_illegal(state, "declare S", "ordered calls: a side that has asked may no longer declare")


def test_ordered_calls_no_whole_after_a_half():
    state = order_state("ordered")
    run(state, "1 ask half H, 3 answer no, " + ORDER_TRICK[2])
    assert legal_calls(state) == {"ask half H"}
    assert_illegal(state, "ask whole", "a side that has asked for a half may no longer ask for a whole")
    assert_illegal(state, "declare S", "may no longer declare")


# seat 3 holds a marriage (diamonds) and wins trick 2 with the ace of clubs
ORDER_SIDE_DEAL = check_deal(["KC QC JC TC 9C 8C 7C AD 6H", "AS KS QS JS TS 9S 8S KH 6C",
                              "7S 6S AH QH JH TH 9H 8H 7H", "AC KD QD JD TD 9D 8D 7D 6D"])


@pytest.mark.parametrize("order", ["free", "ordered"])
def test_ordered_calls_bind_the_partner_too(order):
    state = marjapussi(declaration_order=order).new_hand(deal=ORDER_SIDE_DEAL, dealer=0)
    run(state, "1 AS, 2 6S, 3 6D, 0 6H, 1 ask half H, 3 answer no, 1 6C, 2 7S, 3 AC, 0 7C")
    assert state.current_player == 3
    if order == "free":
        assert legal_calls(state) == {"declare D", "ask whole"}
    else:
        assert legal_calls(state) == set()
        assert_illegal(state, "declare D", "ordered calls: a side that has asked may no longer declare")


def test_ordered_calls_do_not_bind_the_other_side():
    state = order_state("ordered")
    run(state, "1 ask half H, 3 answer no, 1 KH, 2 AH, 3 7D, 0 7C")
    assert state.current_player == 2
    assert legal_calls(state) == {"ask whole"}  # side 0 has not asked: it may still ask for a whole


def test_ordered_calls_restrictions_end_with_the_hand():
    game = marjapussi(declaration_order="ordered")
    first = game.new_hand(deal=ORDER_DEAL, dealer=0)
    run(first, ORDER_TRICK[1] + ", 1 ask half H, 3 answer no")
    play_first(first)
    second = suit_hand(game, dealer=1)
    third = game.new_hand(deal=rotate(ORDER_DEAL, 2), dealer=2)  # side 1 leads again, from seat 3
    match = match_of([first, second, third])
    assert match.hand_number == 2 and not match.is_over()
    run(match, "3 AS, 0 6S, 1 6D, 2 6C")
    assert legal_calls(match) == {"declare S", "ask whole", "ask half H"}


def test_whole_first_a_half_only_after_the_side_asked_for_a_whole():
    state = order_state("whole_first")
    assert legal_calls(state) == {"declare S", "ask whole"}
    assert_illegal(state, "ask half H", "a side must ask for a whole before it asks for a half")
    run(state, "1 ask whole, 3 answer no, " + ORDER_TRICK[2])
    assert legal_calls(state) == {"ask whole", "ask half H"}
    run(state, "1 ask half H, 3 answer no, " + ORDER_TRICK[3])
    assert legal_calls(state) == {"ask half H"}


# -- options, errors and the state -----------------------------------------------------------------


@pytest.mark.parametrize(("option", "value", "fragment"), [
    ("trumps", "H", "unknown option 'trumps'"),
    ("target", 11, "option target must be one of 10, 12"),
    ("pips", "tens", "option pips must be one of cards, aces_tens"),
    ("pip_tie_carries", "yes", "option pip_tie_carries takes true or false"),
    ("first_lead", "spade", "option first_lead must be one of ace, ace_or_spade"),
    ("clubs_ace_opens", 1, "option clubs_ace_opens takes true or false"),
    ("lead_from_marriage", None, "option lead_from_marriage takes true or false"),
    ("declaration_order", "random", "option declaration_order must be one of free, ordered, whole_first"),
    ("partner_exception", "no", "option partner_exception takes true or false"),
    ("players", 2, "unknown option 'players'"),
    ("exact", True, "unknown option 'exact'"),
])
def test_unknown_options_and_bad_values_are_refused_by_name(option, value, fragment):
    with pytest.raises(tt.OptionError, match=fragment):
        marjapussi(**{option: value})


def test_unknown_preset_is_refused():
    with pytest.raises(tt.OptionError, match="unknown preset 'long'"):
        tt.new_game("marjapussi", preset="long")


def test_every_option_value_is_accepted():
    for value in (10, 12):
        assert marjapussi(target=value).options["target"] == value
    for key, values in {"pips": ("cards", "aces_tens"), "first_lead": ("ace", "ace_or_spade"),
                        "declaration_order": ("free", "ordered", "whole_first")}.items():
        for value in values:
            assert marjapussi(**{key: value}).options[key] == value
    for key in ("pip_tie_carries", "clubs_ace_opens", "lead_from_marriage", "partner_exception"):
        assert marjapussi(**{key: True}).options[key] is True


def test_illegal_actions_name_the_problem_and_leave_the_state_unchanged():
    state = marjapussi().new_hand(deal=suit_deal(), dealer=0)
    assert_illegal(state, "play KS", "the first lead must be an ace")
    assert_illegal(state, "play AH", "seat 1 cannot play AH", "does not hold it")
    assert_illegal(state, "play 5S", "neither a card")
    assert_illegal(state, "dance", "unknown action word")
    assert_illegal(state, "declare", "malformed")
    assert_illegal(state, "ask half", "malformed")
    assert_illegal(state, "play AS", "not your turn", seat=2)
    run(state, "1 AS, 2 6H, 3 6D, 0 6C, 1 TS")
    assert_illegal(state, "play TS", "does not hold it")
    play_first(state)
    assert state.is_over()
    assert_illegal(state, "play AS", "the game is over")


def test_observation_shows_only_the_own_hand():
    state = marjapussi().new_hand(deal=suit_deal(), dealer=0)
    for seat in range(4):
        obs = state.observation(seat)
        assert set(obs["hand"]) == hand(state, seat)
        assert obs["hand_sizes"] == [9, 9, 9, 9]
        assert ("legal_actions" in obs) == (seat == 1)
        others = set().union(*(hand(state, s) for s in range(4) if s != seat))
        text = json.dumps({k: v for k, v in obs.items() if k != "lead_rule"})
        assert not [c for c in others if f'"{c}"' in text]
    assert state.observation(None)["hand"] == []


def test_random_matches_follow_the_rules_with_every_option():
    options = [
        {"partner_exception": True, "lead_from_marriage": True},
        {"first_lead": "ace_or_spade", "pip_tie_carries": True},
        {"clubs_ace_opens": True, "pips": "aces_tens", "target": 10},
        {"declaration_order": "ordered"},
        {"declaration_order": "whole_first", "lead_from_marriage": True},
    ]
    for k, opts in enumerate(options):
        for seed in range(3):
            state = marjapussi(**opts).new_match(seed=100 * k + seed)
            drive(state, random.Random(seed))
            check_results(state)
            assert state.winner is not None
