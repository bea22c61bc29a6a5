"""Shared helpers for the Marjapussi-family rules tests (marjapussi, bondtolva, avomarjapussi).

Nothing here imports the engine's rules: the duties, the calls and the scoring
are written out again from RULES.md and the seed text, so that the tests check
the engine against a second reading.  Cards are handled as text (``AS``,
``TH``): rank letter then suit letter.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import tricktaker as tt

SUITS = "SHDC"
STRONG_FIRST = "ATKQJ9876"
"""Ranks from strongest to weakest: A 10 K Q J 9 8 7 6 (the 24-card deck stops at 9)."""
CARD_PIPS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
ACE_TEN = {"A": 1, "T": 1}
HONOURS = {"A": 4, "K": 3, "Q": 2, "J": 1}


def strength(card: str) -> int:
    return len(STRONG_FIRST) - STRONG_FIRST.index(card[0])


def suit(card: str) -> str:
    return card[1]


def cards(text: str, deck: tt.Deck = tt.PIQUET_36) -> list[str]:
    return [c.text for c in deck.cards_from_text(text)]


def all_cards(deck: tt.Deck = tt.PIQUET_36) -> list[str]:
    return [c.text for c in deck.cards]


def check_deal(piles: list[str], deck: tt.Deck = tt.PIQUET_36) -> list[str]:
    """The piles, after checking that they hold the whole deck once."""
    listed = [c for p in piles for c in cards(p, deck)]
    assert sorted(listed) == sorted(all_cards(deck)), "a deal must hold every card once"
    return piles


# -- scripts and inspection ------------------------------------------------------------------


def action_text(words: str) -> str:
    """Script shorthand: a lone card is ``play`` it; anything else is the action text itself."""
    parts = words.split()
    if len(parts) == 1 and parts[0] not in ("pass",):
        return f"play {parts[0]}"
    return words


def run(state: tt.State, script: str) -> None:
    """Play a comma-separated script of ``seat action`` steps (``1 AS, 1 declare S, 3 answer no``),
    checking that each step is the turn of the seat it names."""
    for step in script.split(","):
        step = step.strip()
        if not step:
            continue
        seat, words = step.split(maxsplit=1)
        assert state.current_player == int(seat), (step, state.current_player, legal(state))
        state.apply(action_text(words), seat=int(seat))


def legal(state: tt.State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def legal_plays(state: tt.State) -> set[str]:
    return {a.split()[1] for a in legal(state) if a.startswith("play ")}


def legal_calls(state: tt.State) -> set[str]:
    return {a for a in legal(state) if not a.startswith("play ")}


def hand(state: tt.State, seat: int) -> set[str]:
    return {c.text for c in state.hand(seat)}


def record(state: tt.State) -> dict[str, Any]:
    return json.loads(state.to_json())


def result(state: tt.State) -> dict[str, Any]:
    """The result of the last finished hand."""
    return [h["result"] for h in record(state)["hands"] if h["result"] is not None][-1]


def results(state: tt.State) -> list[dict[str, Any]]:
    return [h["result"] for h in record(state)["hands"] if h["result"] is not None]


def last_trick(state: tt.State) -> dict[str, Any]:
    return state.observation(None)["tricks"][-1]


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
    )


def assert_illegal(state: tt.State, action: str, *fragments: str, seat: int | None = None) -> str:
    """The action raises IllegalActionError mentioning every fragment, and the state is unchanged."""
    before = snapshot(state)
    with pytest.raises(tt.IllegalActionError) as info:
        state.apply(action, seat=seat)
    msg = str(info.value)
    for fragment in fragments:
        assert fragment in msg, (fragment, msg)
    assert snapshot(state) == before, "a rejected action changed the state"
    return msg


def play_first(state: tt.State, plays_only: bool = True) -> None:
    """Play out the current hand, each player choosing its first legal play (no calls)."""
    number = state.hand_number
    while not state.is_over() and state.hand_number == number:
        options = legal(state)
        if plays_only:
            options = [a for a in options if a.startswith(("play ", "answer "))]
        state.apply(options[0])


def match_of(hands: list[tt.State], scores: list[int] | None = None) -> tt.State:
    """A match whose hands are the hands of single-hand states (deals and actions replayed in
    order, through ``tt.load``); hand ``k`` must have been played with the dealer the match has
    for its ``k``-th hand.  An unseeded match needs the deal of the hand that follows a finished
    last one, so then the last deal is dealt again (by the next dealer) and left unplayed."""
    first = record(hands[0])
    start = dict(first["start"])
    if scores is not None:
        start["scores"] = list(scores)
    played = [dict(record(h)["hands"][0], result=None, hand_number=k) for k, h in enumerate(hands)]
    last = played[-1]
    following = dict(last, dealer=(last["dealer"] + 1) % hands[0].num_players, actions=[],
                     hand_number=len(played))
    finished = hands[-1].is_over()
    data = dict(first, seed=None, seeded=False, single_hand=False, start=start, result=None,
                hands=[*played, following] if finished else played)
    return tt.load(data)


# -- the rules written out again -----------------------------------------------------------------


class Rules:
    """The rules of one game and its options, from RULES.md (not from the engine)."""

    def __init__(self, game: tt.Game) -> None:
        o = game.options
        self.name = game.name
        self.options = o
        self.players = game.num_players
        self.partners = self.players == 4
        self.sides = 2
        self.target = o.get("target", 12)
        if self.name == "bondtolva":
            self.pips = [ACE_TEN, HONOURS]
            self.over = "subtract" if o["exact"] else "keep"
            self.lead_from_marriage = True
        else:
            self.pips = [CARD_PIPS] if o["pips"] == "cards" else [ACE_TEN, CARD_PIPS]
            self.over = "drop"
            self.lead_from_marriage = o["lead_from_marriage"]
        self.stock = self.name == "bondtolva" and self.players == 2

    def side(self, seat: int) -> int:
        return seat % 2 if self.partners else seat

    def trick_winner(self, trick: list[tuple[int, str]], trump: str | None) -> int:
        trumps = [(s, c) for s, c in trick if trump and suit(c) == trump]
        led = suit(trick[0][1])
        candidates = trumps or [(s, c) for s, c in trick if suit(c) == led]
        return max(candidates, key=lambda sc: strength(sc[1]))[0]

    def first_leader(self, deal: list[str], dealer: int, hand_number: int) -> int:
        if self.options.get("clubs_ace_opens") and hand_number == 0:
            return next(s for s in range(4) if "AC" in cards(deal[s]))
        return (dealer + 1) % self.players

    def pip_counts(self, taken: list[str]) -> tuple[int, ...]:
        return tuple(sum(table.get(c[0], 0) for c in taken) for table in self.pips)

    def score_hand(self, deal: list[str], dealer: int, hand_number: int, actions: list[str],
                   scores: list[int], carry: int) -> dict[str, Any]:
        """Replay a finished hand's actions and score it; returns the expected result fields."""
        turn = self.first_leader(deal, dealer, hand_number)
        trump: str | None = None
        marriages: list[list[Any]] = []
        trick: list[tuple[int, str]] = []
        taken: list[list[str]] = [[] for _ in range(self.sides)]
        tricks_won = [0] * self.sides
        last = None
        asker = None
        for text in actions:
            kind, arg = text.split()[0], text.split()[-1]
            if kind == "play":
                trick.append((turn, arg))
                if len(trick) < self.players:
                    turn = (turn + 1) % self.players
                    continue
                turn = self.trick_winner(trick, trump)
                last = self.side(turn)
                tricks_won[last] += 1
                taken[last] += [c for _, c in trick]
                trick = []
                continue
            if kind == "ask":
                asker, turn = turn, (turn + 2) % 4
                continue
            if kind == "answer":
                married = arg != "no"
                who, turn = turn, asker
            else:
                married, who = True, turn
            if married:
                marriages.append([who, arg, 1 if trump else 2])
                trump = trump or arg
        assert not trick and last is not None, "the hand is not finished"
        points = [0] * self.sides
        for who, _, value in marriages:
            points[self.side(who)] += value
        points[last] += 1
        pips = [self.pip_counts(t) for t in taken]
        best = max(pips)
        pip_point = None
        if pips.count(best) == 1:
            pip_point = pips.index(best)
            points[pip_point] += 1 + carry
            carry = 0
        elif self.options["pip_tie_carries"]:
            carry += 1
        else:
            carry = 0
        porvoo = [s for s in range(self.sides) if tricks_won[s] == 0]
        new = []
        for s in range(self.sides):
            score = 0 if s in porvoo else scores[s] + points[s]
            if score > self.target:
                if self.over == "drop":
                    score = 7
                elif self.over == "subtract":
                    score = max(0, 2 * self.target - score)
            new.append(score)
        reached = [s for s in range(self.sides) if new[s] >= self.target]
        winner = None
        if reached:
            top = max(new[s] for s in reached)
            tops = [s for s in reached if new[s] == top]
            winner = tops[0] if len(tops) == 1 else last
        return {"trump": trump, "marriages": marriages, "points": points, "pips": [p[0] for p in pips],
                "pip_point": pip_point, "carry": carry, "tricks_won": tricks_won, "last_trick": last,
                "porvoo": porvoo, "scores": new, "winner": winner}


