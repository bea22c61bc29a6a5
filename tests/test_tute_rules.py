"""Every Tute rule of RULES.md (section Tute) and seeds/tute.txt, one or more tests each.

Most tests build the deal by hand (``game.new_hand(deal=...)``) so that the
play is forced or easy to script, then play a script of ``seat:action``
tokens (:func:`run`).  Pairs deals are four hands (the dealer's has 9 cards)
and the shown trump card, which the dealer holds; two-player deals are the
two hands of 8, the upcard, then the 23 stock cards from the top.  Seats are
clockwise 0..N-1 and play passes counter-clockwise: after seat ``s`` comes
``s - 1``.  With dealer 0 the pairs order is 3, 2, 1, 0 and seat 1 leads in
two-player games.

The card points are written out again here (not imported from the engine),
so the tests check the engine against a second reading of the rules.
"""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest

import tricktaker as tt

DECK = tt.SPANISH_40
STRENGTH = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
"""Ranks from strongest to weakest (RULES.md: A(1) 3 R(12) C(11) S(10) 7 6 5 4 2)."""
WEAK_FIRST = tuple(reversed(STRENGTH))
CARD_POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2, 7: 0, 6: 0, 5: 0, 4: 0, 2: 0}


def tute(**options) -> tt.Game:
    return tt.new_game("tute", **options)


def habanero(**options) -> tt.Game:
    return tt.new_game("tute", preset="habanero", **options)


def cards(text: str) -> list[str]:
    return [c.text for c in DECK.cards_from_text(text)]


def rank(card: str) -> int:
    return int(card[:-1])


def _rest(used: set[str], fill: str) -> list[str]:
    """The cards not in ``used``: suits in ``fill`` order first, weakest first within a suit."""
    suits = fill + "".join(s for s in "OCEB" if s not in fill)
    rest = [f"{r}{s}" for s in suits for r in WEAK_FIRST]
    return [c for c in rest if c not in used]


def pairs_deal(hands: dict[int, str], trump_card: str, dealer: int = 0, fill: str = "OCEB") -> list[str]:
    """A pairs deal: the listed cards per seat, the shown trump card (the dealer's tenth card),
    and the rest dealt to the seats short of 10 (seats 0..3 in turn; see :func:`_rest`)."""
    listed = {s: cards(hands.get(s, "")) for s in range(4)}
    used = {c for h in listed.values() for c in h} | {trump_card}
    assert len(used) == sum(map(len, listed.values())) + 1, "a card is listed twice"
    rest = _rest(used, fill)
    piles = []
    for s in range(4):
        need = (9 if s == dealer else 10) - len(listed[s])
        assert need >= 0, f"seat {s} has too many cards"
        piles.append(" ".join(listed[s] + rest[:need]))
        rest = rest[need:]
    assert not rest
    return [*piles, trump_card]


def two_deal(hands: dict[int, str], up: str, stock: str = "", fill: str = "OCEB") -> list[str]:
    """A two-player deal: hands of 8 (filled up as in :func:`pairs_deal`), the upcard, and the
    stock with ``stock`` on top and the remaining cards below, one pile per card."""
    listed = {s: cards(hands.get(s, "")) for s in range(2)}
    top = cards(stock)
    used = {c for h in listed.values() for c in h} | {up} | set(top)
    assert len(used) == len(listed[0]) + len(listed[1]) + 1 + len(top), "a card is listed twice"
    rest = _rest(used, fill)
    piles = []
    for s in range(2):
        need = 8 - len(listed[s])
        piles.append(" ".join(listed[s] + rest[:need]))
        rest = rest[need:]
    return [*piles, up, *top, *rest]


def action_text(token: str) -> str:
    """Script shorthand: a card is ``play``, ``40`` is ``sing 40``, ``20C`` is ``sing 20 C``."""
    if token == "40":
        return "sing 40"
    if token.startswith("20"):
        return f"sing 20 {token[2:]}"
    if token in ("pass", "tute", "exchange"):
        return token
    return f"play {token}"


def run(state: tt.State, script: str, auto_pass: bool = True) -> None:
    """Play ``seat:token`` tokens, checking whose turn it is.  With ``auto_pass``, pairs
    declaration windows that the script does not mention are passed through."""
    for token in script.split():
        seat, what = token.split(":")
        text = action_text(what)
        if auto_pass and not text.startswith(("sing", "tute", "pass")):
            while state.phase == "declare":
                state.apply("pass")
        assert state.current_player == int(seat), (token, state.current_player, state.phase)
        state.apply(text, seat=int(seat))


def legal(state: tt.State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def legal_plays(state: tt.State) -> set[str]:
    return {a.split()[1] for a in legal(state) if a.startswith("play ")}


def hand(state: tt.State, seat: int) -> set[str]:
    return {c.text for c in state.hand(seat)}


def snapshot(state: tt.State) -> tuple:
    return (
        state.to_json(),
        [state.observation(s) for s in range(state.num_players)],
        state.observation(None),
        legal(state),
        state.current_player,
        state.phase,
    )


def assert_illegal(state: tt.State, action: str, *fragments: str, seat: int | None = None) -> str:
    """The action raises IllegalActionError mentioning every fragment, and nothing changes."""
    before = snapshot(state)
    with pytest.raises(tt.IllegalActionError) as info:
        state.apply(action, seat=seat)
    msg = str(info.value)
    for fragment in fragments:
        assert fragment in msg, (fragment, msg)
    assert snapshot(state) == before, "a rejected action changed the state"
    return msg


def last_trick(state: tt.State) -> dict:
    return state.observation(None)["tricks"][-1]


def result(state: tt.State) -> dict:
    return json.loads(state.to_json())["hands"][-1]["result"]


def play_out(state: tt.State, rng: random.Random) -> None:
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))


# -- the deck, strength and card points ----------------------------------------------------


