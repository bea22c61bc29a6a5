"""Every Bondtolva rule of RULES.md (section Bondtolva) and seeds/marjapussi-huutopussi.txt
(Bondtolva, and Two-handed Bondtolva), one or more tests each.

Four players (``players=4``, the default) play Marjapussi with 24 cards (A 10 K Q J 9), six
each; deals are four hands of six, seat 1 leads with dealer 0.  Two players (``players=2``)
are dealt two hands of six and a stock of twelve, given card by card in drawing order; the
non-dealer leads.  Scripts are ``seat action`` steps (:func:`run`; a lone card means ``play``).

The rules shared with Marjapussi (duties, calls, Porvoo) are tested in full in
``test_marjapussi_rules.py``; here each is checked once for Bondtolva, with the differences
in full.  Scoring is also checked against an independent re-computation over random matches.
"""

from __future__ import annotations

import random

import pytest
from marjapussi_helpers import (
    HONOURS,
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

DECK = tt.SHORT_24
RANKS = "ATKQJ9"
SUIT_CARDS = {s: " ".join(r + s for r in RANKS) for s in "SHDC"}


def bondtolva(**options) -> tt.Game:
    return tt.new_game("bondtolva", **options)


def two(**options) -> tt.Game:
    return tt.new_game("bondtolva", players=2, **options)


def deal24(piles: list[str]) -> list[str]:
    return check_deal(piles, DECK)


def rotate(deal: list[str], k: int) -> list[str]:
    return [deal[(s - k) % 4] for s in range(4)]


# each seat one suit: seat 1 the spades, so it leads the ace and takes every trick
SUIT_DEAL = deal24([SUIT_CARDS["C"], SUIT_CARDS["S"], SUIT_CARDS["H"], SUIT_CARDS["D"]])


def suit_hand(game: tt.Game, dealer: int = 0, scores=None, calls: str = "") -> tt.State:
    """The suit deal turned so that the seat left of ``dealer`` holds the spades and takes every
    trick; ``calls`` are made by him after trick 1."""
    leader = (dealer + 1) % 4
    state = game.new_hand(deal=rotate(SUIT_DEAL, dealer), dealer=dealer, scores=scores)
    others = [(leader + i) % 4 for i in (1, 2, 3)]
    run(state, f"{leader} AS, " + ", ".join(f"{s} 9{'SHDC'[others.index(s) + 1]}" for s in others))
    if calls:
        run(state, ", ".join(f"{leader} {c}" for c in calls.split(",")))
    play_first(state)
    return state


def replay(game: tt.Game, played: tt.State, scores=None) -> tt.State:
    h = record(played)["hands"][0]
    state = game.new_hand(deal=h["deal"], dealer=h["dealer"], scores=scores)
    for a in h["actions"]:
        state.apply(a)
    return state


def random_hands(game: tt.Game, count: int = 600, dealer: int = 0):
    for seed in range(count):
        state = game.new_hand(seed=seed, dealer=dealer)
        drive(state, random.Random(seed), check=False)
        yield state


def side_cards(state: tt.State) -> list[list[str]]:
    taken: list[list[str]] = [[], []]
    for t in state.observation(None)["tricks"]:
        taken[state.game.side_of(t["winner"])] += [c for _, c in t["cards"]]
    return taken


def aces_tens(cards: list[str]) -> int:
    return sum(c[0] in "AT" for c in cards)


def honours(cards: list[str]) -> int:
    return sum(HONOURS.get(c[0], 0) for c in cards)


def card_pips(cards: list[str]) -> int:
    return sum({"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}.get(c[0], 0) for c in cards)


def find_hand(predicate, game: tt.Game | None = None, dealer: int = 0) -> tt.State:
    for played in random_hands(game or bondtolva(), dealer=dealer):
        taken = side_cards(played)
        if predicate([aces_tens(t) for t in taken], [honours(t) for t in taken],
                     [card_pips(t) for t in taken]):
            return played
    pytest.fail("no such hand among the random hands")


# =================================================================================================
# four players
# =================================================================================================


@pytest.mark.parametrize("seed", range(4))
def test_deck_is_24_cards_ace_to_nine_dealt_six_each(seed):
    state = bondtolva().new_match(seed=seed)
    hands = [hand(state, s) for s in range(4)]
    assert [len(h) for h in hands] == [6] * 4
    assert set().union(*hands) == {r + s for r in RANKS for s in "SHDC"}
    assert state.observation(0)["hand_sizes"] == [6, 6, 6, 6]


def test_four_players_is_the_default_and_the_four_preset():
    assert bondtolva().options["players"] == 4
    assert tt.new_game("bondtolva", preset="four").options["players"] == 4
    assert tt.new_game("bondtolva", preset="two").options["players"] == 2
    assert bondtolva().num_players == 4 and two().num_players == 2


def test_a_four_player_deal_is_four_hands_of_six():
    with pytest.raises(tt.OptionError, match="piles of 6, 6, 6, 6"):
        bondtolva().new_hand(deal=[SUIT_DEAL[0] + " AS", SUIT_DEAL[1].replace("AS ", ""), *SUIT_DEAL[2:]])
    with pytest.raises(ValueError, match="not a card of the anglo-24 deck"):
        bondtolva().new_hand(deal=[SUIT_DEAL[0].replace("9C", "8C"), *SUIT_DEAL[1:]])


ADJACENT = list(zip(RANKS, RANKS[1:], strict=False))


@pytest.mark.parametrize(("led", "followed"), ADJACENT + [(lo, hi) for hi, lo in ADJACENT])
def test_card_rank_is_a_10_k_q_j_9(led, followed):
    """Trick 2: seat 1 leads a spade, seat 2 follows with its only spade; the higher one wins."""
    x, y = led + "S", followed + "S"
    spades = [r + "S" for r in RANKS if r + "S" not in (x, y)]
    deal = deal24([SUIT_CARDS["C"], " ".join(["AH", x, *spades]), f"{y} KH QH JH TH 9H", SUIT_CARDS["D"]])
    state = bondtolva().new_hand(deal=deal, dealer=0)
    run(state, "1 AH, 2 9H, 3 9D, 0 9C")
    run(state, f"1 {x}, 2 {y}, 3 JD, 0 JC")
    higher = 1 if RANKS.index(led) < RANKS.index(followed) else 2
    assert last_trick(state)["winner"] == higher and state.current_player == higher


@pytest.mark.parametrize("dealer", range(4))
def test_player_left_of_the_dealer_leads_first_with_an_ace_if_held(dealer):
    state = bondtolva().new_hand(deal=rotate(SUIT_DEAL, dealer), dealer=dealer)
    assert state.current_player == (dealer + 1) % 4
    assert legal(state) == ["play AS"]
    assert_illegal(state, "play KS", "the first lead must be an ace")


# seat 1 takes trick 1 with the AC and declares hearts
DUTY_DEAL = deal24(["9C QS 9S AH 9H TD", "AC KH QH JS KC QC", "JC AS JH TH AD KD", "TC TS KS QD JD 9D"])


def test_duties_follow_beat_and_trump_as_in_marjapussi():
    state = bondtolva().new_hand(deal=DUTY_DEAL, dealer=0)
    run(state, "1 AC, 2 JC, 3 TC, 0 9C, 1 declare H, 1 KH")
    assert legal_plays(state) == {"TH"}  # beat the king: the ten, not the jack
    assert_illegal(state, "play JH", "must beat the high card")
    run(state, "2 TH")
    assert legal_plays(state) == hand(state, 3)  # neither hearts nor (heart) trumps: anything
    run(state, "3 9D")
    assert legal_plays(state) == {"AH"}
    run(state, "0 AH, 0 QS")
    assert legal_plays(state) == {"JS"}  # follow, even unable to beat
    run(state, "1 JS")
    assert legal_plays(state) == {"AS"}
    run(state, "2 AS")
    assert legal_plays(state) == {"TS", "KS"}  # cannot beat the ace: any spade
    assert_illegal(state, "play QD", "must follow suit")
    run(state, "3 KS, 2 AD, 3 JD, 0 TD")
    assert legal_plays(state) == {"QH"}  # no diamonds: must trump
    assert_illegal(state, "play KC", "must trump")


def test_lead_from_a_just_made_marriage_is_mandatory():
    deal = deal24([SUIT_CARDS["C"], "AS TS KS QS KH QH", "AH TH JH 9H JS 9S", SUIT_CARDS["D"]])
    state = bondtolva().new_hand(deal=deal, dealer=0)
    run(state, "1 AS, 2 9S, 3 9D, 0 9C, 1 declare H")
    assert legal_plays(state) == {"KH", "QH"}
    assert_illegal(state, "play TS", "the lead must come from the marriage just declared",
                   "holds the king or queen of hearts")
    run(state, "1 KH")
    state = bondtolva().new_hand(deal=deal, dealer=0)
    run(state, "1 AS, 2 9S, 3 9D, 0 9C, 1 declare S")
    assert legal_plays(state) == {"KS", "QS"}


def test_lead_from_marriage_cannot_be_switched_off():
    with pytest.raises(tt.OptionError, match="unknown option 'lead_from_marriage'"):
        bondtolva(lead_from_marriage=False)


def test_lead_from_marriage_after_a_half_and_after_a_whole():
    deal = deal24([SUIT_CARDS["C"], "AS TS KS QS JS KH", "9S AH TH JH 9H AD", "QH KD QD JD TD 9D"])
    state = bondtolva().new_hand(deal=deal, dealer=0)
    run(state, "1 AS, 2 9S, 3 9D, 0 9C, 1 ask half H, 3 answer H")
    assert state.trump == "H"
    assert legal_plays(state) == {"KH"}  # the asker holds one half: he must lead it
    state = bondtolva().new_hand(deal=SUIT_DEAL, dealer=0)
    run(state, "1 AS, 2 9H, 3 9D, 0 9C, 1 ask whole, 3 answer D")
    assert legal_plays(state) == hand(state, 1)  # the partner's marriage: the asker leads anything


def test_marriages_trumps_two_little_ones_one_and_asking_allowed_with_four():
    state = bondtolva().new_hand(deal=SUIT_DEAL, dealer=0)
    run(state, "1 AS, 2 9H, 3 9D, 0 9C")
    assert legal_calls(state) == {"declare S", "ask whole"}
    run(state, "1 declare S, 1 KS, 2 JH, 3 JD, 0 JC, 1 ask whole, 3 answer D")
    assert state.trump == "S"
    assert state.observation(None)["marriages"] == [[1, "S", 2], [3, "D", 1]]
    play_first(state)
    assert state.hand_points == (0, 5)


def test_pip_point_goes_to_more_aces_and_tens_not_to_more_card_pips():
    played = find_hand(lambda at, hon, cp: at[0] != at[1] and cp[0] != cp[1]
                       and (at[0] > at[1]) != (cp[0] > cp[1]))
    res = result(played)
    at = [aces_tens(t) for t in side_cards(played)]
    assert res["pips"] == at and sum(at) == 8
    assert res["pip_point"] == at.index(max(at))


def test_pip_point_goes_to_more_aces_and_tens_not_to_more_honours():
    played = find_hand(lambda at, hon, cp: at[0] != at[1] and hon[0] != hon[1]
                       and (at[0] > at[1]) != (hon[0] > hon[1]))
    at = [aces_tens(t) for t in side_cards(played)]
    assert result(played)["pip_point"] == at.index(max(at))


def test_equal_aces_and_tens_are_broken_by_a4_k3_q2_j1():
    played = find_hand(lambda at, hon, cp: at == [4, 4] and hon[0] != hon[1]
                       and (hon[0] > hon[1]) != (cp[0] > cp[1]))
    hon = [honours(t) for t in side_cards(played)]
    res = result(played)
    assert res["pips"] == [4, 4]
    assert res["pip_point"] == hon.index(max(hon))


def test_equal_aces_tens_and_honours_give_the_pip_point_to_nobody():
    played = find_hand(lambda at, hon, cp: at == [4, 4] and hon[0] == hon[1])
    res = result(played)
    assert res["pip_point"] is None
    for side in (0, 1):
        marriages = sum(value for seat, _, value in res["marriages"] if seat % 2 == side)
        assert played.hand_points[side] == marriages + (side == res["last_trick"])


def test_pip_tie_carries_option():
    tie = find_hand(lambda at, hon, cp: at == [4, 4] and hon[0] == hon[1])
    game = bondtolva(pip_tie_carries=True)
    match = match_of([replay(game, tie), suit_hand(game, dealer=1)])
    first, second = results(match)
    assert first["pip_point"] is None and first["carry"] == 1
    assert second["pip_point"] == 0 and second["points"] == [3, 0] and second["carry"] == 0
    check_results(match)
    plain = match_of([replay(bondtolva(), tie), suit_hand(bondtolva(), dealer=1)])
    assert results(plain)[1]["points"] == [2, 0]


def test_the_match_is_to_12_reaching_it():
    state = suit_hand(bondtolva(), scores=(0, 10))
    assert state.hand_points == (0, 2)
    assert state.scores == (0, 12) and state.winner == 1


def test_the_match_is_to_12_passing_it_wins_too():
    state = suit_hand(bondtolva(), scores=(3, 11), calls="declare S")
    assert state.hand_points == (0, 4)
    assert state.scores == (0, 15) and state.winner == 1 and state.is_over()


def test_both_sides_passing_12_the_higher_score_wins():
    for played in random_hands(bondtolva()):
        p = played.hand_points
        if min(p) > 0 and p[0] != p[1] and not result(played)["porvoo"]:
            break
    else:
        pytest.fail("no hand in which both sides score differently")
    state = replay(bondtolva(), played, scores=(11, 11))
    assert state.scores == (11 + p[0], 11 + p[1])
    assert state.winner == (0 if p[0] > p[1] else 1)


def test_both_sides_equal_over_12_the_last_trick_side_wins():
    for played in random_hands(bondtolva()):
        p = played.hand_points
        if min(p) > 0 and p[0] == p[1] and not result(played)["porvoo"]:
            break
    else:
        pytest.fail("no hand in which both sides score the same")
    state = replay(bondtolva(), played, scores=(11, 11))
    assert state.winner == result(played)["last_trick"]


def test_exact_option_points_over_12_are_taken_off_12():
    state = suit_hand(bondtolva(exact=True), scores=(0, 10), calls="declare S")
    assert state.hand_points == (0, 4)
    assert state.scores == (0, 10)  # 10 + 4 = 14, two over: 12 - 2
    assert state.winner is None
    state = suit_hand(bondtolva(exact=True), scores=(0, 9), calls="declare S")
    assert state.scores == (0, 11)


def test_exact_option_exactly_12_wins():
    state = suit_hand(bondtolva(exact=True), scores=(0, 8), calls="declare S")
    assert state.scores == (0, 12) and state.winner == 1


def test_a_side_without_a_trick_goes_to_porvoo():
    state = suit_hand(bondtolva(), scores=(11, 2))
    assert result(state)["porvoo"] == [0]
    assert state.scores == (0, 4)


def test_first_lead_ace_or_spade_option():
    deal = deal24(["AS AH TC KC QC JC", "TS KS 9S KH QH 9C", "QS JS TH JH 9H AC", SUIT_CARDS["D"]])
    state = bondtolva(first_lead="ace_or_spade").new_hand(deal=deal, dealer=0)
    assert legal_plays(state) == {"TS", "KS", "9S"}
    assert legal_plays(bondtolva().new_hand(deal=deal, dealer=0)) == hand(state, 1)


# seat 1 leads the KS (no ace to lead), seat 2 follows low, seat 3 has spades either side of it
PARTNER_DEAL = deal24([SUIT_CARDS["C"], "KS JS KH QH KD QD", "9S AH TH JH 9H 9D", "AS TS QS AD TD JD"])


@pytest.mark.parametrize(("exception", "allowed"), [(False, {"AS", "TS"}), (True, {"AS", "TS", "QS"})])
def test_partner_exception_option(exception, allowed):
    state = bondtolva(partner_exception=exception).new_hand(deal=PARTNER_DEAL, dealer=0)
    run(state, "1 KS, 2 9S")
    assert legal_plays(state) == allowed
    assert_illegal(state, "play AD", "must")


def test_declaration_order_option():
    deal = deal24(["AC KC QD JC TC 9C", "AS KS QS JS TS KH", "9S AH QH JH TH 9H", "AD KD QC JD TD 9D"])
    state = bondtolva(declaration_order="ordered").new_hand(deal=deal, dealer=0)
    run(state, "1 AS, 2 9S, 3 9D, 0 9C")
    assert legal_calls(state) == {"declare S", "ask whole", "ask half H"}
    run(state, "1 ask whole, 3 answer no, 1 TS, 2 9H, 3 JD, 0 JC")
    assert legal_calls(state) == {"ask whole", "ask half H"}
    assert_illegal(state, "declare S", "ordered calls")


@pytest.mark.parametrize(("option", "value", "fragment"), [
    ("players", 3, "option players must be one of 2, 4"),
    ("exact", "yes", "option exact takes true or false"),
    ("target", 10, "unknown option 'target'"),
    ("pips", "cards", "unknown option 'pips'"),
    ("clubs_ace_opens", True, "unknown option 'clubs_ace_opens'"),
    ("pip_tie_carries", 1, "option pip_tie_carries takes true or false"),
    ("first_lead", "king", "option first_lead must be one of ace, ace_or_spade"),
    ("declaration_order", "any", "option declaration_order must be one of"),
    ("partner_exception", "x", "option partner_exception takes true or false"),
])
def test_unknown_options_and_bad_values_are_refused_by_name(option, value, fragment):
    with pytest.raises(tt.OptionError, match=fragment):
        bondtolva(**{option: value})


def test_unknown_preset_is_refused():
    with pytest.raises(tt.OptionError, match="unknown preset 'three'"):
        tt.new_game("bondtolva", preset="three")


def test_defaults():
    assert bondtolva().options == {"players": 4, "exact": False, "pip_tie_carries": False,
                                   "first_lead": "ace", "declaration_order": "free",
                                   "partner_exception": False}
    with pytest.raises(tt.OptionError, match="0..11"):
        bondtolva().new_hand(seed=1, scores=(12, 0))


def test_illegal_actions_leave_the_state_unchanged():
    state = bondtolva().new_hand(deal=SUIT_DEAL, dealer=0)
    assert_illegal(state, "play KS", "the first lead must be an ace")
    assert_illegal(state, "play 6S", "neither a card")
    assert_illegal(state, "declare S", "made only by the winner of a trick")
    assert_illegal(state, "play AS", "not your turn", seat=0)


@pytest.mark.parametrize("options", [{}, {"exact": True}, {"first_lead": "ace_or_spade"},
                                     {"pip_tie_carries": True, "partner_exception": True}])
def test_random_four_player_matches_follow_the_rules(options):
    for seed in range(5):
        state = bondtolva(**options).new_match(seed=seed)
        drive(state, random.Random(seed))
        expected = check_results(state)
        assert state.is_over() and state.winner is not None
        assert all(sum(e["pips"]) == 8 for e in expected)  # aces and tens
        top = state.scores[state.winner]
        assert top == 12 if options.get("exact") else top >= 12


# =================================================================================================
# two players
# =================================================================================================

# hand 0 (the dealer's), hand 1, then the stock in drawing order
TWO_DEAL = ["9S AH KH QH JH TH", "AS KS QS JS TS AD",
            *"9H KD QD JD TD 9D AC KC QC JC TC 9C".split()]
# the first six tricks of TWO_DEAL: seat 1 declares spades after trick 1; seat 0 wins tricks 3, 4
TWO_SCRIPT = ["1 AS, 0 AH", "1 declare S, 1 QS, 0 KH", "1 9H, 0 TH", "0 JD, 1 9D", "0 9S, 1 TS", "1 JS, 0 JC"]
# seat 1 holds the spades and draws the aces, tens and kings: it takes all twelve tricks
SWEEP_DEAL = ["AH KH QH JH TH 9H", "AS KS QS JS TS 9S",
              *"AD QD TD JD KD 9D AC QC TC JC KC 9C".split()]


# seat 1 leads its spades and draws the diamonds and clubs from the ace to the king;
# once the stock is out, seat 0 must follow with lower cards
SWEEP_SCRIPT = ("1 AS, 0 AH, 1 TS, 0 TH, 1 KS, 0 KH, 1 QS, 0 QH, 1 JS, 0 JH, 1 9S, 0 9H, "
                "1 AD, 0 9D, 1 TD, 0 JD, 1 KD, 0 QD, 1 AC, 0 9C, 1 TC, 0 JC, 1 KC, 0 QC")


def two_state(tricks: int = 0, dealer: int = 0, **options) -> tt.State:
    """TWO_DEAL (the hands swapped when seat 1 deals) after ``tricks`` tricks of TWO_SCRIPT."""
    assert dealer == 0 or tricks == 0
    deal = TWO_DEAL if dealer == 0 else [TWO_DEAL[1], TWO_DEAL[0], *TWO_DEAL[2:]]
    state = two(**options).new_hand(deal=check_deal(deal, DECK), dealer=dealer)
    for step in TWO_SCRIPT[:tricks]:
        run(state, step)
    return state


def sweep_hand(game: tt.Game, scores=None) -> tt.State:
    state = game.new_hand(deal=check_deal(SWEEP_DEAL, DECK), dealer=0, scores=scores)
    run(state, SWEEP_SCRIPT)
    assert state.is_over()
    return state


def test_two_players_six_cards_each_and_a_stock_of_twelve():
    state = two().new_match(seed=5)
    assert [len(hand(state, s)) for s in range(2)] == [6, 6]
    obs = state.observation(0)
    assert obs["stock_size"] == 12 and obs["hand_sizes"] == [6, 6] and obs["players"] == 2
    with pytest.raises(tt.OptionError, match="piles of 6, 6, 1, 1"):
        two().new_hand(deal=[SUIT_CARDS["S"], SUIT_CARDS["H"], SUIT_CARDS["D"], SUIT_CARDS["C"]])


@pytest.mark.parametrize("dealer", [0, 1])
def test_two_players_the_non_dealer_leads_first(dealer):
    state = two_state(dealer=dealer)
    assert state.current_player == 1 - dealer
    assert legal_plays(state) == {"AS", "AD"}  # with an ace to lead if held


def test_two_players_winner_draws_first_then_loser():
    state = two_state()
    run(state, "1 AS, 0 AH")
    assert last_trick(state)["winner"] == 1
    assert "9H" in hand(state, 1) and "KD" in hand(state, 0)  # stock cards 1 and 2
    assert state.observation(0)["stock_size"] == 10
    run(state, "1 declare S, 1 QS, 0 KH")
    assert "QD" in hand(state, 1) and "JD" in hand(state, 0)
    run(state, "1 9H, 0 TH")
    assert last_trick(state)["winner"] == 0
    assert "TD" in hand(state, 0) and "9D" in hand(state, 1)  # now seat 0 draws first
    assert [len(hand(state, s)) for s in range(2)] == [6, 6]


def test_two_players_no_duty_to_follow_trump_or_beat_while_the_stock_lasts():
    state = two_state()
    run(state, "1 AS")
    assert legal_plays(state) == hand(state, 0)  # may keep the 9S
    run(state, "0 AH, 1 declare S, 1 QS")
    # spades are trumps and led: seat 0 holds the 9S but need not follow, nor beat
    assert legal_plays(state) == hand(state, 0)
    run(state, "0 KH, 1 9H")
    assert legal_plays(state) == hand(state, 0)  # need not follow hearts either
    run(state, "0 TH")


def test_two_players_all_duties_once_the_stock_is_empty():
    state = two_state(tricks=6)
    assert state.observation(1)["stock_size"] == 0
    assert hand(state, 0) == {"KD", "TD", "AC", "9C", "QH", "JH"}
    assert hand(state, 1) == {"KC", "TC", "QC", "KS", "AD", "QD"}
    run(state, "1 QC")
    assert legal_plays(state) == {"AC"}  # follow suit and beat
    assert_illegal(state, "play 9C", "must beat the high card")
    assert_illegal(state, "play QH", "must beat the high card")
    run(state, "0 AC, 0 QH")
    assert legal_plays(state) == {"KS"}  # no hearts: must trump
    assert_illegal(state, "play AD", "must trump")


def test_two_players_marriages_only_while_the_stock_lasts():
    state = two_state(tricks=5)
    assert state.observation(1)["stock_size"] == 2
    assert legal_calls(state) == {"declare C"}
    run(state, "1 JS, 0 JC")
    assert state.current_player == 1 and {"KC", "QC"} <= hand(state, 1)
    assert not legal_calls(state)
    assert_illegal(state, "declare C", "made only by the winner of a trick", "a trick while the stock lasts")


def test_two_players_no_asking_without_a_partner():
    state = two_state(tricks=1)
    assert legal_calls(state) == {"declare S"}
    assert_illegal(state, "ask whole", "there are no partners in this game")
    assert_illegal(state, "ask half S", "there are no partners in this game")


def test_two_players_lead_from_a_just_made_marriage_is_mandatory():
    state = two_state(tricks=1)
    run(state, "1 declare S")
    assert state.trump == "S"
    assert legal_plays(state) == {"KS", "QS"}
    assert_illegal(state, "play TS", "the lead must come from the marriage just declared")


def test_two_players_score_per_player_and_porvoo():
    state = sweep_hand(two(), scores=(9, 3))
    res = result(state)
    assert res["tricks_won"] == [0, 12] and res["pips"] == [0, 8]
    assert res["porvoo"] == [0]
    assert state.hand_points == (0, 2)  # last trick and aces and tens
    assert state.scores == (0, 5)


def test_two_players_match_to_12_reaching_or_passing():
    state = sweep_hand(two(), scores=(0, 10))
    assert state.scores == (0, 12) and state.winner == 1
    state = sweep_hand(two(), scores=(0, 11))
    assert state.scores == (0, 13) and state.winner == 1
    state = sweep_hand(two(exact=True), scores=(0, 11))
    assert state.scores == (0, 11) and state.winner is None


@pytest.mark.parametrize("options", [{}, {"exact": True},
                                     {"first_lead": "ace_or_spade", "pip_tie_carries": True}])
def test_random_two_player_matches_follow_the_rules(options):
    for seed in range(6):
        state = two(**options).new_match(seed=seed)
        drive(state, random.Random(seed))
        expected = check_results(state)
        assert state.is_over() and state.winner in (0, 1)
        assert all(sum(e["pips"]) == 8 for e in expected)
        for h in record(state)["hands"]:
            plays = [a for a in h["actions"] if a.startswith("play ")]
            assert len(plays) == 24  # twelve tricks of two cards
