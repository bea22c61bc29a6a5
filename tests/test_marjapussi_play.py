"""Whole games of the Marjapussi family: fuzz with invariants, golden playthroughs, no leaks, records.

The rules one by one are in ``test_marjapussi_rules.py``, ``test_bondtolva_rules.py`` and
``test_avomarjapussi_rules.py``; this file plays many random matches of every variant and
checks what must hold throughout.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from contract_checks import apply_undo_redo, check_worlds
from golden_files import check_golden

import tricktaker as tt

VARIANTS = {
    "marjapussi": ("marjapussi", {}),
    "marjapussi-variants": ("marjapussi", {"pips": "aces_tens", "pip_tie_carries": True,
                                           "first_lead": "ace_or_spade", "lead_from_marriage": True,
                                           "declaration_order": "whole_first", "partner_exception": True,
                                           "clubs_ace_opens": True, "target": 10}),
    "marjapussi-ordered": ("marjapussi", {"declaration_order": "ordered"}),
    "bondtolva": ("bondtolva", {}),
    "bondtolva-exact": ("bondtolva", {"exact": True, "partner_exception": True}),
    "bondtolva-two": ("bondtolva", {"players": 2}),
    "avomarjapussi": ("avomarjapussi", {}),
}
ORDER = "A T K Q J 9 8 7 6".split()


def record(state: tt.State) -> dict:
    return json.loads(state.to_json())


def strength(card: str) -> int:
    return -ORDER.index(card[0])


def choose(state: tt.State, rng: random.Random, call_rate: float = 0.6) -> tt.Action:
    """A random legal action that makes calls often, so marriages and asks are common."""
    legal = state.legal_actions()
    calls = [a for a in legal if a.kind != "play"]
    if calls and rng.random() < call_rate:
        return rng.choice(calls)
    return rng.choice(legal)


def available(obs: dict) -> set[str]:
    """The cards a seat may play from, by its own observation: hand and own face-up cards."""
    cards = set(obs["hand"])
    if "rows" in obs:
        cards |= {up for up, _ in obs["rows"][obs["seat"]] if up}
    return cards


def expected_follow(obs: dict, game: tt.Game) -> set[str]:
    """An independent reading of the duties when following (RULES.md, Marjapussi)."""
    cards = available(obs)
    if obs.get("stock_size"):
        return cards  # two-handed Bondtolva: no duties while the stock lasts
    trick = [c for _, c in obs["trick"]]
    led = trick[0][1]
    trump = obs["trump"]
    trumped = trump is not None and trump != led and any(c[1] == trump for c in trick)
    best_trump = max((c for c in trick if c[1] == trump), key=strength, default=None)
    best_led = max((c for c in trick if c[1] == led), key=strength)
    winner_card = best_trump if trumped or (trump == led) else best_led
    winner_seat = next(s for s, c in obs["trick"] if c == winner_card)
    beat = not (game.options.get("partner_exception") and obs["players"] == 4
                and winner_seat % 2 == obs["seat"] % 2)
    follow = {c for c in cards if c[1] == led}
    if follow:
        if trumped or not beat:
            return follow
        higher = {c for c in follow if strength(c) > strength(best_led)}
        return higher or follow
    trumps = {c for c in cards if trump is not None and c[1] == trump}
    if trumps:
        if best_trump is not None and beat:
            higher = {c for c in trumps if strength(c) > strength(best_trump)}
            return higher or trumps
        return trumps
    return cards


def deck_size(game: tt.Game) -> int:
    return len(game.deck)


def check_hand_result(game: tt.Game, result: dict, carry_before: int) -> None:
    """What every finished hand must add up to."""
    tricks = deck_size(game) // game.num_players
    assert sum(result["tricks_won"]) == tricks
    first_table = "cards" if game.name != "bondtolva" and game.options.get("pips") == "cards" else "count"
    assert sum(result["pips"]) == (120 if first_table == "cards" else 8)
    marriage_points = sum(v for _, _, v in result["marriages"])
    pip_points = 0 if result["pip_point"] is None else 1 + carry_before
    assert sum(result["points"]) == marriage_points + 1 + pip_points
    values = [v for _, _, v in result["marriages"]]
    assert values[:1] in ([], [2]) and all(v == 1 for v in values[1:])
    assert result["trump"] == (result["marriages"][0][1] if result["marriages"] else None)
    for side in result["porvoo"]:
        assert result["tricks_won"][side] == 0 and result["scores"][side] == 0


def fuzz(variant: str, matches: int, seed: int, full: bool = True) -> Counter:
    name, options = VARIANTS[variant]
    game = tt.new_game(name, **options)
    rng = random.Random(seed)
    stats: Counter = Counter()
    for m in range(matches):
        state = game.new_match(seed=rng.getrandbits(32))
        carry = 0
        while not state.is_over():
            number = state.hand_number
            seat = state.current_player
            obs = state.observation(seat)
            legal = state.legal_actions()
            assert [a.text for a in legal] == obs["legal_actions"]
            plays = {a.text.split()[1] for a in legal if a.kind == "play"}
            if obs["phase"] == "answer":
                assert all(a.kind == "answer" for a in legal)
            elif obs["trick"]:
                assert plays == expected_follow(obs, game), (variant, obs)
                assert all(a.kind == "play" for a in legal)
            action = choose(state, rng)
            stats[action.kind] += 1
            if full and rng.random() < 0.02:
                apply_undo_redo(state, action)
                stats["undo"] += 1
            else:
                state.apply(action)
            if state.is_over() or state.hand_number != number:
                result = state._log[number].result  # the finished hand's result
                check_hand_result(game, result, carry)
                carry = result["carry"]
                stats["hands"] += 1
                stats["porvoo"] += bool(result["porvoo"])
                stats["trumps"] += result["trump"] is not None
                stats["pip ties"] += result["pip_point"] is None
        assert state.winner is not None
        target = game.options.get("target", 12)
        if game.name == "bondtolva" and not game.options["exact"]:
            assert state.scores[state.winner] >= target
        else:
            assert state.scores[state.winner] == target
        stats["matches"] += 1
        if full or m % 10 == 0:
            text = state.to_json()
            assert tt.load(text).to_json() == text
    return stats


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_fuzz_random_matches_keep_every_invariant(variant):
    stats = fuzz(variant, 25, seed=sorted(VARIANTS).index(variant))
    assert stats["matches"] == 25 and stats["hands"] > 100
    assert stats["play"] > 1000 and stats["undo"] > 20
    assert stats["declare"] > 10 and stats["trumps"] > 50
    if VARIANTS[variant][1].get("players", 4) == 4 and variant != "avomarjapussi":
        assert stats["ask"] > 20 and stats["answer"] == stats["ask"]


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_fuzz_many_matches(variant):
    stats = fuzz(variant, 2000, seed=7, full=False)
    assert stats["matches"] == 2000


# -- golden playthroughs ----------------------------------------------------------------------

SEED = 7
GOLDEN_CASES = {
    "marjapussi_seed7.txt": ("marjapussi", {}),
    "bondtolva_seed7.txt": ("bondtolva", {}),
    "bondtolva_two_seed7.txt": ("bondtolva", {"players": 2}),
    "avomarjapussi_seed7.txt": ("avomarjapussi", {}),
}


def _pair(values) -> str:
    return "-".join(map(str, values))


def playthrough(name: str, options: dict, seed: int = SEED) -> str:
    """The whole match as text: each hand's dealer and deal, every action with its actor,
    each trick's winner, the calls and marriages, and the hand's result."""
    game = tt.new_game(name, **options)
    state = game.new_match(seed=seed)
    rng = random.Random(seed)
    opts = " ".join(f"{k}={v}" for k, v in game.options.items())
    lines = [
        "# tricktaker golden playthrough (tests/test_marjapussi_play.py; UPDATE_GOLDEN=1 regenerates)",
        f"# game {name}: {opts}",
        f"# new_match(seed={seed}), policy: calls 60% of the time when offered, else "
        f"random.Random({seed}).choice",
        "# seats clockwise; " + ("side 0 = seats 0 & 2, side 1 = seats 1 & 3" if game.num_players == 4
                                 else "each seat is its own side"),
    ]

    def header() -> None:
        rec = record(state)["hands"][-1]
        lines.append("")
        lines.append(f"hand {state.hand_number + 1}  dealer {state.dealer}  scores {_pair(state.scores)}")
        for i, pile in enumerate(rec["deal"][: game.num_players]):
            lines.append(f"  hand {i}: {pile}")
        rest = rec["deal"][game.num_players:]
        if game.name == "avomarjapussi":
            for s in range(2):
                down = " ".join(rest[14 * s: 14 * s + 7])
                up = " ".join(rest[14 * s + 7: 14 * s + 14])
                lines.append(f"  seat {s} face up: {up}   face down: {down}")
        elif rest:
            lines.append(f"  stock: {' '.join(rest)}")

    header()
    while not state.is_over():
        seat = state.current_player
        number = state.hand_number
        before = state.observation(None)
        action = choose(state, rng)
        state.apply(action)
        finished = state.is_over() or state.hand_number != number
        public = state.observation(None)
        lines.append(f"  seat {seat}: {action}")
        if finished:
            prev = public["previous_hand"]
            winner = prev["final_trick"]["winner"]
            lines.append(f"  -- trick {len(before['tricks']) + 1} won by seat {winner}")
            marriages = ", ".join(f"{s}:{suit}={v}" for s, suit, v in prev["marriages"]) or "none"
            lines.append(f"  result: trumps {prev['trump']}, marriages {marriages}, "
                         f"pips {_pair(prev['pips'])} (point to {prev['pip_point']}), "
                         f"last trick {prev['last_trick']}, points "
                         f"{_pair(prev['points'])}, porvoo {prev['porvoo']}, scores {_pair(prev['scores'])}")
            if not state.is_over():
                header()
        else:
            if len(public["tricks"]) > len(before["tricks"]):
                winner = public["tricks"][-1]["winner"]
                lines.append(f"  -- trick {len(public['tricks'])} won by seat {winner}")
            if len(public["marriages"]) > len(before["marriages"]):
                s, suit, v = public["marriages"][-1]
                lines.append(f"  -- marriage {suit} for seat {s}: {v} point(s); trumps {public['trump']}")
    lines.append("")
    lines.append(f"match over: winner side {state.winner}, scores {_pair(state.scores)}, "
                 f"{state.hand_number + 1} hands")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("file", sorted(GOLDEN_CASES))
def test_golden_playthrough_matches_file(file):
    check_golden(file, playthrough(*GOLDEN_CASES[file]))


@pytest.mark.parametrize("file", sorted(GOLDEN_CASES))
def test_golden_playthrough_is_deterministic_and_replays_from_its_record(file):
    name, options = GOLDEN_CASES[file]
    assert playthrough(name, options) == playthrough(name, options)
    state = tt.new_game(name, **options).new_match(seed=SEED)
    rng = random.Random(SEED)
    while not state.is_over():
        state.apply(choose(state, rng))
    again = tt.load(state.to_json())
    assert again.to_json() == state.to_json() and again.winner == state.winner


# -- no leaks: sample_world -----------------------------------------------------------------------


def collect_states(variant: str, seeds: range, per_match: int) -> list[tt.State]:
    """States from random play: every answer phase and every state right after a call, and a
    random sample of the rest."""
    name, options = VARIANTS[variant]
    game = tt.new_game(name, **options)
    states: list[tt.State] = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_match(seed=seed)
        cut: list[tt.State] = []
        special: list[tt.State] = []
        while not state.is_over() and state.hand_number < 2:
            cut.append(state.clone())
            action = choose(state, rng, call_rate=0.8)
            state.apply(action)
            if action.kind != "play" or state.phase == "answer":
                special.append(state.clone())
        states += rng.sample(special, min(len(special), per_match))
        states += rng.sample(cut, min(len(cut), per_match))
    return states


def world_cards(world: tt.State) -> list[str]:
    """Where every card of a world is: hands, tricks, the table, face-up and face-down rows, stock."""
    public = world.observation(None)
    out = [c.text for s in range(world.num_players) for c in world.hand(s)]
    out += [c for t in public["tricks"] for _, c in t["cards"]]
    out += [c for _, c in public["trick"]]
    deal = record(world)["hands"][-1]["deal"]
    if "rows" in public:
        for s, row in enumerate(public["rows"]):
            for k, (up, down) in enumerate(row):
                if up:
                    out.append(up)
                if down:
                    out.append(deal[2 + 14 * s + k])
    if "stock_size" in public:
        out += deal[len(deal) - public["stock_size"]:]
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_sampled_worlds_give_the_same_observation_and_play_on(variant):
    states = collect_states(variant, range(6), per_match=5)
    assert any(s.phase == "answer" for s in states) or "two" in variant or "avo" in variant
    rng = random.Random(1)
    for i, state in enumerate(states):
        for seat in range(state.num_players):
            check_worlds(state, seat, 3, world_cards, deep=i % 4 == 0, rng=rng if i % 8 == 0 else None)


@pytest.mark.parametrize("variant", ["marjapussi", "bondtolva-two", "avomarjapussi"])
def test_sampled_worlds_vary_the_hidden_cards(variant):
    states = [s for s in collect_states(variant, range(4), per_match=4) if not s.is_over()]
    varied = checked = 0
    for state in states:
        for seat in range(state.num_players):
            if len(state.observation(None)["tricks"]) > 4:
                continue
            worlds = [state.sample_world(seat, random.Random(k)) for k in range(10)]
            deals = [record(w)["hands"][-1]["deal"] for w in worlds]
            distinct = {tuple(p for i, p in enumerate(deal) if i != seat) for deal in deals}
            checked += 1
            varied += len(distinct) > 1
    assert checked > 10 and varied == checked


def test_avomarjapussi_worlds_redeal_the_seats_own_face_down_cards():
    state = tt.new_game("avomarjapussi").new_hand(seed=3)
    deal = record(state)["hands"][0]["deal"]
    own_down = [{record(state.sample_world(0, random.Random(k)))["hands"][0]["deal"][2 + j]
                 for k in range(20)} for j in range(7)]
    assert all(len(cards) > 1 for cards in own_down), "seat 0's own face-down cards must be unknown to it"
    assert all(record(state.sample_world(0, random.Random(k)))["hands"][0]["deal"][9:16] == deal[9:16]
               for k in range(5)), "face-up cards are public"


def test_worlds_of_an_asker_respect_a_no_to_a_half():
    """Seat 0 asks for the half of hearts holding the king; seat 2 says no: in seat 0's worlds
    seat 2 never holds the queen of hearts."""
    deal = ["AH KH 6S 7S 8S 9S JS QS KS", "7H AS AD 6D 7D 8D 9D TD JD",
            "TH 9H JH KD QD TS AC KC QC", "8H QH 6H 6C 7C 8C 9C TC JC"]
    state = tt.new_game("marjapussi").new_hand(deal=deal, dealer=3)
    for text in ("play AH", "play 7H", "play TH", "play 8H"):
        state.apply(text)
    assert state.current_player == 0
    state.apply("ask half H")
    state.apply("answer no")
    for k in range(40):
        world = state.sample_world(0, random.Random(k))
        assert "QH" not in [c.text for c in world.hand(2)]


def test_observations_never_contain_hidden_cards():
    for variant in ("marjapussi", "bondtolva-two", "avomarjapussi"):
        for state in collect_states(variant, range(3), per_match=4):
            deal = record(state)["hands"][-1]["deal"]
            for seat in [*range(state.num_players), None]:
                obs = state.observation(seat)
                del obs["previous_hand"], obs["lead_rule"]  # a finished hand; the lead rule's card list
                text = json.dumps(obs)
                for other in range(state.num_players):
                    if other == seat:
                        continue
                    shown = set(state.observation(None)["shown"][other])
                    for card in state.hand(other):
                        assert card.text in shown or f'"{card.text}"' not in text
                if "rows" in state.observation(None):
                    for s, row in enumerate(state.observation(None)["rows"]):
                        for k, (_, down) in enumerate(row):
                            if down:
                                assert f'"{deal[2 + 14 * s + k]}"' not in text


# -- records -----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_records_round_trip_mid_hand_and_whole_matches(variant):
    name, options = VARIANTS[variant]
    rng = random.Random(4)
    state = tt.new_game(name, **options).new_match(seed=11)
    for _ in range(40):
        state.apply(choose(state, rng))
    text = state.to_json()
    again = tt.load(text)
    assert again.to_json() == text
    assert again.observation(again.current_player) == state.observation(state.current_player)
    while not state.is_over():
        state.apply(choose(state, rng))
    assert tt.load(state.to_json()).to_json() == state.to_json()


def test_tampered_record_names_the_action_and_the_broken_rule():
    state = tt.new_game("marjapussi").new_match(seed=5)
    rng = random.Random(5)
    for _ in range(10):
        state.apply(choose(state, rng))
    rec = record(state)
    hand = rec["hands"][0]
    # the first lead replaced by a card of the same hand that breaks the ace rule, if any
    leader_cards = hand["deal"][(hand["dealer"] + 1) % 4].split()
    aces = [c for c in leader_cards if c[0] == "A"]
    if aces:
        non_ace = next(c for c in leader_cards if c[0] != "A")
        hand["actions"][0] = f"play {non_ace}"
        with pytest.raises(tt.RecordError, match="action 1 .*must be an ace"):
            tt.load(json.dumps(rec))
    rec = record(state)
    rec["hands"][0]["actions"][1] = "ask whole"
    with pytest.raises(tt.RecordError, match="action 2"):
        tt.load(json.dumps(rec))