def test_spanish_deck_has_40_cards_without_eights_and_nines():
    game = tute()
    assert game.deck is DECK and len(DECK) == 40
    assert {c.rank.value for c in DECK.cards} == set(STRENGTH)
    assert [s.letter for s in DECK.suits] == ["O", "C", "E", "B"]
    assert [s.name for s in DECK.suits] == ["oros", "copas", "espadas", "bastos"]
    for bad in ("8O", "9C", "13E", "0B", "AS"):
        with pytest.raises(tt.CardParseError):
            DECK.card(bad)
    assert DECK.card("1o").text == "1O" and DECK.card(" 12e ").text == "12E"
    assert tute().pile_sizes(0) == [9, 10, 10, 10, 1]
    assert tute().pile_sizes(2) == [10, 10, 9, 10, 1]
    assert habanero().pile_sizes(1) == [8, 8, 1] + [1] * 23
    deal = pairs_deal({1: "2C"}, "2O")
    deal[1] = " ".join("8C" if c == "2C" else c for c in deal[1].split())
    with pytest.raises(ValueError, match="8C"):
        tute().new_hand(deal=deal)


@pytest.mark.parametrize("players", [2, 4])
def test_every_deal_holds_the_40_cards_once(players):
    for seed in range(20):
        state = tute(players=players).new_match(seed=seed, dealer=seed % players)
        deal = json.loads(state.to_json())["hands"][0]["deal"]
        dealt = [c for pile in deal for c in pile.split()]
        assert sorted(dealt) == sorted(c.text for c in DECK.cards)


def test_strength_order_1_3_12_11_10_7_6_5_4_2():
    """Seat 1 leads, seat 0 must follow with its only copa; the stronger card wins."""
    for hi, lo in combinations(STRENGTH, 2):
        for lead, follow, winner in ((f"{lo}C", f"{hi}C", 0), (f"{hi}C", f"{lo}C", 1)):
            state = habanero().new_hand(deal=two_deal({0: follow, 1: lead}, "2E", fill="OB"))
            state.apply(f"play {lead}", seat=1)
            assert legal(state) == [f"play {follow}"]
            state.apply(f"play {follow}", seat=0)
            assert last_trick(state)["winner"] == winner, (lead, follow)


def test_any_trump_beats_every_card_of_another_suit():
    state = habanero().new_hand(deal=two_deal({0: "2E", 1: "1C"}, "4E", fill="OB"))
    run(state, "1:1C 0:2E")
    assert last_trick(state)["winner"] == 0
    # a card of a third suit loses to the card led
    state = habanero().new_hand(deal=two_deal({0: "1B", 1: "2C"}, "4E", fill="O"))
    run(state, "1:2C")
    assert legal_plays(state) == hand(state, 0)  # no copas, no espadas: anything
    run(state, "0:1B")
    assert last_trick(state)["winner"] == 1


@pytest.mark.parametrize(
    ("lead", "follow", "winner", "points"),
    [("1C", "3C", 1, 21), ("12C", "11C", 1, 7), ("10C", "7C", 1, 2), ("6C", "5C", 1, 0),
     ("4C", "2C", 1, 0), ("2C", "1C", 0, 11), ("7C", "3C", 0, 10), ("11C", "12C", 0, 7)],
)
def test_card_points_as_11_tres_10_rey_4_caballo_3_sota_2_others_0(lead, follow, winner, points):
    state = habanero().new_hand(deal=two_deal({0: follow, 1: lead}, "2E", fill="OB"))
    run(state, f"1:{lead} 0:{follow}")
    assert points == CARD_POINTS[rank(lead)] + CARD_POINTS[rank(follow)]
    expected = [0, 0]
    expected[winner] = points
    assert state.observation(None)["points"] == expected


@pytest.mark.parametrize("players", [2, 4])
def test_card_points_add_up_to_120_and_130_with_the_last_trick(players):
    for seed in range(40):
        state = tute(players=players, tute=False).new_hand(seed=seed)
        play_out(state, random.Random(seed))
        res = result(state)
        public = state.observation(None)
        taken = [0, 0]
        for t in public["tricks"]:
            side = t["winner"] % 2 if players == 4 else t["winner"]
            taken[side] += sum(CARD_POINTS[rank(c)] for _, c in t["cards"])
        assert res["cards"] == taken and sum(taken) == 120
        sung = sum(int(text.split()[1]) for _, text in res["declarations"])
        assert sum(res["points"]) == 130 + sung
        last = public["tricks"][-1]["winner"]
        assert res["last_trick"] == (last % 2 if players == 4 else last)
        assert len(public["tricks"]) == (10 if players == 4 else 20)


# -- direction, dealer, trump card, first lead ------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_pairs_play_passes_counter_clockwise_and_the_first_lead_is_after_the_dealer(dealer):
    state = tute().new_hand(seed=dealer, dealer=dealer)
    assert state.dealer == dealer
    leader = (dealer - 1) % 4
    assert state.current_player == leader
    order = []
    for _ in range(4):
        order.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert order == [leader, (leader - 1) % 4, (leader - 2) % 4, (leader - 3) % 4]
    winner = last_trick(state)["winner"]
    while state.phase == "declare":
        state.apply("pass")
    assert state.current_player == winner  # the trick winner leads next


@pytest.mark.parametrize("dealer", [0, 1])
def test_two_players_the_non_dealer_leads_first(dealer):
    state = habanero().new_hand(seed=5, dealer=dealer)
    assert state.current_player == 1 - dealer
    state.apply(state.legal_actions()[0])
    assert state.current_player == dealer


@pytest.mark.parametrize(("players", "dealer"), [(4, 0), (4, 2), (2, 1)])
def test_the_deal_passes_counter_clockwise_from_round_to_round(players, dealer):
    state = tute(players=players, rounds_to_win=4).new_match(seed=11, dealer=dealer)
    play_out(state, random.Random(11))
    hands = json.loads(state.to_json())["hands"]
    assert len(hands) >= 4
    assert [h["dealer"] for h in hands] == [(dealer - i) % players for i in range(len(hands))]


