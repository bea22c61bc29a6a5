"""Game records: a plain JSON document that replays to the identical state.

The format is documented in ``docs/records.md``.  In short::

    {"format": "tricktaker-record", "version": 1,
     "game": "tuppi", "preset": null, "options": {...every option...},
     "seed": 7, "seeded": true, "single_hand": false,
     "start": {...match context before the first recorded hand...},
     "hands": [{"hand_number": 0, "dealer": 0, "deal": ["AS KS ...", ...],
                "actions": ["bid 7H", "bid 5S", ...], "result": {...}}],
     "result": {"over": true, "scores": [52, 0], "winner": 0, "draw": false}}

``load`` checks everything it reads: the game and options, that each deal is
a deal of the game (and, when ``seeded``, the very deal the seed gives), that
every action is legal where it stands, and that the recorded results are the
ones the replay produces.  Any disagreement raises :class:`RecordError` naming
the action number (1-based over the whole record) or hand and the reason.
"""

from __future__ import annotations

import json
from typing import Any

from .engine import JSON, IllegalActionError, OptionError, State, deal_from_seed

__all__ = ["FORMAT", "RecordError", "dump", "load"]

FORMAT = "tricktaker-record"
VERSION = 1


class RecordError(ValueError):
    """A record that is malformed or does not replay; the message says where and why."""


def to_record(state: State) -> JSON:
    """The record of a state as a JSON-safe dict."""
    game = state.game
    deck = game.deck
    hands = []
    for log in state._log:
        hands.append({
            "hand_number": log.start["hand_number"],
            "dealer": log.start["dealer"],
            "deal": [deck.format(m) for m in log.deal],
            "actions": [a.text for a in log.actions],
            "result": log.result,
        })
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "preset": game.preset,
        "options": dict(game.options),
        "seed": state.seed,
        "seeded": state.seeded,
        "single_hand": state.single_hand,
        "start": state._log[0].start,
        "hands": hands,
        "result": {
            "over": state.is_over(),
            "scores": list(state.scores),
            "winner": state.winner,  # type: ignore[attr-defined]
            "draw": bool(getattr(state, "draw", False)),
        },
    }


def dump(state: State) -> str:
    """The record as JSON text, one hand per block, readable and diffable."""
    return json.dumps(to_record(state), indent=1, ensure_ascii=False)


def _field(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise RecordError(f"{where}: missing field {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: field {key!r} has the wrong type ({type(value).__name__})")
    return value


def load(text: str | bytes | JSON) -> State:
    """Replay a record (JSON text or the decoded dict) to the state it describes."""
    from . import new_game

    if isinstance(text, (str, bytes)):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not a JSON record: {exc}") from None
    else:
        data = text
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not a tricktaker record (expected \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise RecordError(f"unsupported record version {data.get('version')!r} (this reads {VERSION})")
    name = _field(data, "game", str, "record")
    options = _field(data, "options", dict, "record")
    try:
        game = new_game(name, **options)
    except OptionError as exc:
        raise RecordError(f"record: {exc}") from None
    preset = data.get("preset")
    if preset is not None and (not isinstance(preset, str) or preset not in game.PRESETS):
        raise RecordError(f"record: unknown preset {preset!r} for {name} "
                          f"(presets: {', '.join(game.PRESETS)})")
    game.preset = preset
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError("record: field 'seed' must be a whole number or null")
    seeded = _field(data, "seeded", bool, "record")
    single = _field(data, "single_hand", bool, "record")
    start = _field(data, "start", dict, "record")
    hands = _field(data, "hands", list, "record")
    if not hands:
        raise RecordError("record: no hands")
    if seeded and seed is None:
        raise RecordError("record: 'seeded' needs a seed")

    deals = []
    for i, hand in enumerate(hands):
        where = f"hand {i + 1}"
        deal_text = _field(hand, "deal", list, where)
        _field(hand, "actions", list, where)
        dealer = _field(hand, "dealer", int, where)
        try:
            masks = game.parse_deal([_text(d, where) for d in deal_text], dealer)
        except ValueError as exc:
            raise RecordError(f"{where}: bad deal: {exc}") from None
        if seeded:
            expected = deal_from_seed(seed, start["hand_number"] + i, game.deck,  # type: ignore[arg-type]
                                      game.pile_sizes(dealer))
            if masks != expected:
                raise RecordError(f"{where}: the deal is not the one seed {seed} gives")
        deals.append(masks)
    try:
        state = game.state_class(game, start, seed=seed, seeded=seeded, single_hand=single,
                                 deal=deals[0])
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"record: bad start context: {exc!r}") from None
    state._pending_deals = [] if seeded else deals[1:]

    number = 0
    for i, hand in enumerate(hands):
        if len(state._log) != i + 1:
            raise RecordError(f"hand {i + 1}: the replay is in hand {len(state._log)} here")
        if hand["dealer"] != state._log[i].start["dealer"]:
            raise RecordError(f"hand {i + 1}: the record says dealer {hand['dealer']}, "
                              f"the replay has dealer {state._log[i].start['dealer']}")
        for text in hand["actions"]:
            number += 1
            if len(state._log) != i + 1:
                raise RecordError(
                    f"action {number} ({text!r}): hand {i + 1} was already over")
            try:
                state.apply(_text(text, f"action {number}"))
            except IllegalActionError as exc:
                raise RecordError(f"action {number} (hand {i + 1}, {text!r}): {exc}") from None
            except RuntimeError:
                raise RecordError(f"action {number} (hand {i + 1}, {text!r}) ends the hand, but this "
                                  f"unseeded record has no deal for the next one") from None
        recorded = hand.get("result")
        replayed = state._log[i].result
        if recorded is not None and recorded != replayed:
            raise RecordError(
                f"hand {i + 1}: the recorded result {recorded} is not what the replay gives ({replayed})")
    result = data.get("result")
    if isinstance(result, dict):
        actual = to_record(state)["result"]
        if result != actual:
            raise RecordError(f"record: the recorded result {result} is not what the replay gives ({actual})")
    return state


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected text, got {type(value).__name__}")
    return value
