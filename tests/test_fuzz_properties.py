"""Property-based fuzzing of every promise the State API and the records make (issue 20).

Hypothesis generates hostile actions, records, options, seats and deals for
every variant, and each property says what must happen to any input:

- it is accepted, and then the state stays sound (plays on, observes, and its
  record reloads to the same text); or
- it is refused with a ``ValueError`` subclass whose message is not empty,
  and the state is exactly as it was.

Anything else (a TypeError, a KeyError, an IndexError, an accepted record that
will not reload) fails.  The default run is small (a few seconds); the same
properties run with many more examples under ``pytest -m slow``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_contract import VARIANTS

import tricktaker as tt
from tricktaker.engine import deal_from_seed

QUICK = settings(max_examples=60, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
"""The run every CI job does: fixed examples (derandomized), a few seconds in all."""
SLOW = settings(max_examples=5000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
"""``pytest -m slow``: many more examples, drawn afresh each run."""

NAMES = sorted(VARIANTS)


def make_game(variant: str) -> tt.Game:
    name, options = VARIANTS[variant]
    return tt.new_game(name, **options)


_STATES: dict[tuple[str, int, int], str] = {}


def base_record(variant: str, seed: int, steps: int) -> str:
    """A record of ``variant`` after ``steps`` random actions (cached: building one is the slow part)."""
    key = (variant, seed, steps)
    if key not in _STATES:
        state = make_game(variant).new_match(seed=seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
        _STATES[key] = state.to_json()
    return _STATES[key]


def snapshot(state: tt.State) -> tuple[str, str, list[str]]:
    return (state.to_json(), json.dumps(state.observation(None), sort_keys=True),
            [str(a) for a in state.legal_actions()])


def refused_cleanly(error: BaseException) -> None:
    """A refusal must be a ValueError subclass that says something."""
    assert isinstance(error, ValueError), f"{type(error).__name__}: {error}"
    assert str(error).strip(), "a refusal with no message"


def sound(state: tt.State, rng: random.Random, moves: int = 30) -> None:
    """An accepted state observes every seat, plays on, and its record reloads to the same text."""
    text = state.to_json()
    again = tt.load(text)
    assert again.to_json() == text, "an accepted state's record does not reload to the same text"
    for seat in range(state.num_players):
        json.dumps(state.observation(seat))
    for _ in range(moves):
        if state.is_over():
            break
        legal = state.legal_actions()
        assert legal, "a running state with no legal action"
        state.apply(rng.choice(legal))
    final = state.to_json()
    assert tt.load(final).to_json() == final


# -- hostile values -------------------------------------------------------------------------------

SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-3, max_value=60), st.integers(), st.integers(min_value=10**20, max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True), st.just(0.0), st.just(1.0),
    st.text(max_size=12), st.sampled_from(["0", "1", "true", "null", "AS", "TS", "x", "", " ", "٣"]),
    st.builds(np.int64, st.integers(min_value=-2, max_value=60)),
)
JSONISH = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(max_size=6), inner,
                                                                         max_size=3)),
                       max_leaves=8)
ANY_VALUE = st.one_of(JSONISH, st.just(b"play AS"), st.just(object()), st.just(random.Random(1)))

CARD_TEXTS = sorted({c.text for deck in tt.DECKS.values() for c in deck.cards})
WORDS = ["play", "bid", "pass", "sooli", "discard", "give", "declare", "ask", "answer", "raise", "redeal",
         "sing", "tute", "exchange", "whole", "half", "no", "rami", "nolo", "H", "S", "C", "D", "O", "E", "B"]
TOKENS = st.one_of(st.sampled_from(WORDS), st.sampled_from(CARD_TEXTS),
                   st.integers(min_value=-5, max_value=10**12).map(str), st.text(max_size=5),
                   st.sampled_from(["Tſ", "Aſ", "٣", "10h", "AS,KS", "9" * 5000, "\x00", "ＡS"]))
ACTION_TEXT = st.lists(TOKENS, min_size=0, max_size=4).map(" ".join)
ARGS = st.one_of(st.sampled_from([c for deck in tt.DECKS.values() for c in deck.cards]),
                 st.sampled_from([s for deck in tt.DECKS.values() for s in deck.suits]),
                 st.integers(min_value=-5, max_value=600), st.sampled_from(WORDS),
                 st.floats(), st.booleans(), st.builds(np.int64, st.integers(0, 600)), st.none())
ACTION_OBJECT = st.builds(lambda kind, args: (kind, tuple(args)),
                          st.one_of(st.sampled_from(WORDS), st.text(max_size=6)), st.lists(ARGS, max_size=3))


# -- actions --------------------------------------------------------------------------------------


def check_apply(variant: str, seed: int, steps: int, action: Any, seat: Any) -> None:
    state = tt.load(base_record(variant, seed, steps))
    before = snapshot(state)
    legal = {str(a) for a in state.legal_actions()}
    try:
        if seat is None:
            state.apply(action)
        else:
            state.apply(action, seat=seat)
    except Exception as error:  # noqa: BLE001  (the property is about which errors)
        refused_cleanly(error)
        assert snapshot(state) == before, "a refused action changed the state"
        event("action refused")
        return
    event("action applied")
    applied = state.history[-1]
    assert str(applied) in legal, f"{action!r} applied {applied}, not a legal action"
    sound(state, random.Random(seed), moves=5)


def action_property(check: Callable[..., None], settings_: settings) -> Callable[[], None]:
    @settings_
    @given(variant=st.sampled_from(NAMES), seed=st.integers(0, 3), steps=st.integers(0, 40),
           text=ACTION_TEXT, obj=ACTION_OBJECT, which=st.integers(0, 5), seat=st.one_of(st.none(), SCALARS),
           pick=st.integers(0, 10_000), token=TOKENS)
    def run(variant: str, seed: int, steps: int, text: str, obj: tuple[str, tuple[Any, ...]], which: int,
            seat: Any, pick: int, token: str) -> None:
        if which >= 4:  # near a legal action: its text re-cased and re-spaced, or one word changed
            state = tt.load(base_record(variant, seed, steps))
            legal = state.legal_actions()
            if not legal:
                return
            words = str(legal[pick % len(legal)]).split()
            if which == 5:
                words[pick % len(words)] = token
            action: Any = "  ".join(w.upper() if pick % 3 else w for w in words)
            seat = None if pick % 2 else seat
        elif which == 0:
            action = text
        elif which == 1:
            try:
                action = tt.Action(obj[0], *obj[1])
            except ValueError as error:  # a bad argument is refused where the Action is made
                refused_cleanly(error)
                return
        elif which == 2:
            action = obj[1][0] if obj[1] else None  # not an action at all
        else:
            action = text.upper()
        check(variant, seed, steps, action, seat)

    return run


test_fuzz_actions_are_applied_or_refused_cleanly = action_property(check_apply, QUICK)
test_fuzz_actions_slow = pytest.mark.slow(action_property(check_apply, SLOW))


def test_fuzz_every_legal_action_applies_by_object_and_by_text() -> None:
    """The other side of the coin: nothing legal is refused, however it is written."""
    for variant in NAMES:
        state = tt.load(base_record(variant, 1, 12))
        for action in state.legal_actions():
            for form in (action, str(action), str(action).upper(), f"  {action}  ", tt.Action(str(action))):
                copy = state.clone()
                copy.apply(form)
                assert copy.history[-1] is action


# -- records --------------------------------------------------------------------------------------


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value: dict keys and list indices, outermost first."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += paths(item, (*prefix, index))
    return out


def nudge(value: Any, by: int) -> Any:
    """A value near ``value`` and of its kind: a number moved a little, a list shortened or
    lengthened, text with its case changed; these pass the type checks and test the ranges."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + (by % 5) - 2
    if isinstance(value, list):
        return value[:-1] if by % 2 and value else [*value, value[0] if value else 0]
    if isinstance(value, str):
        return value.upper() if by % 2 else value + " "
    return value