def test_pairs_trump_card_is_the_dealers_last_card_held_by_the_dealer_and_shown():
    deal = pairs_deal({2: "1O 3O"}, "5C", dealer=2)
    state = tute().new_hand(deal=deal, dealer=2)
    assert state.trump == "C"
    assert "5C" in hand(state, 2) and len(state.hand(2)) == 10
    for viewer in (0, 1, 2, 3, None):
        obs = state.observation(viewer)
        assert obs["trump"] == "C" and obs["trump_card"] == "5C"
        assert obs["shown"] == [[], [], ["5C"], []]
        assert obs["hand_sizes"] == [10, 10, 10, 10]
    # once the dealer plays it, it is no longer shown in the hand; trumps stay
    rng = random.Random(1)
    while "5C" in hand(state, 2):
        if state.current_player == 2 and "play 5C" in legal(state):
            state.apply("play 5C")
        else:
            choices = [a for a in state.legal_actions() if str(a) != "play 5C"] or state.legal_actions()
            state.apply(rng.choice(choices))
    obs = state.observation(0)
    assert obs["shown"][2] == [] and obs["trump"] == "C" and obs["trump_card"] == "5C"


def test_two_players_the_trump_upcard_lies_under_the_stock_and_is_public():
    deal = two_deal({}, "11B", stock="1O 3O")
    state = habanero().new_hand(deal=deal, dealer=0)
    assert state.trump == "B" and state.stock_size == 24
    assert all("11B" not in hand(state, s) for s in (0, 1))
    for viewer in (0, 1, None):
        obs = state.observation(viewer)
        assert obs["trump_card"] == "11B" and obs["stock_size"] == 24 and obs["hand_sizes"] == [8, 8]
        assert '"1O"' not in json.dumps(obs)  # the stock is face down


# -- duties in pairs -----------------------------------------------------------------------------

# dealer 0, trump card 2O (seat 0's): the order of play is 3, 2, 1, 0.
FOLLOW_DEAL = {3: "5C 3C 11C 10C", 2: "12C 2C", 1: "1C 7C", 0: "4C 6C"}


def test_pairs_must_follow_suit_and_beat_the_best_card_of_the_suit_led():
    state = tute().new_hand(deal=pairs_deal(FOLLOW_DEAL, "2O", fill="OEB"))
    run(state, "3:5C")
    assert legal_plays(state) == {"12C"}  # holds 12C and 2C: must beat the 5C
    assert_illegal(state, "play 2C", "must beat the best copas", "2C")
    assert_illegal(state, "play 1E", "must beat the best copas", "1E")
    run(state, "2:12C")
    assert legal_plays(state) == {"1C"}  # must beat the 12C, not only the 5C
    run(state, "1:1C")
    assert legal_plays(state) == {"4C", "6C"}  # cannot beat the 1C: any copa
    assert_illegal(state, "play 2O", "must follow suit")
    run(state, "0:4C")
    assert last_trick(state)["winner"] == 1


def test_pairs_void_must_trump_and_overtrump_the_best_trump():
    deal = pairs_deal({3: "1C 3C 12C 11C 10C 7C 6C 5C 4C 2C", 2: "1O 3O 11O 10O 4O",
                       1: "12O 5O", 0: "7O 6O"}, "2O", fill="EB")
    state = tute().new_hand(deal=deal)
    run(state, "3:1C")
    assert legal_plays(state) == {"1O", "3O", "11O", "10O", "4O"}  # no copas: any trump
    assert_illegal(state, "play 1B", "must trump", "copas", "oros")
    run(state, "2:11O")
    assert legal_plays(state) == {"12O"}  # must beat the 11O
    assert_illegal(state, "play 5O", "must overtrump")
    run(state, "1:12O")
    assert legal_plays(state) == {"7O", "6O", "2O"}  # cannot overtrump: still a trump
    assert_illegal(state, "play 2E", "must trump")
    run(state, "0:2O")
    assert last_trick(state)["winner"] == 1


def test_pairs_must_overtrump_off_any_trump_will_do():
    deal = pairs_deal({3: "1C 3C 12C 11C 10C 7C 6C 5C 4C 2C", 2: "1O 3O 11O 10O 4O",
                       1: "12O 5O", 0: "7O 6O"}, "2O", fill="EB")
    state = tute(must_overtrump=False).new_hand(deal=deal)
    run(state, "3:1C 2:11O")
    assert legal_plays(state) == {"12O", "5O"}
    run(state, "1:5O")
    assert legal_plays(state) == {"7O", "6O", "2O"}
    run(state, "0:2O")
    assert last_trick(state)["winner"] == 2


def test_pairs_void_without_trumps_may_play_anything():
    deal = pairs_deal({3: "1C 3C 12C 11C 10C 7C 6C 5C 4C 2C", 2: "1E 3E 12E 11E 10E 7E 6E 5E 4E 2E"},
                      "2O", fill="OB")
    state = tute().new_hand(deal=deal)
    run(state, "3:4C")
    assert legal_plays(state) == hand(state, 2)


def test_pairs_must_beat_the_suit_led_even_after_someone_trumped():
    """RULES.md: follow suit and beat the best card of the led suit if possible."""
    deal = pairs_deal({3: "5C 3C 11C 10C 6C", 2: "2O 4O", 1: "12C 4C", 0: "7C 2C"}, "1O", fill="EB")
    state = tute().new_hand(deal=deal)
    run(state, "3:5C 2:2O")
    assert legal_plays(state) == {"12C"}
    run(state, "1:12C")
    assert legal_plays(state) == {"7C", "2C"}
    run(state, "0:2C")
    assert last_trick(state)["winner"] == 2


@pytest.mark.parametrize("exception", [False, True])
def test_pairs_partner_exception_only_following_suit_when_the_partner_wins(exception):
    assert tute().options["partner_exception"] is False  # off by default
    # seat 3 leads 5C, seat 2 cannot beat it: seat 3's partner seat 1 plays to a winning partner
    deal = pairs_deal({3: "5C 1C 3C 11C 10C", 2: "2C", 1: "12C 4C", 0: "7C 6C"}, "2O", fill="OEB")
    state = tute(partner_exception=exception).new_hand(deal=deal)
    run(state, "3:5C 2:2C")
    assert legal_plays(state) == ({"12C", "4C"} if exception else {"12C"})
    if not exception:
        assert_illegal(state, "play 4C", "must beat")
    # the partner is not winning (seat 2 trumped): every duty holds, with the option too
    deal = pairs_deal({3: "5C 1C 3C 11C 10C 6C 2C 7C", 2: "4O", 1: "12C 4C"}, "2O", fill="EBO")
    state = tute(partner_exception=exception).new_hand(deal=deal)
    run(state, "3:5C 2:4O")
    assert legal_plays(state) == {"12C"}


