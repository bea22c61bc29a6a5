"""Helpers for the Huutopussi rules tests: scripts, matches from hand-made deals, and the rules
written out again from RULES.md and the seed text.

Nothing here imports the engine's rules: the auction, the exchange, the duties, the calls and
the scoring are re-computed from the texts, so that the tests check the engine against a second
reading.  Cards are handled as text (``AS``, ``TH``): rank letter then suit letter.
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from typing import Any

import tricktaker as tt

SUITS = "SHDC"
STRONG_FIRST = "ATKQJ9876"
"""Ranks from strongest to weakest: A 10 K Q J 9 8 7 6."""
SUIT_CARDS = {s: " ".join(r + s for r in STRONG_FIRST) for s in SUITS}
FIVES = {"A": 10, "T": 10, "K": 5, "Q": 5, "J": 5}
PIPS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
MARRIAGES = {"spades_low": {"S": 40, "C": 60, "D": 80, "H": 100},
             "spades_high": {"S": 100, "H": 80, "D": 60, "C": 40}}
LAST_TRICK = 20
TARGET = 500
FLOOR = -500


def huutopussi(**options: Any) -> tt.Game:
    return tt.new_game("huutopussi", **options)


def strength(card: str) -> int:
    return len(STRONG_FIRST) - STRONG_FIRST.index(card[0])


def suit(card: str) -> str:
    return card[1]


def cards(text: str) -> list[str]:
    return [c.text for c in tt.PIQUET_36.cards_from_text(text)]


def check_deal(piles: list[str]) -> list[str]:
    """The piles, after checking that they hold the whole 36-card deck once."""
    listed = [c for p in piles for c in cards(p)]
    assert sorted(listed) == sorted(c.text for c in tt.PIQUET_36.cards), "a deal must hold every card once"
    return piles


def suit_deal(s0: str = "S", s1: str = "H", s2: str = "D", s3: str = "C") -> list[str]:
    """Each seat holds one whole suit (by default seat 0 the spades)."""
    return check_deal([SUIT_CARDS[s] for s in (s0, s1, s2, s3)])


SIXES_DEAL = check_deal(["AS KS QS JS TS 9S 8S 7S 6C", "6S 6H 6D AH KH QH JH TH 9H",
                         "AD KD QD JD TD 9D 8D 7D 8H", "AC KC QC JC TC 9C 8C 7C 7H"])
"""Seat 1 holds three sixes (6S 6H 6D)."""
FOUR_SIXES_DEAL = check_deal(["AS KS QS JS TS 9S 8S 7S 9H", "6S 6H 6D 6C AH KH QH JH TH",
                              "AD KD QD JD TD 9D 8D 7D 8H", "AC KC QC JC TC 9C 8C 7C 7H"])
"""Seat 1 holds all four sixes."""


# -- scripts and inspection ------------------------------------------------------------------


WORDS = ("pass", "redeal")


def action_text(words: str) -> str:
    """Script shorthand: a lone card is ``play`` it; anything else is the action text itself."""
    parts = words.split()
    if len(parts) == 1 and parts[0] not in WORDS:
        return f"play {parts[0]}"
    return words


def run(state: tt.State, script: str) -> None:
    """Play a comma-separated script of ``seat action`` steps (``0 bid 50, 1 pass, 0 AS``),
    checking that each step is the turn of the seat it names."""
    for step in script.split(","):
        step = step.strip()
        if not step:
            continue
        seat, words = step.split(maxsplit=1)
        assert state.current_player == int(seat), (step, state.current_player, legal(state)[:20])
        state.apply(action_text(words), seat=int(seat))


def legal(state: tt.State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def legal_plays(state: tt.State) -> set[str]:
    return {a.split()[1] for a in legal(state) if a.startswith("play ")}


def legal_calls(state: tt.State) -> set[str]:
    return {a for a in legal(state) if a.startswith(("declare", "ask", "answer"))}


def hand(state: tt.State, seat: int) -> set[str]:
    return {c.text for c in state.hand(seat)}


def record(state: tt.State) -> dict[str, Any]:
    return json.loads(state.to_json())


def result(state: tt.State, i: int = -1) -> dict[str, Any]:
    """The result of a finished hand (by default the last one)."""
    return [h["result"] for h in record(state)["hands"] if h["result"] is not None][i]


def last_trick(state: tt.State) -> dict[str, Any]:
    return state.observation(None)["tricks"][-1]


def play_first(state: tt.State) -> None:
    """Play out the current hand, each player choosing its first legal play (no calls)."""
    number = state.hand_number
    while not state.is_over() and state.hand_number == number:
        options = [a for a in legal(state) if a.startswith(("play ", "answer "))]
        state.apply(options[0])


def snapshot(state: tt.State) -> tuple[Any, ...]:
    return (
        state.to_json(),
        [state.observation(s) for s in range(state.num_players)],
        state.observation(None),
        legal(state),
        state.current_player,
        state.phase,
        state.scores,
        state.hand_points,
        state.trump,
        state.contract,
        state.declarer,
    )


def assert_illegal(state: tt.State, action: str, *fragments: str, seat: int | None = None) -> str:
    """The action raises IllegalActionError mentioning every fragment, and the state is unchanged."""
    import pytest

    before = snapshot(state)
    with pytest.raises(tt.IllegalActionError) as info:
        state.apply(action, seat=seat)
    msg = str(info.value)
    for fragment in fragments:
        assert fragment in msg, (fragment, msg)
    assert snapshot(state) == before, "a rejected action changed the state"
    return msg


def match_with(game: tt.Game, hands: list[tuple[int, list[str], list[str]]],
               scores: list[int] | None = None) -> tt.State:
    """A match (not a single hand) from hand-made deals: ``hands`` lists ``(dealer, deal,
    actions)`` per hand, in order, replayed through ``tt.load``.  The last entry is the hand the
    match is in (its actions may be empty); each earlier one must end its hand."""
    start = {"hand_number": 0, "dealer": hands[0][0], "scores": list(scores or [0] * num_sides(game)),
             "previous": None}
    data = {"format": "tricktaker-record", "version": 1, "game": "huutopussi", "preset": None,
            "options": dict(game.options), "seed": None, "seeded": False, "single_hand": False,
            "start": start, "result": None,
            "hands": [{"hand_number": k, "dealer": d, "deal": list(deal),
                       "actions": [action_text(a) for a in actions], "result": None}
                      for k, (d, deal, actions) in enumerate(hands)]}
    return tt.load(data)


def num_sides(game: tt.Game) -> int:
    return 2 if game.options["players"] == 4 else int(game.options["players"])


# -- the rules written out again -----------------------------------------------------------------


class Rules:
    """The rules of one Huutopussi game and its options, from RULES.md and the seed (not from the
    engine)."""

    def __init__(self, game: tt.Game) -> None:
        o = game.options
        self.options = o
        self.players = o["players"]
        self.partners = self.players == 4
        self.sides = 2 if self.partners else self.players
        self.values = FIVES if o["card_values"] == "fives" else PIPS
        self.marriage_values = MARRIAGES[o["marriage_values"]]
        self.last_trick = o["last_trick"]
        self.card_total = 4 * sum(self.values.values()) + self.last_trick
        self.max_bid = self.card_total + sum(self.marriage_values.values())
        self.exchange = o["exchange"]
        self.own_lead_only = self.partners and not o["calls_after_any_trick"]

    def winner(self, scores: list[int], declarers: int | None) -> int | None:
        """Who has won after a hand: past 500 (reaching it, or above it with win_by exceeding);
        several past it: the declarers if among them (win_tie declarer), else the one highest
        score; an exact tie plays on."""
        if self.options["win_by"] == "exceeding":
            past = [s for s in range(self.sides) if scores[s] > TARGET]
        else:
            past = [s for s in range(self.sides) if scores[s] >= TARGET]
        if not past:
            return None
        if self.options["win_tie"] == "declarer" and declarers in past:
            return declarers
        top = max(scores[s] for s in past)
        leaders = [s for s in past if scores[s] == top]
        return leaders[0] if len(leaders) == 1 else None

    def round(self, points: int) -> int:
        """Option defender_rounding: to the nearest multiple of 5 (halfway cannot happen)."""
        if not self.options["defender_rounding"]:
            return points
        low = points - points % 5
        return low + 5 if points % 5 >= 3 else low

    def side(self, seat: int) -> int:
        return seat % 2 if self.partners else seat

    def points(self, taken: list[str]) -> int:
        return sum(self.values.get(c[0], 0) for c in taken)

    @staticmethod
    def trick_winner(trick: list[tuple[int, str]], trump: str | None) -> int:
        trumps = [(s, c) for s, c in trick if trump and suit(c) == trump]
        led = suit(trick[0][1])
        candidates = trumps or [(s, c) for s, c in trick if suit(c) == led]
        return max(candidates, key=lambda sc: strength(sc[1]))[0]

    # -- what may be done ------------------------------------------------------------------

    def may_redeal(self, mine: list[str]) -> bool:
        """Option redeal_hand: three sixes; or three sixes or no card above the jack; or all four."""
        sixes = sum(c[0] == "6" for c in mine)
        rule = self.options["redeal_hand"]
        if rule == "four_sixes":
            return sixes == 4
        return sixes >= 3 or (rule == "three_sixes_or_low" and all(c[0] not in "ATKQ" for c in mine))

    def walk_auction(self, dealer: int, scores: list[int], texts: list[str]) -> dict[str, Any]:
        """Follow an auction's texts from the first bidder: who made each one, whose turn is next
        (None once it is over), the high bid and bidder, who passed.  With bid_ban_reopen the
        seats of banned sides wait (unless every side is banned) until all the others have
        passed without a bid, and then bid from the dealer's left."""
        n = self.players
        turn = (dealer + (self.options["opener"] == "left_of_dealer")) % n
        banned = [scores[self.side(s)] <= self.options["bid_ban"] for s in range(n)]
        waiting = banned if self.options["bid_ban_reopen"] and not all(banned) else [False] * n
        while waiting[turn]:
            turn = (turn + 1) % n
        high, high_bidder = 0, None
        passed = [False] * n
        seats: list[int] = []
        for text in texts:
            assert turn is not None, "the auction is over"
            seats.append(turn)
            if text == "redeal":
                turn = None
                break
            if text == "pass":
                passed[turn] = True
            else:
                high, high_bidder = int(text.split()[1]), turn
            left = [s for s in range(n) if not passed[s] and not waiting[s]]
            if not left and high_bidder is None and any(waiting):
                waiting = [False] * n
                turn = (dealer + 1) % n
                while passed[turn]:
                    turn = (turn + 1) % n
                continue
            if not left or (len(left) == 1 and high_bidder is not None):
                turn = None
                break
            turn = (turn + 1) % n
            while passed[turn] or waiting[turn]:
                turn = (turn + 1) % n
        return {"seats": seats, "turn": turn, "high": high, "high_bidder": high_bidder, "passed": passed}

    def bids(self, obs: dict[str, Any], mine: list[str]) -> set[str]:
        seat = obs["current_player"]
        high = obs["high_bid"]
        spoken = {s for s, _ in obs["auction"]}
        walk = self.walk_auction(obs["dealer"], obs["scores"], [t for _, t in obs["auction"]])
        assert walk["seats"] == [s for s, _ in obs["auction"]] and walk["turn"] == seat
        banned = (obs["scores"][self.side(seat)] <= self.options["bid_ban"]
                  and not self.options["bid_ban_reopen"])  # with reopening the ban makes a seat wait
        out: set[str] = set()
        if self.options["redeal"] and seat not in spoken and self.may_redeal(mine):
            out.add("redeal")
        if high is None:  # no bid yet
            opener = (obs["dealer"] + (self.options["opener"] == "left_of_dealer")) % self.players
            if self.options["forced_opening"]:
                assert seat == opener and not obs["auction"]
                forced = True
            else:  # only the last one left must open (all_pass last_opens)
                passes = [s for s, t in obs["auction"] if t == "pass"]
                forced = len(passes) == self.players - 1 and self.options["all_pass"] == "last_opens"
            lowest = self.options["min_bid"]
            every = {f"bid {v}" for v in range(lowest, self.max_bid + 1, 5)}
            if forced:
                return out | ({f"bid {lowest}"} if banned else every)
            return out | {"pass"} | (set() if banned else every)
        if not banned:
            out |= {f"bid {v}" for v in range(high + 5, self.max_bid + 1, 5)}
        return out | {"pass"}

    @staticmethod
    def card_sets(kind: str, mine: list[str], size: int) -> set[str]:
        return {f"{kind} " + " ".join(sorted(combo)) for combo in combinations(mine, size)}

    def plays(self, obs: dict[str, Any], mine: set[str]) -> set[str]:
        """The duties: follow suit; else trump; and always beat the high card if possible.  With
        first_trick ace_shows, in the first trick: lead an ace, else a spade; the holder of the
        led suit's ace plays it."""
        trick = obs["trick"]
        trump = obs["trump"]
        first = self.options["first_trick"] == "ace_shows" and not obs["tricks"]
        if not trick:
            if first:
                return {c for c in mine if c[0] == "A"} or {c for c in mine if suit(c) == "S"} or mine
            return mine
        led = suit(trick[0][1])
        if first and "A" + led in mine:
            return {"A" + led}
        follow = {c for c in mine if suit(c) == led}
        trumps = {c for c in mine if trump and suit(c) == trump and trump != led}
        played_trumps = [c for _, c in trick if trump and suit(c) == trump and trump != led]
        if played_trumps:
            high = max(played_trumps, key=strength)
            over = {c for c in trumps if strength(c) > strength(high)}
            tiers = [follow, over, trumps]
        else:
            high = max((c for _, c in trick if suit(c) == led), key=strength)
            beat = {c for c in follow if strength(c) > strength(high)}
            tiers = [beat, follow, trumps]
        for tier in tiers:
            if tier:
                return tier
        return mine

    def calls(self, obs: dict[str, Any], mine: set[str]) -> set[str]:
        gone = {c for t in obs["tricks"] for _, c in t["cards"]}
        declared = {m[1] for m in obs["marriages"]}
        open_suits = [s for s in SUITS if s not in declared]
        no_declare = no_whole = False
        if self.partners and self.options["ask_lockouts"] != "none":
            me = obs["seat"]
            asked = {s: {t.split()[1] for who, t in obs["calls"] if who == s and t.startswith("ask")}
                     for s in (me, (me + 2) % 4)}
            mate = asked[(me + 2) % 4]
            if self.options["ask_lockouts"] == "main_form":  # the whole-asker; his partner's whole
                no_declare, no_whole = "whole" in asked[me], "whole" in mate
            else:  # illisoft_2002: any ask locks the asker's declaring; a half locks the pair
                half = "half" in asked[me] | mate
                no_declare, no_whole = bool(asked[me]) or half, half
        out = set() if no_declare else {f"declare {s}" for s in open_suits if {"K" + s, "Q" + s} <= mine}
        if self.partners:
            if not no_whole and any(not ({"K" + s, "Q" + s} & (mine | gone)) for s in open_suits):
                out.add("ask whole")
            for s in open_suits:
                halves = {"K" + s, "Q" + s}
                if len(halves & mine) == 1 and not (halves - mine) & gone:
                    out.add(f"ask half {s}")
        return out

    # -- scoring a finished hand --------------------------------------------------------------

    def score_hand(self, h: dict[str, Any], scores: list[int]) -> dict[str, Any]:
        """Replay a finished hand of a record (deal, dealer, actions) and score it by the rules."""
        n = self.players
        hands = [set(cards(p)) for p in h["deal"][:n]]
        # three players: the kitty follows the hands; two: the dead third hand, then the kitty
        kitty = set(cards(h["deal"][-1])) if n != 4 else set()
        assert len(h["deal"]) == 4 and len(kitty) == (self.options["kitty"] if n != 4 else 0)
        dealt = h["deal"][:4] if n == 4 else h["deal"][:3]  # with two players the dead hand too
        assert all(len(cards(p)) == (36 - len(kitty)) // len(dealt) for p in dealt)
        actions = list(h["actions"])
        dealer = h["dealer"]
        # the auction
        texts: list[str] = []
        while True:
            texts.append(actions.pop(0))
            walk = self.walk_auction(dealer, scores, texts)
            if walk["turn"] is None:
                break
        auction = [[s, t] for s, t in zip(walk["seats"], texts, strict=True)]
        if texts[-1] == "redeal":
            return {"redeal": walk["seats"][-1], "points": [0] * self.sides, "scores": list(scores),
                    "auction": auction}
        high, high_bidder, passed = walk["high"], walk["high_bidder"], walk["passed"]
        if high_bidder is None:  # all passed (all_pass no_contract): no contract, no exchange
            return self.score_without_contract(dealer, hands, actions, scores, auction)
        declarer = high_bidder  # every other seat passed or (bid_ban_reopen) was never asked
        assert not passed[declarer]
        if "redeal" in actions[:3]:  # redeal_window bid_and_exchange: the declarer, before he leads
            assert self.options["redeal_window"] == "bid_and_exchange"
            return {"redeal": declarer, "points": [0] * self.sides, "scores": list(scores),
                    "auction": auction}
        opening = contract = high
        discard: set[str] = set()
        if n == 4:
            partner = (declarer + 2) % 4
            given = set(actions.pop(0).split()[1:])
            hands[partner] -= given
            hands[declarer] |= given
        else:
            hands[declarer] |= kitty
        after = self.options["raise_when"] == "after_exchange"  # give back (discard), then raise
        words = actions.pop(1 if after else 0).split()
        if words[0] == "raise":
            contract = int(words[1])
        if n == 4:
            returned = set(actions.pop(0).split()[1:])
            hands[declarer] -= returned
            hands[partner] |= returned
        else:
            discard = set(actions.pop(0).split()[1:])
            hands[declarer] -= discard
        # the play
        taken, tricks_won, marriages, last, trump, seat_tricks = _play_out(self, hands, declarer, actions)
        declarer_took = seat_tricks[declarer] > 0
        collected = [self.points(t) for t in taken]
        for seat, _, value in marriages:
            collected[self.side(seat)] += value
        collected[last] += self.last_trick
        dside = self.side(declarer)
        lapari = self.lapari(tricks_won, marriages, collected)
        if lapari != dside and (tricks_won[dside] or not self.options["discard_needs_trick"]):
            collected[dside] += self.points(sorted(discard))
        made = collected[dside] >= contract
        points = [self.round(collected[s]) if s != dside else (contract if made else -contract)
                  for s in range(self.sides)]
        no_tricks = [s for s in range(self.sides) if tricks_won[s] == 0]
        penalised = list(no_tricks)
        swept = no_tricks == [s for s in range(self.sides) if s != dside]
        if not made and swept and not self.options["defender_penalty"]:
            penalised = []
        rule = self.options["declarer_no_trick"]
        if rule != "side":  # the declarers pay twice instead (below)
            penalised = [s for s in penalised if s != dside]
        for s in penalised:
            points[s] -= opening
        if rule == "seat_double" and not declarer_took:  # he himself: twice the opening bid
            made, points[dside] = False, -2 * opening
            penalised.append(dside)
        if rule == "side_double" and not tricks_won[dside]:  # his side: twice the contract
            made, points[dside] = False, -2 * contract
            penalised.append(dside)
        new = [scores[s] + points[s] for s in range(self.sides)]
        winner = self.winner(new, dside)
        return {"redeal": None, "auction": auction, "declarer": declarer, "opening_bid": opening,
                "contract": contract, "marriages": marriages, "tricks_won": tricks_won, "last_trick": last,
                "collected": collected, "made": made, "no_tricks": no_tricks, "penalised": penalised,
                "points": points, "scores": new, "winner": winner, "trump": trump,
                "discard": sorted(discard), "lapari": lapari}

    def lapari(self, tricks_won: list[int], marriages: list[list[Any]], collected: list[int]) -> int | None:
        """Two players: who took every trick collects 140 (160 in fives; the deck's card points and
        the last trick) and his marriages, whatever the dead hand held; ``collected`` is topped up."""
        if self.players != 2 or 0 not in tricks_won:
            return None
        sweeper = tricks_won.index(max(tricks_won))
        collected[sweeper] = 4 * sum(self.values.values()) + self.last_trick + sum(
            v for seat, _, v in marriages if seat == sweeper)
        return sweeper


def _play_out(rules: Rules, hands: list[set[str]], leader: int, actions: list[str]
              ) -> tuple[list[list[str]], list[int], list[list[Any]], int, str | None, list[int]]:
    """Play a hand's card and call actions from ``leader``: taken cards and tricks per side, the
    marriages, the side of the last trick, the trumps at the end, and tricks per seat."""
    n = rules.players
    turn, trump, trick = leader, None, []
    taken: list[list[str]] = [[] for _ in range(rules.sides)]
    tricks_won = [0] * rules.sides
    seat_tricks = [0] * n
    marriages: list[list[Any]] = []
    asker, last = None, None
    for text in actions:
        words = text.split()
        if words[0] == "play":
            hands[turn].remove(words[1])
            trick.append((turn, words[1]))
            if len(trick) < n:
                turn = (turn + 1) % n
                continue
            turn = rules.trick_winner(trick, trump)
            last = rules.side(turn)
            tricks_won[last] += 1
            seat_tricks[turn] += 1
            taken[last] += [c for _, c in trick]
            trick = []
        elif words[0] == "ask":
            asker, turn = turn, (turn + 2) % 4
        elif words[0] == "answer":
            if words[1] != "no":
                marriages.append([turn, words[1], rules.marriage_values[words[1]]])
                trump = words[1]
            turn = asker
        else:
            marriages.append([turn, words[1], rules.marriage_values[words[1]]])
            trump = words[1]
    assert not trick and last is not None and not any(hands), "the hand is not finished"
    return taken, tricks_won, marriages, last, trump, seat_tricks


def _score_without_contract(self: Rules, dealer: int, hands: list[set[str]], actions: list[str],
                            scores: list[int], auction: list[Any]) -> dict[str, Any]:
    """Option all_pass no_contract: the player left of the dealer leads; each side scores what it
    took (cards, marriages, the last trick), and nobody pays a penalty."""
    leader = (dealer + 1) % self.players
    taken, tricks_won, marriages, last, trump, _ = _play_out(self, hands, leader, actions)
    collected = [self.points(t) for t in taken]
    for seat, _, value in marriages:
        collected[self.side(seat)] += value
    collected[last] += self.last_trick
    lapari = self.lapari(tricks_won, marriages, collected)
    points = [self.round(c) for c in collected]
    new = [scores[s] + points[s] for s in range(self.sides)]
    winner = self.winner(new, None)
    return {"redeal": None, "auction": auction, "declarer": None, "opening_bid": 0, "contract": 0,
            "marriages": marriages, "tricks_won": tricks_won, "last_trick": last, "collected": collected,
            "made": None, "no_tricks": [s for s in range(self.sides) if not tricks_won[s]], "penalised": [],
            "points": points, "scores": new, "winner": winner, "trump": trump, "discard": [],
            "lapari": lapari}


Rules.score_without_contract = _score_without_contract  # type: ignore[attr-defined]


def check_results(state: tt.State) -> list[dict[str, Any]]:
    """Re-score every finished hand of the state's record with :class:`Rules` and compare; also
    check who deals each hand (clockwise, the same dealer again after a redeal)."""
    rules = Rules(state.game)
    rec = record(state)
    scores = list(rec["start"]["scores"])
    dealer = rec["hands"][0]["dealer"]
    out = []
    for i, h in enumerate(rec["hands"]):
        assert h["dealer"] == dealer, f"hand {i + 1}: dealer {h['dealer']}, the rules say {dealer}"
        if h["result"] is None:
            break
        exp = rules.score_hand(h, scores)
        got = h["result"]
        for key in ("redeal", "auction", "declarer", "opening_bid", "contract", "marriages", "tricks_won",
                    "last_trick", "collected", "made", "no_tricks", "penalised", "points", "scores"):
            if key in exp:
                assert got[key] == exp[key], f"hand {i + 1}: {key} is {got[key]}, the rules say {exp[key]}"
        if exp["redeal"] is None and rules.players != 4:
            assert sorted((got["discard"] or "").split()) == exp["discard"]
        if exp["redeal"] is None and rules.players == 2:
            assert got["lapari"] == exp["lapari"], f"hand {i + 1}: {got['lapari']}, not {exp['lapari']}"
        scores = exp["scores"]
        out.append(exp)
        if exp.get("winner") is not None:
            assert i == len(rec["hands"]) - 1, f"hand {i + 1} should have ended the match"
            assert state.is_over() and state.winner == exp["winner"]
        elif not rec["single_hand"]:
            assert i < len(rec["hands"]) - 1, f"hand {i + 1} ended the match without a winner"
        if exp["redeal"] is None:
            dealer = (dealer + 1) % rules.players
    return out


class Tracker:
    """Follows a hand from outside to know what the rules allow next: who may call (the winner
    of the trick just taken, with four players only if he led it), and a pending ask."""

    def __init__(self, state: tt.State) -> None:
        self.rules = Rules(state.game)
        self.reset(state)

    def reset(self, state: tt.State) -> None:
        self.hand_number = state.hand_number
        self.tricks = 0
        self.caller: int | None = None
        self.ask: tuple[int, str, set[str]] | None = None

    def before(self, state: tt.State, seat: int, action: str) -> None:
        if action.startswith("ask"):
            self.ask = (seat, action.split()[-1], set(state.observation(seat)["hand"]))

    def after(self, state: tt.State, seat: int, action: str) -> None:
        if state.hand_number != self.hand_number or state.is_over():
            self.reset(state)
            return
        words = action.split()
        self.caller = None
        if words[0] == "play":
            tricks = state.observation(None)["tricks"]
            if len(tricks) != self.tricks:
                self.tricks = len(tricks)
                t = tricks[-1]
                if not self.rules.own_lead_only or t["leader"] == t["winner"]:
                    self.caller = t["winner"]
        elif words[0] == "answer":
            self.ask = None

    def expected(self, state: tt.State) -> set[str]:
        r = self.rules
        seat = state.current_player
        obs = state.observation(seat)
        mine = list(obs["hand"])
        phase = obs["phase"]
        if phase == "bid":
            return r.bids(obs, mine)
        # redeal_window bid_and_exchange: the declarer, holding the gift or the kitty, until he leads
        redeal = ({"redeal"} if phase in ("raise", "return", "discard") and r.options["redeal"]
                  and r.options["redeal_window"] == "bid_and_exchange" and seat == obs["declarer"]
                  and r.may_redeal(mine) else set())
        if phase in ("give", "return"):
            return redeal | r.card_sets("give", mine, r.exchange)
        if phase == "raise":
            return redeal | {f"raise {v}" for v in range(obs["contract"] + 5, r.max_bid + 1, 5)} | {"pass"}
        if phase == "discard":
            return redeal | r.card_sets("discard", [c for c in mine if c[0] not in "AT"], r.options["kitty"])
        have = set(mine)
        if phase == "answer":
            assert self.ask is not None
            _, what, asker_cards = self.ask
            declared = {m[1] for m in obs["marriages"]}
            if what == "whole":
                out = {f"answer {s}" for s in SUITS if s not in declared and {"K" + s, "Q" + s} <= have}
            else:
                wanted = {"K" + what, "Q" + what} - asker_cards
                out = {f"answer {what}"} if wanted & have else set()
            return out or {"answer no"}
        assert phase == "play", phase
        out = {f"play {c}" for c in r.plays(obs, have)}
        if self.caller == seat and not obs["trick"] and len(obs["marriages"]) < 4:
            out |= r.calls(obs, have)
        return out


def canonical(action: str) -> str:
    """Card sets (give, discard) with their cards sorted as text, to compare with the rules' sets."""
    words = action.split()
    if words[0] in ("give", "discard"):
        return " ".join([words[0], *sorted(words[1:])])
    return action


def sane_choice(state: tt.State, rng: random.Random) -> str:
    """A random legal action from a sane policy: bid a little above the current bid or pass, raise
    rarely and a little, redeal half the time; anything legal otherwise."""
    actions = legal(state)
    phase = state.phase
    if phase == "bid":
        if "redeal" in actions and rng.random() < 0.5:
            return "redeal"
        bids = [a for a in actions if a.startswith("bid")]
        if "pass" in actions and (not bids or rng.random() < 0.6):
            return "pass"
        return rng.choice(bids[:4])
    if phase == "raise":
        raises = [a for a in actions if a.startswith("raise")]
        if raises and rng.random() < 0.15:
            return rng.choice(raises[:4])
        return "pass"
    return rng.choice(actions)


def drive(state: tt.State, rng: random.Random, max_hands: int = 20, check: bool = True) -> int:
    """Play sane random actions until the state is over or ``max_hands`` hands have finished,
    checking (with ``check``) at every step that the engine's legal actions are the rules'.
    Returns the number of actions played."""
    tracker = Tracker(state)
    n = 0
    while not state.is_over() and state.hand_number < max_hands:
        seat = state.current_player
        if check:
            actions = legal(state)
            assert len(actions) == len(set(actions))
            got = {canonical(a) for a in actions}
            want = tracker.expected(state)
            assert got == want, (f"hand {state.hand_number + 1}, seat {seat}, {state.phase}: engine has "
                                 f"{sorted(got - want)[:8]} more and lacks {sorted(want - got)[:8]}")
        action = sane_choice(state, rng)
        tracker.before(state, seat, action)
        state.apply(action, seat=seat)
        tracker.after(state, seat, action)
        n += 1
    return n