def mutate(data: Any, path: tuple[Any, ...], how: int, value: Any, by: int = 0) -> Any:
    """``data`` with the value at ``path`` replaced (how 0), deleted (1), a key/item added (2),
    or nudged (3)."""
    if not path:
        return value
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == 3:
        parent[last] = nudge(parent[last], by)
    elif how == 1:
        del parent[last]
    elif how == 2 and isinstance(parent, dict):
        parent[f"{last}_extra"] = value
    elif how == 2 and isinstance(parent, list):
        parent.insert(last, value)
    else:
        parent[last] = value
    return data


def check_record(variant: str, seed: int, steps: int, pick: int, how: int, value: Any) -> None:
    """Load a valid record with one place changed: refused with RecordError, or sound."""
    data = json.loads(base_record(variant, seed, steps))
    places = paths(data)
    path = places[pick % len(places)]
    try:
        changed = mutate(data, path, how, value, pick)
        text: Any = json.dumps(changed) if (pick // len(places)) % 2 else changed
    except (TypeError, ValueError):  # a value JSON cannot hold: hand the dict over as it is
        text = changed
    try:
        state = tt.load(text)
    except Exception as error:  # noqa: BLE001
        refused_cleanly(error)
        assert isinstance(error, tt.RecordError), f"load raised {type(error).__name__}, not RecordError"
        event("record refused")
        return
    event("record accepted")
    sound(state, random.Random(seed))


def record_property(settings_: settings) -> Callable[[], None]:
    @settings_
    @given(variant=st.sampled_from(NAMES), seed=st.integers(0, 3), steps=st.sampled_from([0, 15, 60, 400]),
           pick=st.integers(0, 10_000), how=st.integers(0, 4), value=JSONISH)
    def run(variant: str, seed: int, steps: int, pick: int, how: int, value: Any) -> None:
        check_record(variant, seed, steps, pick, min(how, 3), value)

    return run


test_fuzz_records_load_soundly_or_raise_record_error = record_property(QUICK)
test_fuzz_records_slow = pytest.mark.slow(record_property(SLOW))


@QUICK
@given(raw=st.one_of(st.binary(max_size=40), st.text(max_size=40), ANY_VALUE,
                     st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
                     st.integers(1, 3000).map(lambda n: '{"a":' * n + "1" + "}" * n)))
def test_fuzz_load_refuses_whatever_is_not_a_record(raw: Any) -> None:
    with pytest.raises(tt.RecordError) as info:
        tt.load(raw)
    refused_cleanly(info.value)


def test_fuzz_every_variant_reloads_to_the_same_text_at_every_step() -> None:
    for variant in NAMES:
        for steps in (0, 7, 60):
            text = base_record(variant, 2, steps)
            assert tt.load(text).to_json() == text


# -- options, seeds, dealers, scores, deals -------------------------------------------------------


def options_property(settings_: settings) -> Callable[[], None]:
    @settings_
    @given(variant=st.sampled_from(NAMES), key=st.integers(0, 20), value=SCALARS, preset=st.one_of(
        st.none(), SCALARS), seed=ANY_VALUE, dealer=ANY_VALUE, scores=JSONISH, which=st.integers(0, 3))
    def run(variant: str, key: int, value: Any, preset: Any, seed: Any, dealer: Any, scores: Any,
            which: int) -> None:
        name, _ = VARIANTS[variant]
        cls = tt.GAMES[name]
        option = cls.OPTIONS[key % len(cls.OPTIONS)].name
        try:
            game = tt.new_game(name, preset=preset, **{option: value}) if which == 0 else make_game(variant)
            if which == 1:
                state = game.new_match(seed=seed, dealer=dealer)
            elif which == 2:
                state = game.new_hand(seed=seed if isinstance(seed, int) else None, dealer=dealer,
                                      scores=scores)
            else:
                state = game.new_hand(scores=scores, seed=1)
        except Exception as error:  # noqa: BLE001
            refused_cleanly(error)
            return
        if which != 0:
            sound(state, random.Random(1), moves=10)

    return run


test_fuzz_options_seeds_dealers_and_scores = options_property(QUICK)
test_fuzz_options_slow = pytest.mark.slow(options_property(SLOW))


@QUICK
@given(variant=st.sampled_from(NAMES), seat=ANY_VALUE, steps=st.integers(0, 30))
def test_fuzz_seats_are_a_seat_or_a_seat_error(variant: str, seat: Any, steps: int) -> None:
    state = tt.load(base_record(variant, 0, steps))
    before = snapshot(state)
    valid = type(seat) in (int, np.int64) and 0 <= seat < state.num_players
    for call in (state.observation, state.hand, lambda s: state.sample_world(s, random.Random(0))):
        if valid or (seat is None and call == state.observation):
            call(seat)
        else:
            with pytest.raises(tt.SeatError) as info:
                call(seat)
            refused_cleanly(info.value)
    assert snapshot(state) == before


@QUICK
@given(variant=st.sampled_from(NAMES), seed=st.integers(0, 50), swaps=st.lists(
    st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60)), max_size=3),
       extra=st.sampled_from(["", "AS", "1O", "7S", "zz", "AS AS"]), dealer=st.integers(-1, 4))