@pytest.mark.parametrize("exception", [False, True])
def test_pairs_partner_exception_void_partner_need_not_trump(exception):
    deal = pairs_deal({3: "5C 3C 11C 10C 1C 12C 4C 7C 6C", 2: "2C", 1: "3O 4O"}, "2O", fill="EBO")
    state = tute(partner_exception=exception).new_hand(deal=deal)
    run(state, "3:5C 2:2C")
    assert not any(c.endswith("C") for c in hand(state, 1))
    assert legal_plays(state) == (hand(state, 1) if exception else {"3O", "4O"})


# -- duties in two-player games --------------------------------------------------------------


@pytest.mark.parametrize(
    ("follower", "expected"),
    [
        ("12C 2C", {"12C"}),  # follow suit and beat if possible
        ("4C 2C", {"4C", "2C"}),  # follow suit when it cannot beat
        ("3E 2E", {"3E", "2E"}),  # void: trump
        ("", None),  # void and no trump: anything
    ],
)
def test_two_players_second_player_follows_beats_else_trumps(follower, expected):
    # trumps espadas; the fill gives only oros and bastos
    state = habanero().new_hand(deal=two_deal({0: follower, 1: "7C"}, "5E", fill="OB"))
    run(state, "1:7C")
    assert legal_plays(state) == (expected if expected is not None else hand(state, 0))


def test_two_players_duties_hold_while_the_stock_lasts_and_free_while_stock_lifts_them():
    hands = {0: "12C 2C", 1: "7C 1C 3C 11C 10C 6C 5C 4C"}
    state = habanero().new_hand(deal=two_deal(hands, "4E", fill="OB"))
    assert state.stock_size == 24
    run(state, "1:7C")
    assert legal_plays(state) == {"12C"}
    state = habanero(free_while_stock=True).new_hand(deal=two_deal(hands, "4E", fill="OB"))
    run(state, "1:7C")
    assert legal_plays(state) == hand(state, 0)
    # after the last draw the duties apply again
    rng = random.Random(4)
    checked = 0
    while not state.is_over():
        if state.observation(None)["trick"] and state.phase == "play":
            lead = state.observation(None)["trick"][0][1]
            seat = state.current_player
            same = {c for c in hand(state, seat) if c[-1] == lead[-1]}
            if state.stock_size:
                assert legal_plays(state) == hand(state, seat)
            else:
                beat = {c for c in same if STRENGTH.index(rank(c)) < STRENGTH.index(rank(lead))}
                trumps = {c for c in hand(state, seat) if c[-1] == state.trump}
                assert legal_plays(state) == (beat or same or trumps or hand(state, seat))
                checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked


# -- drawing --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_two_players_winner_draws_first_loser_second_last_loser_draw_is_the_upcard(seed):
    state = habanero().new_hand(seed=seed)
    deal = json.loads(state.to_json())["hands"][0]["deal"]
    up, stock = deal[2], deal[3:]
    rng = random.Random(seed)
    drawn = 0
    while state.stock_size:
        actions = [a for a in state.legal_actions() if a.kind != "exchange"]
        action = rng.choice(actions)
        tricks = len(state.observation(None)["tricks"])
        before = [hand(state, s) for s in (0, 1)]
        state.apply(action)
        if len(state.observation(None)["tricks"]) == tricks:
            continue
        winner = last_trick(state)["winner"]
        played = {c for _, c in last_trick(state)["cards"]}
        new = [hand(state, s) - (before[s] - played) for s in (0, 1)]
        assert new[winner] == {stock[drawn]}
        expected = stock[drawn + 1] if drawn + 1 < len(stock) else up
        assert new[1 - winner] == {expected}
        drawn += 2
        if drawn == 24:
            assert state.observation(None)["trump_card"] is None  # the loser took the upcard
            assert up in hand(state, 1 - winner)
    assert drawn == 24
    assert [len(state.hand(s)) for s in (0, 1)] == [8, 8]


# -- the exchange ------------------------------------------------------------------------------


@pytest.mark.parametrize("up", ["1O", "3O", "12O", "11O", "10O"])
def test_exchange_the_seven_of_trumps_for_an_upcard_above_seven(up):
    state = habanero().new_hand(deal=two_deal({1: "7O 2O"}, up, fill="CEB"))
    assert "exchange" in legal(state)
    state.apply("exchange", seat=1)
    assert up in hand(state, 1) and "7O" not in hand(state, 1)
    obs = state.observation(0)
    assert obs["trump_card"] == "7O" and obs["exchanges"] == [[1, "7O", up]]
    assert up in obs["shown"][1]
    assert state.current_player == 1 and state.trump == "O"
    # the 7 is now the upcard: the 2 may be exchanged for it later
    assert "exchange" in legal(state)
    state.apply("exchange")
    assert state.observation(0)["trump_card"] == "2O" and "7O" in hand(state, 1)


@pytest.mark.parametrize("up", ["7O", "6O", "5O", "4O"])
def test_exchange_the_two_of_trumps_for_an_upcard_seven_to_four(up):
    seven = "" if up == "7O" else "7O "
    state = habanero().new_hand(deal=two_deal({1: seven + "2O"}, up, fill="CEB"))
    assert legal(state).count("exchange") == 1
    state.apply("exchange")
    assert up in hand(state, 1) and state.observation(None)["trump_card"] == "2O"
    assert "exchange" not in legal(state)  # the 7 cannot be exchanged for a 2


@pytest.mark.parametrize(("held", "up"), [("7O", "5O"), ("7O", "2O"), ("2O", "1O"), ("2O", "10O"),
                                          ("3O", "1O"), ("6O", "5O")])
