"""The Tute rules bot: cantes, the trump exchange and card play on constructed hands, whole
matches in every variant, and a seeded duplicate duel against the random bot."""

from __future__ import annotations

import time

import pytest
from bot_helpers import play_match, rules_action, rules_against_random

import tricktaker as tt

ALL = [c.text for c in tt.SPANISH_40.cards]


def pairs_deal(*hands: str, trump: str) -> list[str]:
    """A pairs deal, dealer 0: the listed cards per seat, the rest filled in deck order; the
    dealer holds nine cards plus ``trump``, the shown trump card."""
    listed = [h.split() for h in hands] + [[] for _ in range(4 - len(hands))]
    used = {c for h in listed for c in h} | {trump}
    rest = [c for c in ALL if c not in used]
    for seat, h in enumerate(listed):
        need = (9 if seat == 0 else 10) - len(h)
        h += rest[:need]
        rest = rest[need:]
    return [" ".join(h) for h in listed] + [trump]


def habanero_deal(hand0: str, hand1: str, upcard: str) -> list[str]:
    """A habanero deal, dealer 0 (seat 1 leads): two hands, the upcard, the stock in deck order."""
    used = set(hand0.split()) | set(hand1.split()) | {upcard}
    return [hand0, hand1, upcard, *(c for c in ALL if c not in used)]


# -- declarations and the exchange -------------------------------------------------------


def test_sings_las_cuarenta_before_the_veinte():
    state = tt.new_game("tute", players=2).new_hand(
        deal=habanero_deal("7E 6E 5E 4E 2O 4O 5O 6O", "1E 12B 11B 12C 11C 7O 1O 3O", "7B"), dealer=0)
    state.apply("play 1E")
    state.apply("play 7E")
    assert state.current_player == 1
    assert rules_action(state) == "sing 40"  # bastos are trumps
    state.apply("sing 40")
    assert rules_action(state) == "sing 20 C"


def test_declares_tute_with_four_kings():
    state = tt.new_game("tute", players=2).new_hand(
        deal=habanero_deal("7E 6E 5E 4E 2O 4O 5O 6O", "1E 12O 12C 12E 12B 2B 4B 5B", "7B"), dealer=0)
    state.apply("play 1E")
    state.apply("play 7E")
    assert rules_action(state) == "tute"


def test_exchanges_the_seven_of_trumps_for_the_upcard():
    state = tt.new_game("tute", players=2).new_hand(
        deal=habanero_deal("7E 6E 5E 4E 2O 4O 5O 6O", "7B 12O 11O 12C 2C 2B 4B 5B", "1B"), dealer=0)
    assert "exchange" in [a.text for a in state.legal_actions()]
    assert rules_action(state) == "exchange"


def test_pairs_partner_sings_in_the_declare_phase():
    state = tt.new_game("tute").new_hand(
        deal=pairs_deal("6E", "12C 11C 5E", "4E", "1E", trump="2O"), dealer=0)
    for card in ("1E", "4E", "5E", "6E"):  # seat 3's as wins
        state.apply(f"play {card}")
    assert state.observation(None)["phase"] == "declare"
    while state.current_player != 1:
        state.apply(rules_action(state))
    assert rules_action(state) == "sing 20 C"


# -- card play -----------------------------------------------------------------------------


def test_loads_points_on_partners_sure_trick():
    # Trumps oros.  Seat 3 leads the as of copas; seat 1 (its partner) holds the tres and
    # a white copa, and seat 0 still holds copas, so the trick is safe: load the tres.
    state = tt.new_game("tute").new_hand(
        deal=pairs_deal("4C 5C", "3C 2C 1B 3B 12B 11B 7B 6B 5B 4B", "6C 7C", "1C", trump="2O"), dealer=0)
    state.apply("play 1C")
    state.apply("play 6C")
    assert state.current_player == 1
    assert rules_action(state) == "play 3C"


def test_trumps_a_point_trick_with_the_smallest_trump():
    # Trumps oros.  Seat 3 leads the tres of copas; seat 2 has no copas and must trump.
    state = tt.new_game("tute").new_hand(
        deal=pairs_deal("", "", "1O 2O 4O 1E 3E 12E 11E 10E 7E 6E", "3C", trump="5O"), dealer=0)
    state.apply("play 3C")
    assert state.current_player == 2
    assert rules_action(state) == "play 2O"


def test_dumps_a_white_card_on_a_lost_trick():
    # Seat 3 leads the as of copas; seat 2 cannot beat it and keeps its tres.
    state = tt.new_game("tute").new_hand(
        deal=pairs_deal("", "", "3C 7C 1E 3E 12E 11E 10E 1B 3B 12B", "1C", trump="2O"), dealer=0)
    state.apply("play 1C")
    assert rules_action(state) == "play 7C"


def test_keeps_the_rey_and_caballo_for_the_cante():
    # Seat 2 must follow espadas under the as: it keeps its marriage and gives the sota.
    state = tt.new_game("tute").new_hand(
        deal=pairs_deal("", "", "12E 11E 10E 1B 3B 12B 1O 3O 7O 6O", "1E", trump="2C"), dealer=0)
    state.apply("play 1E")
    assert rules_action(state) == "play 10E"


def test_habanero_second_player_wins_a_point_lead_cheaply():
    # Seat 1 leads the tres of bastos (trumps espadas); seat 0 beats it with the as.
    state = tt.new_game("tute", players=2).new_hand(
        deal=habanero_deal("1B 7E 2C 4C 5C 6C 7C 2O", "3B 4B 5B 6B 7B 2B 4O 5O", "10E"), dealer=0)
    state.apply("play 3B")
    assert rules_action(state) == "play 1B"


# -- whole matches and strength ------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {"preset": "pairs"}, {"preset": "habanero"},
    {"players": 2, "free_while_stock": True},
    {"partner_exception": True, "must_overtrump": False, "rounds_to_win": 2},
    {"tute": False, "tie_last_trick": False},
])
def test_rules_bots_play_a_whole_match(options):
    game = tt.new_game("tute", **options)
    start = time.perf_counter()
    state = play_match(game, ["rules"], seed=5)
    assert state.is_over() and state.winner is not None
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize("preset", ["pairs", "habanero"])
def test_rules_beats_random_over_duplicate_deals(preset):
    assert rules_against_random("tute", 30, preset=preset).low > 0
