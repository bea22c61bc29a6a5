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

from .cards import popcount
from .engine import JSON, IllegalActionError, OptionError, State, check_seed, deal_from_seed

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


FIELDS = ("format", "version", "game", "preset", "options", "seed", "seeded", "single_hand", "start",
          "hands", "result")
"""A record's fields, every one required, no others allowed: what ``to_record`` writes."""
HAND_FIELDS = ("hand_number", "dealer", "deal", "actions", "result")
"""The fields of each entry of ``hands``."""


def _field(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise RecordError(f"{where}: missing field {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: field {key!r} has the wrong type ({type(value).__name__})")
    return value


def _exact_fields(obj: Any, fields: tuple[str, ...], where: str) -> None:
    """Raise unless ``obj`` is an object with exactly ``fields``: a record that loads
    writes itself back the same, so there is nothing it could silently drop."""
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: expected an object, got {type(obj).__name__}")
    missing = [k for k in fields if k not in obj]
    if missing:
        raise RecordError(f"{where}: missing field{'s' if len(missing) > 1 else ''} "
                          f"{', '.join(map(repr, missing))}")
    extra = [k for k in obj if k not in fields]
    if extra:
        raise RecordError(f"{where}: unknown field{'s' if len(extra) > 1 else ''} "
                          f"{', '.join(map(repr, extra))} (a record has {', '.join(fields)})")


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON text: ``1`` is not ``true`` and ``1.0`` is not ``1`` here."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _no_constant(name: str) -> Any:
    raise RecordError(f"not a JSON record: {name} is not a JSON number")


def _decode(text: str | bytes | JSON) -> Any:
    """The record's data: parsed from text, or a private copy of a dict (so the state
    keeps nothing of the caller's).  Only plain JSON passes: no NaN, no Infinity."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        if isinstance(text, str):
            return json.loads(text, parse_constant=_no_constant)
        if isinstance(text, dict):
            return json.loads(json.dumps(text, allow_nan=False))
    except RecordError:
        raise
    except UnicodeDecodeError as exc:
        raise RecordError(f"not a JSON record: the bytes are not UTF-8 ({exc.reason} at byte "
                          f"{exc.start})") from None
    except RecursionError:
        raise RecordError("not a JSON record: nested too deeply") from None
    except (ValueError, TypeError) as exc:  # JSONDecodeError, over-long numbers, non-JSON values
        raise RecordError(f"not a JSON record: {exc}") from None
    raise RecordError(f"a record is JSON text, bytes or a dict, not {type(text).__name__}")


def load(text: str | bytes | JSON) -> State:
    """Replay a record (JSON text or the decoded dict) to the state it describes.

    Every check is listed in ``docs/records.md``; any failure raises
    :class:`RecordError` (a ``ValueError``) naming the place.
    """
    from . import new_game

    data = _decode(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not a tricktaker record (expected \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise RecordError(f"unsupported record version {version!r} (this reads {VERSION})")
    _exact_fields(data, FIELDS, "record")
    name = _field(data, "game", str, "record")
    options = _field(data, "options", dict, "record")
    try:
        game = new_game(name, **options)
    except OptionError as exc:
        raise RecordError(f"record: {exc}") from None
    missing = [o.name for o in game.OPTIONS if o.name not in options]
    if missing:
        raise RecordError(f"record: options lacks {', '.join(missing)} (a record holds every option, "
                          f"so that it replays the same when defaults change)")
    preset = data["preset"]
    if preset is not None and (not isinstance(preset, str) or preset not in game.PRESETS):
        raise RecordError(f"record: unknown preset {preset!r} for {name} "
                          f"(presets: {', '.join(game.PRESETS) or 'none'})")
    game.preset = preset
    seed = data["seed"]
    if seed is not None:
        try:
            seed = check_seed(seed)
        except OptionError as exc:
            raise RecordError(f"record: field 'seed': {exc} (or null)") from None
    seeded = _field(data, "seeded", bool, "record")
    single = _field(data, "single_hand", bool, "record")
    hands = _field(data, "hands", list, "record")
    if not hands:
        raise RecordError("record: no hands")
    if seeded and seed is None:
        raise RecordError("record: 'seeded' needs a seed")
    try:
        start = game.state_class.check_start(game, data["start"])
    except OptionError as exc:
        raise RecordError(f"record: start: {exc}") from None
    if data["result"] is not None and not isinstance(data["result"], dict):
        raise RecordError("record: field 'result' must be an object (or null in a hand-written record)")

    deals = []
    for i, hand in enumerate(hands):
        where = f"hand {i + 1}"
        _exact_fields(hand, HAND_FIELDS, where)
        deal_text = _field(hand, "deal", list, where)
        _field(hand, "actions", list, where)
        _field(hand, "hand_number", int, where)
        dealer = _field(hand, "dealer", int, where)
        try:
            dealer = game.check_seat(dealer, "dealer")
            masks = game.parse_deal([_text(d, where) for d in deal_text], dealer)
        except ValueError as exc:
            raise RecordError(f"{where}: bad deal: {exc}") from None
        if seeded:
            expected = deal_from_seed(seed, start["hand_number"] + i, game.deck,
                                      [popcount(m) for m in masks])
            if masks != expected:
                raise RecordError(f"{where}: the deal is not the one seed {seed} gives")
        deals.append(masks)
    state = game.state_class(game, start, seed=seed, seeded=seeded, single_hand=single, deal=deals[0])
    state._pending_deals = [] if seeded else deals[1:]
    state._replaying_record = True
    try:
        _replay(state, hands)
    finally:
        del state._replaying_record
    for i, (log, masks) in enumerate(zip(state._log, deals, strict=False)):
        if log.deal != masks:  # a layout the hand's start does not deal (Tute cabrero: seats out)
            raise RecordError(f"hand {i + 1}: bad deal: the replay deals piles of "
                              f"{', '.join(str(popcount(m)) for m in log.deal)} cards there")
    actual = to_record(state)["result"]
    if data["result"] is not None and not _same(data["result"], actual):
        raise RecordError(f"record: the recorded result {data['result']} is not what the replay "
                          f"gives ({actual})")
    return state


def _replay(state: State, hands: list[Any]) -> None:
    """Apply every recorded action, checking hand numbers, dealers and results on the way."""

    number = 0
    for i, hand in enumerate(hands):
        if len(state._log) != i + 1:
            raise RecordError(f"hand {i + 1}: the replay is in hand {len(state._log)} here")
        reached = state._log[i].start
        for key in ("hand_number", "dealer"):
            if hand[key] != reached[key]:
                raise RecordError(f"hand {i + 1}: the record says {key} {hand[key]}, "
                                  f"the replay has {key} {reached[key]}")
        for text in hand["actions"]:
            number += 1
            if len(state._log) != i + 1:
                raise RecordError(
                    f"action {number} ({text!r}): hand {i + 1} was already over")
            try:
                state.apply(_text(text, f"action {number}"))
            except IllegalActionError as exc:
                raise RecordError(f"action {number} (hand {i + 1}, {text!r}): {exc}") from None
            except OptionError as exc:  # the next hand's deal does not fit its start
                raise RecordError(f"hand {i + 2}: bad deal: {exc}") from None
            except RuntimeError:
                raise RecordError(f"action {number} (hand {i + 1}, {text!r}) ends the hand, but this "
                                  f"unseeded record has no deal for the next one") from None
        recorded = hand["result"]
        replayed = state._log[i].result
        if recorded is not None and not _same(recorded, replayed):
            raise RecordError(
                f"hand {i + 1}: the recorded result {recorded} is not what the replay gives ({replayed})")
    if len(state._log) != len(hands):
        raise RecordError(f"record: the replay reaches hand {len(state._log)}, but the record lists "
                          f"{len(hands)}")


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected text, got {type(value).__name__}")
    return value