def test_no_exchange_for_other_cards(held, up):
    state = habanero().new_hand(deal=two_deal({1: held}, up, fill="CEB"))
    assert "exchange" not in legal(state)
    assert_illegal(state, "exchange", "exchange is not possible now")


def test_exchange_only_by_the_player_about_to_lead():
    deal = two_deal({0: "7O 2C", 1: "5C 4C"}, "1O", fill="EB")
    state = habanero().new_hand(deal=deal, dealer=0)
    assert "exchange" not in legal(state)  # seat 1 leads and has no 7O
    assert_illegal(state, "exchange", "not your turn", seat=0)
    run(state, "1:5C")
    assert "exchange" not in legal(state)  # seat 0 holds the 7 but is second to the trick
    assert_illegal(state, "exchange", "exchange is not possible now")
    run(state, "0:2C")
    assert last_trick(state)["winner"] == 1
    assert state.current_player == 1 and "exchange" not in legal(state)
    # pairs: no exchange at all
    state = tute().new_hand(deal=pairs_deal({3: "7O"}, "1O"))
    assert "exchange" not in legal(state)
    assert_illegal(state, "exchange", "not possible now")


def _habanero_state_where(predicate, avoid, seeds=range(400)):
    """The first state (by seed, then by move) of habanero play that satisfies ``predicate``.

    The policy never exchanges nor sings and avoids playing the cards ``avoid(state)``
    when it can, so those cards stay in the hands late into the round.
    """
    for seed in seeds:
        state = habanero().new_hand(seed=seed)
        rng = random.Random(seed)
        while not state.is_over() and state.stock_size:
            if predicate(state):
                return state
            plays = [a for a in state.legal_actions() if a.kind == "play"]
            keep = avoid(state)
            choices = [a for a in plays if a.card.text not in keep] or plays
            state.apply(rng.choice(choices))
    raise AssertionError("no such state in the seeds tried")


def _leader_can_exchange_seven(state, stock_size: int) -> bool:
    seat = state.current_player
    up = state.observation(None)["trump_card"]
    return (state.stock_size == stock_size and not state.observation(None)["trick"]
            and f"7{state.trump}" in hand(state, seat) and up is not None and rank(up) in (1, 3, 12, 11, 10))


def test_exchange_only_while_more_than_two_cards_are_in_the_stock():
    def keep(state):
        return {f"7{state.trump}"}

    state = _habanero_state_where(lambda s: _leader_can_exchange_seven(s, 4), keep)
    assert "exchange" in legal(state)  # four left (3 + the upcard): allowed
    state = _habanero_state_where(lambda s: _leader_can_exchange_seven(s, 2), keep)
    assert "exchange" not in legal(state)  # two left: no more
    assert_illegal(state, "exchange", "more than two cards are in the stock")


# -- declarations ------------------------------------------------------------------------------

# Pairs, dealer 0, trump card 2O held by seat 0; order 3, 2, 1, 0.
# Seat 2 holds las cuarenta (12O 11O) and a veinte (12C 11C); seat 1 a veinte in espadas,
# seat 3 one in bastos.  Trick 1 (3:4B 2:1B 1:2B 0:5B) goes to seat 2, trick 2
# (2:10C 1:1C 0:6C 3:2C) to seat 1, trick 3 (1:4E 0:6O 3:10E 2:7E) to seat 0.
SING_DEAL = [
    "1O 3O 10O 7O 6O 3C 6C 6B 5B",
    "12E 11E 1E 3E 4E 2E 1C 7C 2B 10B",
    "12O 11O 12C 11C 10C 1B 3B 7E 6E 5E",
    "5O 4O 5C 4C 2C 10E 4B 12B 11B 7B",
    "2O",
]
TRICK_1 = "3:4B 2:1B 1:2B 0:5B"
TRICK_2 = "2:10C 1:1C 0:6C 3:2C"
TRICK_3 = "1:4E 0:6O 3:10E 2:7E"


def test_pairs_no_declaration_before_a_side_has_won_a_trick():
    state = tute().new_hand(deal=SING_DEAL)
    assert all(not a.startswith(("sing", "tute")) for a in legal(state))
    assert_illegal(state, "sing 20 B", "not possible now", "right after your side wins a trick")
    run(state, "3:4B 2:1B")
    assert_illegal(state, "sing 20 E", "not possible now")  # seat 1, mid-trick, no trick won


def test_pairs_the_winner_then_the_partner_may_declare_before_the_next_lead():
    state = tute().new_hand(deal=SING_DEAL)
    run(state, TRICK_1)
    assert state.phase == "declare" and state.current_player == 2  # the winner first
    assert legal(state) == ["sing 40", "sing 20 C", "pass"]
    assert_illegal(state, "play 10C", "may declare (sing, tute) or pass")
    run(state, "2:pass", auto_pass=False)
    assert state.phase == "declare" and state.current_player == 0  # then the partner
    assert legal(state) == ["pass"]
    run(state, "0:pass", auto_pass=False)
    assert state.phase == "play" and state.current_player == 2  # then the winner leads
    assert_illegal(state, "sing 40", "not possible now")  # too late: the window is closed
    run(state, TRICK_2)
    # side 1 won: seat 1 then seat 3 may sing; side 0 is not asked
    asked = []
    while state.phase == "declare":
        seat = state.current_player
        asked.append(seat)
        assert legal(state) == [{1: "sing 20 E", 3: "sing 20 B"}[seat], "pass"]
        state.apply(legal(state)[0])
        assert state.current_player == seat and legal(state) == ["pass"]  # more, or pass
        state.apply("pass")
    assert asked == [1, 3] and state.current_player == 1 and state.phase == "play"
    decl = state.observation(None)["declarations"]
    assert decl == [[1, "sing 20 E"], [3, "sing 20 B"]]
    assert state.observation(None)["points"] == [11, 13 + 40]