def check_results(state: tt.State) -> list[dict[str, Any]]:
    """Re-score every finished hand of the state's record with :class:`Rules` and compare."""
    rules = Rules(state.game)
    rec = record(state)
    scores = list(rec["start"]["scores"])
    carry = rec["start"].get("carry", 0)
    expected_all = []
    n = rules.players
    dealer = rec["hands"][0]["dealer"]
    for i, h in enumerate(rec["hands"]):
        number = rec["start"]["hand_number"] + i
        assert h["dealer"] == dealer, f"hand {i + 1}: dealer {h['dealer']}, rules say {dealer}"
        if h["result"] is None:
            break
        exp = rules.score_hand(h["deal"], h["dealer"], number, h["actions"], scores, carry)
        got = h["result"]
        for key in ("trump", "marriages", "points", "pips", "pip_point", "carry", "tricks_won",
                    "last_trick", "porvoo", "scores"):
            assert got[key] == exp[key], f"hand {i + 1}: {key} is {got[key]}, the rules say {exp[key]}"
        scores, carry = exp["scores"], exp["carry"]
        expected_all.append(exp)
        if exp["winner"] is not None:
            assert i == len(rec["hands"]) - 1, f"hand {i + 1} should have ended the match"
            assert state.is_over() and state.winner == exp["winner"]
        if rules.options.get("clubs_ace_opens") and number == 0:
            dealer = rules.first_leader(h["deal"], h["dealer"], 0)
        else:
            dealer = (dealer + 1) % n
    return expected_all