def test_fuzz_deals_are_dealt_or_refused(variant: str, seed: int, swaps: list[tuple[int, int, int]],
                                         extra: str, dealer: int) -> None:
    game = make_game(variant)
    piles = [game.deck.format(m).split() if m else [] for m in
             deal_from_seed(seed, 0, game.deck, game.pile_sizes(0))]
    for a, b, c in swaps:  # move a card from one pile to another, or duplicate one
        source = piles[a % len(piles)]
        if source:
            card = source[b % len(source)]
            if c % 2:
                source.remove(card)
            piles[c % len(piles)].append(card)
    if extra:
        piles[seed % len(piles)].append(extra)
    try:
        state = game.new_hand(deal=[" ".join(p) for p in piles], dealer=dealer)
    except Exception as error:  # noqa: BLE001
        refused_cleanly(error)
        return
    sound(state, random.Random(seed))


def test_fuzz_a_huge_number_is_described_not_printed() -> None:
    """str() of a 5,000-digit int is itself an error: the message gives its size instead."""
    for call in (lambda: tt.new_game("tuppi").new_match(seed=10**5000),
                 lambda: tt.new_game("tuppi").new_match(dealer=10**5000)):
        with pytest.raises(tt.OptionError) as info:
            call()
        assert len(str(info.value)) < 120