def test_pairs_partner_may_declare_when_the_winner_cannot():
    state = tute().new_hand(deal=SING_DEAL)
    run(state, TRICK_1 + " 2:pass 0:pass " + TRICK_2, auto_pass=False)
    run(state, "1:pass 3:pass", auto_pass=False)
    run(state, TRICK_3, auto_pass=False)
    assert last_trick(state)["winner"] == 0
    run(state, "0:pass", auto_pass=False)
    assert state.current_player == 2 and legal(state) == ["sing 40", "sing 20 C", "pass"]
    run(state, "2:40 2:20C 2:pass", auto_pass=False)
    assert state.current_player == 0 and state.phase == "play"
    public = state.observation(None)
    assert public["declarations"] == [[2, "sing 40"], [2, "sing 20 C"]]
    assert public["shown"][2] == ["12O", "11O", "12C", "11C"]  # sung cards are public


def test_las_cuarenta_is_40_and_a_veinte_20_and_each_suit_is_sung_once():
    state = tute().new_hand(deal=SING_DEAL)
    run(state, TRICK_1)
    assert state.observation(None)["points"] == [11, 0]
    run(state, "2:40", auto_pass=False)
    assert state.observation(None)["points"] == [51, 0]
    assert legal(state) == ["sing 20 C", "pass"]  # oros are sung
    assert_illegal(state, "sing 40", "already been sung")
    run(state, "2:20C", auto_pass=False)
    assert state.observation(None)["points"] == [71, 0]
    assert legal(state) == ["pass"]
    assert_illegal(state, "sing 20 C", "already been sung")
    assert_illegal(state, "sing 20 O", "sing 40 for them")
    assert_illegal(state, "sing 20 E", "does not hold")
    run(state, "2:pass 0:pass " + TRICK_2 + " 1:pass 3:pass " + TRICK_3 + " 0:pass", auto_pass=False)
    assert state.current_player == 2 and {"12O", "11O", "12C", "11C"} <= hand(state, 2)
    assert legal(state) == ["pass"]  # still held, but both suits have been sung


def test_pairs_a_side_that_sang_a_veinte_cannot_later_sing_las_cuarenta():
    state = tute().new_hand(deal=SING_DEAL)
    run(state, TRICK_1 + " 2:20C", auto_pass=False)
    assert legal(state) == ["pass"]  # the higher goes first
    assert_illegal(state, "sing 40", "las cuarenta cannot follow a veinte")
    run(state, "2:pass 0:pass " + TRICK_2 + " 1:pass 3:pass " + TRICK_3, auto_pass=False)
    assert last_trick(state)["winner"] == 0
    run(state, "0:pass", auto_pass=False)
    assert state.current_player == 2 and legal(state) == ["pass"]  # still not, in a later window
    assert_illegal(state, "sing 40", "las cuarenta cannot follow a veinte")


def test_pairs_the_order_rule_binds_only_the_side_that_sang_the_veinte():
    # seat 1 (side 1) now holds las cuarenta; side 0 sings a veinte first
    deal = list(SING_DEAL)
    deal[1] = "12O 11O 1E 3E 4E 2E 1C 7C 2B 10B"
    deal[2] = "12E 11E 12C 11C 10C 1B 3B 7E 6E 5E"
    state = tute().new_hand(deal=deal)
    run(state, TRICK_1 + " 2:20C 2:pass 0:pass " + TRICK_2, auto_pass=False)
    assert state.current_player == 1 and legal(state) == ["sing 40", "pass"]
    run(state, "1:40", auto_pass=False)


# Two players, dealer 0: seat 1 leads.  Upcard 5O (trumps oros).
def _two_sing_state(seat1: str, seat0: str = "2B 4B 2E 4E 5C 6C 7C 10C", stock: str = "7B 6B 5B 7E"):
    return habanero().new_hand(deal=two_deal({1: seat1, 0: seat0}, "5O", stock=stock, fill="EB"))


def sings(state: tt.State) -> list[str]:
    return [a for a in legal(state) if a.startswith(("sing", "tute"))]


def test_two_players_declare_only_after_winning_a_trick_and_before_the_next_lead():
    state = _two_sing_state("1B 1E 12O 11O 3B 3E 4C 12C")
    assert sings(state) == []  # no trick won yet
    assert_illegal(state, "sing 40", "not possible now", "more than two cards are in the stock")
    run(state, "1:1B 0:2B")
    assert state.current_player == 1 and sings(state) == ["sing 40"]
    run(state, "1:1E")
    assert_illegal(state, "sing 40", "not possible now")  # after the lead: too late
    run(state, "0:2E 1:40")
    assert state.observation(None)["points"] == [0, 22 + 40]


def test_two_players_only_the_winner_of_the_trick_may_declare():
    state = _two_sing_state("1B 1E 3B 3E 4C 2O 6O 7O", seat0="2B 12C 11C 2E 4E 5C 6C 7C")
    run(state, "1:1B 0:2B")
    assert state.current_player == 1 and sings(state) == []
    assert_illegal(state, "sing 20 C", "not your turn", seat=0)
    assert_illegal(state, "sing 20 C", "seat 1 does not hold")
    run(state, "1:4C")
    assert sings(state) == []
    assert_illegal(state, "sing 20 C", "not possible now")  # seat 0 has not won a trick
    run(state, "0:5C")
    assert state.current_player == 0 and sings(state) == ["sing 20 C"]
    run(state, "0:20C")
    assert state.observation(None)["points"] == [20, 11]


def test_two_players_forty_after_a_veinte_only_in_a_later_pause():
    state = _two_sing_state("1B 1E 12O 11O 12C 11C 3B 3E")
    run(state, "1:1B 0:2B")
    assert sings(state) == ["sing 40", "sing 20 C"]
    run(state, "1:20C")
    assert sings(state) == []
    assert_illegal(state, "sing 40", "las cuarenta cannot follow a veinte")
    run(state, "1:1E 0:2E")
    assert sings(state) == ["sing 40"]  # a new pause between tricks
    run(state, "1:40")
    assert state.observation(None)["points"] == [0, 22 + 60]


