"""An arena run's journal: every finished deal saved as it finishes, so a long run can go on.

A 1,000-deal run of a searching bot takes hours.  Without a journal a crash, a
closed terminal or Ctrl-C loses all of it, because the summary is made at the
end.  The journal is a JSON Lines file: a first line with the run's config, then
one line per finished deal (its :class:`~.deals.DealResult`), written and
flushed as each arrives.  Started again with the same config, the run reads the
deals already played and plays only the rest; since a deal's result depends
only on the config and its number (:func:`~.deals.play_deal`), the summary is
the one an uninterrupted run would have given.  Raising ``deals`` extends a run;
any other difference in the config is refused, since its deals would measure
something else.

A process killed while writing leaves a last line without its newline: that
deal is dropped and played again.  Any other line that does not read is an
error naming the line, and the file is left as it is.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import IO, Any

from .deals import ArenaConfig, DealResult, Play

__all__ = ["Journal", "JournalError"]

FORMAT = "tricktaker arena journal 1"
"""The first line's ``format``: what a reader checks before it trusts the rest."""


class JournalError(ValueError):
    """A journal that cannot be continued: another run's, or not a journal, or damaged."""


class Journal:
    """An open journal: the deals it already holds, and :meth:`add` for each new one."""

    def __init__(self, path: Path, config: ArenaConfig) -> None:
        """Open ``path`` for ``config``'s run, creating it if it does not exist.

        Raises :class:`JournalError` if the file is another run's, damaged, or open in a run
        going on now (two runs appending to one journal would play every deal twice); nothing
        is written to it then.
        """
        self.path = path
        self.done: dict[int, DealResult] = {}
        header = _config_record(config)
        self._file: IO[bytes] = path.open("a+b")
        try:
            _lock(self._file, path)
            self._file.seek(0)
            data = self._file.read()
            if data:
                self._file.truncate(self._read(data, header))  # a deal cut off mid-line
            else:
                self._file.write(json.dumps(header).encode() + b"\n")
                self._file.flush()
        except BaseException:
            self._file.close()
            raise

    def _read(self, data: bytes, header: dict[str, Any]) -> int:
        """Load the deals in ``data`` (the file's) after checking its config against ``header``;
        returns the length of its complete lines."""
        path = self.path
        complete = data.rfind(b"\n") + 1
        lines = data[:complete].decode("utf-8", errors="replace").splitlines()
        if not lines:
            raise JournalError(f"{path}: not an arena journal (its first line is cut off)")
        try:
            first = json.loads(lines[0])
        except json.JSONDecodeError:
            first = None
        if not isinstance(first, dict) or first.get("format") != FORMAT:
            raise JournalError(f"{path}: not an arena journal (its first line is not "
                               f"{{\"format\": \"{FORMAT}\", ...}}); give another file")
        differ = sorted(key for key in set(header["config"]) | set(first.get("config", {}))
                        if key != "deals" and header["config"].get(key) != first["config"].get(key))
        if differ:
            named = "; ".join(f"{key}: {first['config'].get(key)!r} there, {header['config'].get(key)!r} now"
                              for key in differ)
            raise JournalError(f"{path} is the journal of another run ({named}); only --deals may "
                               "change when a run goes on: give the same settings or another file")
        for number, line in enumerate(lines[1:], start=2):
            try:
                result = _result(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
                raise JournalError(f"{path}, line {number}: not a deal's result ({error})") from None
            self.done[result.deal] = result
        return complete

    def add(self, result: DealResult) -> None:
        """Append ``result`` and flush it to the file, so a crash after this keeps it."""
        self._file.write(json.dumps(dataclasses.asdict(result)).encode() + b"\n")
        self._file.flush()
        self.done[result.deal] = result

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _lock(file: IO[bytes], path: Path) -> None:
    """Hold ``file`` for this process alone while it is open (POSIX; elsewhere nothing)."""
    try:
        import fcntl
    except ImportError:
        return
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise JournalError(f"{path} is in use by a run going on now; wait for it, stop it, or give "
                           "another file") from None


def _config_record(config: ArenaConfig) -> dict[str, Any]:
    """The journal's first line: the format and the config as JSON would read it back (tuples
    become lists, so a config compares equal to itself after a round trip)."""
    record: dict[str, Any] = json.loads(json.dumps({"format": FORMAT, "config": dataclasses.asdict(config)}))
    return record


def _result(data: dict[str, Any]) -> DealResult:
    """A :class:`DealResult` from its JSON form (lists back to tuples)."""
    plays = tuple(Play(lineup=tuple(p["lineup"]), points=tuple(float(x) for x in p["points"]),
                       winner=p["winner"], hands=int(p["hands"]),
                       places=None if p.get("places") is None else tuple(p["places"]))
                  for p in data["plays"])
    if not isinstance(data["deal"], int) or data["deal"] < 0:
        raise ValueError(f"deal number {data['deal']!r}")
    return DealResult(
        deal=data["deal"], plays=plays,
        decision_times=tuple(tuple(float(t) for t in times) for times in data["decision_times"]),
        dd_losses=tuple(tuple(float(x) for x in losses) for losses in data.get("dd_losses", ())),
        dd_skipped=tuple(int(n) for n in data.get("dd_skipped", ())))