# -- legal actions written out again ------------------------------------------------------------


class Tracker:
    """Follows a hand from outside to know what the rules allow next: who may call, and the
    marriage just made (for the lead from it)."""

    def __init__(self, state: tt.State) -> None:
        self.rules = Rules(state.game)
        self.reset(state)

    def reset(self, state: tt.State) -> None:
        self.hand_number = state.hand_number
        self.tricks = 0
        self.caller: int | None = None
        self.married: str | None = None
        self.ask: tuple[int, str] | None = None
        self.asker_cards: set[str] = set()
        # ordered calls, per side and hand: 1 after asking a whole, 2 after asking a half
        self.asked = [0, 0]
        self.asked_whole = [False, False]

    def after(self, state: tt.State, seat: int, action: str) -> None:
        if state.hand_number != self.hand_number or state.is_over():
            self.reset(state)
            return
        words = action.split()
        if words[0] == "play":
            self.married = None
            self.caller = None
            tricks = len(state.observation(None)["tricks"])
            if tricks != self.tricks:
                self.tricks = tricks
                self.caller = state.observation(None)["tricks"][-1]["winner"]
            return
        self.caller = None
        if words[0] == "declare":
            self.married = words[1]
        elif words[0] == "ask":
            self.ask = (seat, words[-1])
            side = seat % 2
            if words[1] == "whole":
                self.asked[side] = max(self.asked[side], 1)
                self.asked_whole[side] = True
            else:
                self.asked[side] = 2
        elif words[0] == "answer":
            self.ask = None
            self.married = None if words[1] == "no" else words[1]

    def expected(self, state: tt.State) -> set[str]:
        """The legal actions by the rules."""
        r = self.rules
        seat = state.current_player
        obs = state.observation(seat)
        mine = set(obs["hand"])
        if "rows" in obs:
            mine |= {up for up, _ in obs["rows"][seat] if up}
        gone = {c for t in obs["tricks"] for _, c in t["cards"]} | {c for _, c in obs["trick"]}
        declared = {m[1] for m in obs["marriages"]}
        open_suits = [s for s in SUITS if s not in declared]
        if self.ask is not None:
            asker, what = self.ask
            if what == "whole":
                out = {f"answer {s}" for s in open_suits if {"K" + s, "Q" + s} <= mine}
            else:
                wanted = {"K" + what, "Q" + what} - self.asker_cards
                out = {f"answer {what}"} if wanted & mine else set()
            return out or {"answer no"}
        out = {f"play {c}" for c in self.plays(state, obs, mine)}
        may_call = (self.caller == seat and not obs["trick"] and len(declared) < 4
                    and not (r.stock and obs["stock_size"] == 0))
        order = r.options.get("declaration_order", "free")
        asked = self.asked[seat % 2] if order != "free" else 0
        if may_call:
            if not asked:
                out |= {f"declare {s}" for s in open_suits if {"K" + s, "Q" + s} <= mine}
            if r.partners:
                if asked < 2 and any(not ({"K" + s, "Q" + s} & (mine | gone)) for s in open_suits):
                    out.add("ask whole")
                if order == "whole_first" and not self.asked_whole[seat % 2]:
                    return out
                for s in open_suits:
                    halves = {"K" + s, "Q" + s}
                    if len(halves & mine) == 1 and not (halves - mine) & gone:
                        out.add(f"ask half {s}")
        return out

    def plays(self, state: tt.State, obs: dict[str, Any], mine: set[str]) -> set[str]:
        r = self.rules
        trick = obs["trick"]
        trump = obs["trump"]
        if not trick:
            if not obs["tricks"]:
                if r.options.get("clubs_ace_opens") and state.hand_number == 0:
                    tiers = [{"AC"}]
                else:
                    tiers = [{c for c in mine if c[0] == "A"}]
                    if r.options["first_lead"] == "ace_or_spade":
                        tiers.append({c for c in mine if suit(c) == "S"})
            elif self.married and r.lead_from_marriage:
                tiers = [{"K" + self.married, "Q" + self.married} & mine]
            else:
                tiers = []
        elif r.stock and obs["stock_size"] > 0:
            tiers = []
        else:
            seat = state.current_player
            led = suit(trick[0][1])
            follow = {c for c in mine if suit(c) == led}
            trumps = {c for c in mine if trump and suit(c) == trump and trump != led}
            played_trumps = [c for _, c in trick if trump and suit(c) == trump and trump != led]
            high_seat, high = max(((s, c) for s, c in trick if suit(c) == led),
                                  key=lambda sc: strength(sc[1]))
            if played_trumps:
                high = max(played_trumps, key=strength)
                high_seat = next(s for s, c in trick if c == high)
            must_beat = not (r.options.get("partner_exception") and r.partners and high_seat % 2 == seat % 2)
            if played_trumps:
                over = {c for c in trumps if strength(c) > strength(high)}
                tiers = [follow, over, trumps] if must_beat else [follow, trumps]
            else:
                beat = {c for c in follow if strength(c) > strength(high)}
                tiers = [beat, follow, trumps] if must_beat else [follow, trumps]
        for tier in tiers:
            if tier & mine:
                return tier & mine
        return mine


def drive(state: tt.State, rng: random.Random, check: bool = True, max_actions: int | None = None) -> int:
    """Play random legal actions until the state is over, checking (with ``check``) at every step
    that the engine's legal actions are the ones the rules give.  Returns the actions played."""
    tracker = Tracker(state)
    n = 0
    while not state.is_over() and (max_actions is None or n < max_actions):
        seat = state.current_player
        actions = legal(state)
        if check:
            assert set(actions) == tracker.expected(state), (
                f"hand {state.hand_number + 1}, seat {seat}, {state.phase}: engine {sorted(actions)} "
                f"!= rules {sorted(tracker.expected(state))}\n{state.observation(seat)}")
            assert len(actions) == len(set(actions))
        action = rng.choice(actions)
        if action.startswith("ask"):
            obs = state.observation(seat)
            mine = list(obs["hand"])
            if "rows" in obs:
                mine += [up for up, _ in obs["rows"][seat] if up]
            tracker.asker_cards = set(mine)
        state.apply(action, seat=seat)
        tracker.after(state, seat, action)
        n += 1
    return n