def test_two_players_forty_with_the_missing_card_drawn_after_a_veinte():
    """The seed's example: sing a veinte, draw the missing caballo, then sing las cuarenta."""
    state = _two_sing_state("1B 1E 12O 12C 11C 3B 3E 4C", stock="7B 6B 11O 5B")
    run(state, "1:1B 0:2B 1:20C")
    assert "11O" not in hand(state, 1)
    run(state, "1:1E 0:2E")
    assert "11O" in hand(state, 1)  # the winner of trick 2 drew the third stock card
    assert sings(state) == ["sing 40"]
    run(state, "1:40")


def test_two_players_declaring_ends_when_two_cards_are_left_in_the_stock():
    def holds_pair(state):
        seat = state.current_player
        h = hand(state, seat)
        return any(f"12{s}" in h and f"11{s}" in h for s in "OCEB")

    def pause(state, size):
        public = state.observation(None)
        return (state.stock_size == size and not public["trick"] and public["tricks"]
                and holds_pair(state))

    def keep(state):
        return {f"{r}{s}" for r in (12, 11) for s in "OCEB"}

    state = _habanero_state_where(lambda s: pause(s, 4), keep)
    assert any(a.startswith("sing") for a in legal(state))
    state = _habanero_state_where(lambda s: pause(s, 2), keep)
    assert not any(a.startswith("sing") for a in legal(state))
    suit = next(s for s in "OCEB" if {f"12{s}", f"11{s}"} <= hand(state, state.current_player))
    text = "sing 40" if suit == state.trump else f"sing 20 {suit}"
    assert_illegal(state, text, "more than two cards are in the stock")


# -- tute ----------------------------------------------------------------------------------------


def _tute_deal(kings: bool) -> list[str]:
    """SING_DEAL with seat 2's four reyes (or four caballos) in place of its pairs."""
    deal = list(SING_DEAL)
    if kings:
        deal[1] = "11O 11E 1E 3E 4E 2E 1C 7C 2B 10B"
        deal[2] = "12O 12E 12C 12B 10C 1B 3B 7E 6E 5E"
        deal[3] = "5O 4O 5C 4C 2C 10E 4B 11C 11B 7B"
    else:
        deal[1] = "12O 12E 1E 3E 4E 2E 1C 7C 2B 10B"
        deal[2] = "11O 11E 11C 11B 10C 1B 3B 7E 6E 5E"
        deal[3] = "5O 4O 5C 4C 2C 10E 4B 12C 12B 7B"
    return deal


@pytest.mark.parametrize("kings", [True, False])
def test_pairs_tute_four_kings_or_four_knights_wins_the_round_at_once(kings):
    state = tute().new_hand(deal=_tute_deal(kings))
    assert "tute" not in legal(state)
    run(state, TRICK_1)
    assert state.current_player == 2 and legal(state)[0] == "tute"
    run(state, "2:tute", auto_pass=False)
    assert state.is_over() and state.scores == (1, 0)
    res = result(state)
    assert res["tute"] == 2 and res["round_winner"] == 0
    assert res["declarations"] == [[2, "tute"]]
    assert res["last_trick"] is None and res["points"] == [11, 0]


def test_pairs_tute_by_the_partner_of_the_trick_winner_wins_the_round_and_the_match():
    deal = [
        "12O 12C 12E 12B 10O 7O 6O 6B 5B",
        "6C 11E 1E 3E 4E 2E 1C 7C 2B 10B",
        "1O 11O 3C 11C 10C 1B 3B 7E 6E 5E",
        "5O 4O 5C 4C 2C 10E 4B 3O 11B 7B",
        "2O",
    ]
    state = tute(rounds_to_win=2).new_hand(deal=deal, scores=(1, 1))
    run(state, TRICK_1 + " 2:pass", auto_pass=False)
    assert state.current_player == 0 and legal(state) == ["tute", "pass"]
    run(state, "0:tute", auto_pass=False)
    assert state.is_over() and state.winner == 0 and state.scores == (2, 1)
    assert result(state)["tute"] == 0


def test_tute_option_off_four_kings_are_nothing_special():
    state = tute(tute=False).new_hand(deal=_tute_deal(True))
    run(state, TRICK_1)
    assert "tute" not in legal(state)
    assert_illegal(state, "tute", "cannot declare tute")


def test_two_players_tute_wins_the_round():
    hands = {1: "1B 12O 12C 12E 12B 3E 4C 5C", 0: "2B 4E 5E 6E 7E 10E 11E 1E"}
    state = habanero().new_hand(deal=two_deal(hands, "5O", fill="EB"))
    run(state, "1:1B 0:2B")
    assert state.current_player == 1 and "tute" in legal(state)
    run(state, "1:tute")
    assert state.is_over() and result(state)["round_winner"] == 1 and state.scores == (0, 1)


# -- the worked example of the seed and the round winner -----------------------------------------

# Dealer 1 (seat 0 leads, order 0, 3, 2, 1), trumps oros by the dealer's shown 6O.
# Side 0 (seats 0 and 2) takes 2 sotas, no caballo, 1 rey, 3 treses and 2 ases, sings
# las cuarenta and wins the last trick: 4 + 0 + 4 + 30 + 22 + 40 + 10 = 110.
EXAMPLE_DEAL = [
    "3O 5O 4O 2O 7C 5C 1E 4E 1B 4B",
    "10O 12C 11C 6E 5E 6B 5B 4C 2C",
    "12O 11O 6C 10C 3E 11E 3B 11B 10E 2E",
    "1O 7O 1C 3C 7E 12E 7B 12B 10B 2B",
    "6O",
]
EXAMPLE_SCRIPT = """
    0:1E 3:7E 2:3E 1:6E   0:pass 2:40 2:pass
    0:1B 3:7B 2:3B 1:6B
    0:5O 3:1O 2:11O 1:10O
    3:1C 2:6C 1:12C 0:7C
    3:3C 2:10C 1:11C 0:5C
    3:12E 2:11E 1:5E 0:4E
    3:12B 2:11B 1:5B 0:4B
    3:7O 2:12O 1:6O 0:3O
    0:4O 3:10B 2:10E 1:4C
    0:2O 3:2B 2:2E 1:2C
"""


def test_seed_worked_example_110_round_points():
    state = tute().new_hand(deal=EXAMPLE_DEAL, dealer=1)
    run(state, EXAMPLE_SCRIPT)
    assert state.is_over()
    public = state.observation(None)
    baza = [c for t in public["tricks"] if t["winner"] % 2 == 0 for _, c in t["cards"]]
    count = {r: sum(rank(c) == r for c in baza) for r in (10, 11, 12, 3, 1)}
    assert count == {10: 2, 11: 0, 12: 1, 3: 3, 1: 2}  # sotas, caballos, reyes, treses, ases
    assert 2 * 2 + 0 * 3 + 1 * 4 + 3 * 10 + 2 * 11 + 40 + 10 == 110
    assert state.hand_points == (110, 60)
    res = result(state)
    assert res["cards"] == [60, 60] and res["declarations"] == [[2, "sing 40"]]
    assert res["last_trick"] == 0 and res["round_winner"] == 0 and res["tute"] is None
    assert state.scores == (1, 0) and state.winner is None  # one round of a match to 3


# The same round with seat 1 keeping 11C and 10C for the last two tricks, seat 1 singing a
# veinte in copas and seat 2 not singing: 65 + 10 against 55 + 20, a tie at 75.
TIE_DEAL = [
    "3O 5O 4O 2O 7C 5C 1E 4E 1B 4B",
    "10O 12C 11C 10C 4C 6E 5E 6B 5B",
    "12O 11O 6C 2C 3E 11E 3B 11B 10E 2E",
    "1O 7O 1C 3C 7E 12E 7B 12B 10B 2B",
    "6O",
]
TIE_SCRIPT = """
    0:1E 3:7E 2:3E 1:6E
    0:1B 3:7B 2:3B 1:6B
    0:5O 3:1O 2:11O 1:10O   3:pass 1:20C 1:pass
    3:1C 2:6C 1:12C 0:7C
    3:3C 2:2C 1:4C 0:5C
    3:12E 2:11E 1:5E 0:4E
    3:12B 2:11B 1:5B 0:4B
    3:7O 2:12O 1:6O 0:3O
    0:4O 3:10B 2:10E 1:11C
    0:2O 3:2B 2:2E 1:10C
"""


def test_round_goes_to_the_side_with_more_round_points():
    state = tute().new_hand(deal=EXAMPLE_DEAL, dealer=1)
    script = EXAMPLE_SCRIPT.replace("0:pass 2:40 2:pass", "0:pass 2:pass")
    run(state, script)
    assert state.hand_points == (70, 60) and result(state)["round_winner"] == 0


@pytest.mark.parametrize("tie_option", [True, False])
def test_equal_round_points_go_to_the_last_trick_side_or_nobody(tie_option):
    state = tute(tie_last_trick=tie_option).new_hand(deal=TIE_DEAL, dealer=1, scores=(1, 2))
    run(state, TIE_SCRIPT)
    assert state.hand_points == (75, 75)
    res = result(state)
    assert res["cards"] == [65, 55] and res["last_trick"] == 0
    if tie_option:
        assert res["round_winner"] == 0 and state.scores == (2, 2)
    else:
        assert res["round_winner"] is None and state.scores == (1, 2)


def test_tie_last_trick_is_on_by_default():
    assert tute().options["tie_last_trick"] is True
    assert habanero().options["tie_last_trick"] is True


# -- the match ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "target"), [(4, None), (2, None), (4, 1), (4, 6), (2, 6)])
def test_match_to_rounds_to_win_is_one_state(players, target):
    options = {"players": players}
    if target is not None:
        options["rounds_to_win"] = target
    game = tute(**options)
    goal = target or 3
    assert game.options["rounds_to_win"] == goal
    for seed in range(4):
        state = game.new_match(seed=seed)
        play_out(state, random.Random(seed))
        hands = json.loads(state.to_json())["hands"]
        sides = 2
        scores = [0] * sides
        for i, h in enumerate(hands):
            res = h["result"]
            points = res["points"]
            if res["tute"] is not None:
                expect = res["tute"] % 2 if players == 4 else res["tute"]
            elif points[0] != points[1]:
                expect = 0 if points[0] > points[1] else 1
            else:
                expect = res["last_trick"]
            assert res["round_winner"] == expect
            scores[expect] += 1
            assert res["scores"] == scores
            assert (max(scores) >= goal) == (i == len(hands) - 1)
        assert state.is_over() and state.scores == tuple(scores)
        assert state.winner == scores.index(goal) and max(scores) == goal


def test_match_scores_must_be_below_rounds_to_win():
    with pytest.raises(tt.OptionError):
        tute().new_hand(seed=1, scores=(3, 0))
    with pytest.raises(tt.OptionError):
        tute().new_hand(seed=1, scores=(0, -1))
    state = tute().new_hand(seed=1, scores=(2, 2))
    assert state.scores == (2, 2)


def test_single_round_state_ends_with_the_round_and_a_match_goes_on():
    state = tute().new_hand(deal=EXAMPLE_DEAL, dealer=1, scores=(2, 0))
    run(state, EXAMPLE_SCRIPT)
    assert state.is_over() and state.winner == 0 and state.scores == (3, 0)
    assert result(state)["match_over"] is True


# -- errors -------------------------------------------------------------------------------------


def test_errors_name_the_problem_and_leave_the_state_unchanged():
    state = tute().new_hand(deal=SING_DEAL)
    assert_illegal(state, "play 1O", "seat 3 cannot play 1O", "not in hand")
    assert_illegal(state, "play 8O", "'8o'")
    assert_illegal(state, "dance", "unknown action word")
    assert_illegal(state, "sing 30", "malformed")
    assert_illegal(state, "play 4B", "not your turn", seat=2)
    assert_illegal(state, "pass", "must play a card")
    run(state, TRICK_1)
    assert_illegal(state, "play 10C", "may declare (sing, tute) or pass")
    assert_illegal(state, "exchange", "may declare")
    state = tute().new_hand(deal=EXAMPLE_DEAL, dealer=1)
    run(state, EXAMPLE_SCRIPT)
    assert_illegal(state, "play 1O", "the game is over")
