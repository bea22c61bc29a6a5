"""Ratings of the server's players: which matches count, what their games are, and the leaderboard.

**Rated matches.** A match is rated when it ends and every seat is a signed-in
person or a bot level of :data:`BOT_RATINGS` (a seat of a guest makes it a
friendly: the result is still in the players' profiles).  Each game and table
size has its own rating: Tute for two is not Tute for four.  A table of one hand
(a duplicate board) is not a match: it is neither rated nor given a result here.

**A match as Glicko-2 games.** The engine tells every game's winner (a side,
or a seat when everyone plays alone); that is what a match's result is.  Each
player meets each *opponent* (every seat of another side; a partner is not an
opponent) in one game: 1 for a win, 0 for a loss, and 0.5 between two sides
that both lost (three players alone: the two losers draw) or when no one won.
A match that ends with places instead of one winner (Tute cabrero: the players
left share the first place, those put out follow in the order they went out)
counts each pair of seats by place: 1 to the better place, 0.5 to an equal one.
The whole match is one rating period, every rating taken from before it, so
the order in which seats are counted does not matter.  In a partnership
both partners get the same games against the same two opponents.

**Bots** are players with fixed ratings, never updated (:data:`BOT_RATINGS`):
a person who beats ``pimc`` gains more than one who beats ``random``.  A spec
with parameters (``pimc:time=1``) counts as its level.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select, update

from ..ratings import Rating, rate
from .store import Store, players, ratings, seatings, tables

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["BOT_RATINGS", "MatchResult", "leaderboard", "player_ratings", "rate_match", "unrecorded_matches"]

BOT_RATINGS: dict[str, Rating] = {
    "random": Rating(900.0, 60.0),
    "rules": Rating(1300.0, 60.0),
    "ismcts": Rating(1550.0, 60.0),
    "pimc": Rating(1600.0, 60.0),
}
"""The fixed rating of each bot level (a deviation of 60: fixed, but not certainty).

Set from the bots' measured strength against each other (docs/bots.md, *Measured
strength*, duplicate deals): ``rules`` wins 81-100% of deals against ``random`` (about
400 Elo at that rate), ``pimc`` 60-91% against ``rules`` (a median near 75%: about 190),
and ``ismcts`` is level with ``pimc`` in Bondtolva, where both were measured, but ten times
slower (``pimc`` is the default, the strongest).  Those are shares of single deals; a match
of many deals favours the stronger side more, so the gaps are rounded up.  Where people
stand among them is not measured: a new player's 1500 ± 350 moves quickly to where they
stand."""
LEADERBOARD_SIZE = 100


@dataclass(frozen=True)
class MatchResult:
    """What a finished match tells the ratings: its game and size, each seat's kind, bot or
    player, each seat's side, and the winning side (None: nobody won)."""

    table_id: str
    game: str
    seats: list[dict[str, Any]]
    sides: list[int]
    winner: int | None
    single_hand: bool = False
    """A table of one hand (a duplicate board): no match, so no result and no rating."""
    places: tuple[int, ...] | None = None
    """Each seat's place (1 best, equal places shared) for a match that ends with places, not
    one winner (Tute cabrero's ``state.places``); None otherwise."""

    @classmethod
    def of(cls, table: Table) -> MatchResult:
        """The result of a finished table's match."""
        game = table.game
        places = getattr(table.state, "places", None)
        return cls(table.id, game.name, [dict(info) for info in table.stored.seats],
                   [game.side_of(seat) for seat in range(game.num_players)],
                   getattr(table.state, "winner", None), table.stored.single_hand,
                   None if places is None else tuple(places))

    def result(self, seat: int) -> float:
        """``seat``'s own result: 1 won, 0 lost, 0.5 drawn (no winner, or every seat placed first)."""
        if self.places is not None:
            if min(self.places) == max(self.places):
                return 0.5
            return 1.0 if self.places[seat] == 1 else 0.0
        return 1.0 if self.winner == self.sides[seat] else 0.5 if self.winner is None else 0.0

    def score(self, seat: int, other: int) -> float:
        """``seat``'s score against an opponent ``other``: 1, 0 or 0.5 (both lost, or no winner);
        by place when the match has places (the better place 1, an equal one 0.5)."""
        if self.places is not None:
            mine, theirs = self.places[seat], self.places[other]
            return 1.0 if mine < theirs else 0.0 if mine > theirs else 0.5
        if self.winner == self.sides[seat]:
            return 1.0
        if self.winner == self.sides[other]:
            return 0.0
        return 0.5

    def rated(self) -> bool:
        """Every seat a signed-in person or a bot level of :data:`BOT_RATINGS`."""
        return all(seat.get("player") if seat["kind"] == "human" else _level(seat.get("bot")) in BOT_RATINGS
                   for seat in self.seats)


def _level(spec: Any) -> str:
    return str(spec or "").split(":", 1)[0]


def rate_match(store: Store, match: MatchResult) -> None:
    """Record the result in each signed-in seat, and, for a rated match, update the ratings.

    Once only: a match whose result is already recorded is left alone, so a second call
    (the hook and the start-up sweep both) changes nothing.  One transaction: the ratings
    and the results are stored together or not at all.  A seat whose player has no
    ``tt_seatings`` row yet (a module that put the player in the seats itself) gets one.
    A single hand (a duplicate board) is not a match: it is left to its own module.
    """
    people = {seat: info["player"] for seat, info in enumerate(match.seats)
              if info["kind"] == "human" and info.get("player")}
    if not people or match.single_hand:
        return
    size = len(match.seats)
    now = time.time()
    with store.engine.begin() as conn:
        have = dict(conn.execute(select(seatings.c.seat, seatings.c.result)
                                 .where(seatings.c.table_id == match.table_id)).all())
        if any(result is not None for result in have.values()):
            return
        for seat, player_id in people.items():
            if seat not in have:
                conn.execute(insert(seatings).values(table_id=match.table_id, seat=seat,
                                                     player_id=player_id, at=now))
        before: dict[str, tuple[Rating, int]] = {}
        for player_id in set(people.values()):
            row = conn.execute(select(ratings).where(
                (ratings.c.player_id == player_id) & (ratings.c.game == match.game)
                & (ratings.c.players == size))).mappings().first()
            before[player_id] = ((Rating(row["rating"], row["rd"], row["volatility"]), row["matches"])
                                 if row is not None else (Rating(), 0))
        rated = match.rated()
        for seat, player_id in people.items():
            result = match.result(seat)
            values: dict[str, Any] = {"result": result}
            if rated:
                old, count = before[player_id]
                games = []
                for other, info in enumerate(match.seats):
                    if match.sides[other] == match.sides[seat]:
                        continue
                    opponent = (before[info["player"]][0] if info["kind"] == "human"
                                else BOT_RATINGS[_level(info.get("bot"))])
                    games.append((opponent, match.score(seat, other)))
                new = rate(old, games)
                values |= {"rating_before": old.rating, "rating_after": new.rating}
                row_values = {"rating": new.rating, "rd": new.rd, "volatility": new.volatility,
                              "matches": count + 1, "updated": now}
                if count:
                    conn.execute(update(ratings).where(
                        (ratings.c.player_id == player_id) & (ratings.c.game == match.game)
                        & (ratings.c.players == size)).values(**row_values))
                else:
                    conn.execute(insert(ratings).values(player_id=player_id, game=match.game, players=size,
                                                        **row_values))
            conn.execute(update(seatings).where(
                (seatings.c.table_id == match.table_id) & (seatings.c.seat == seat)).values(**values))


def leaderboard(store: Store, game: str, size: int, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """The best-rated players of a game at a table size: rank, player, nickname, rating, rd, matches."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(ratings, players.c.nickname).join(players, players.c.id == ratings.c.player_id)
            .where((ratings.c.game == game) & (ratings.c.players == size))
            .order_by(ratings.c.rating.desc(), ratings.c.rd, players.c.nickname_key)
            .limit(limit)).mappings().all()
    return [{"rank": rank, "player": row["player_id"], "nickname": row["nickname"], "rating": row["rating"],
             "rd": row["rd"], "matches": row["matches"]} for rank, row in enumerate(rows, 1)]


def player_ratings(store: Store, player_id: str) -> list[dict[str, Any]]:
    """A player's rating in each game and table size they have played rated matches in."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(ratings).where(ratings.c.player_id == player_id)
                            .order_by(ratings.c.game, ratings.c.players)).mappings().all()
    return [{"game": row["game"], "players": row["players"], "rating": row["rating"], "rd": row["rd"],
             "volatility": row["volatility"], "matches": row["matches"]} for row in rows]


def unrecorded_matches(store: Store) -> list[str]:
    """Finished tables with a signed-in seat whose result is not recorded (the server stopped
    between the last action and the ratings): the server records them at start."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(seatings.c.table_id).join(tables, tables.c.id == seatings.c.table_id)
            .where((tables.c.status == "over") & seatings.c.result.is_(None)
                   & ((tables.c.single_hand == 0) | tables.c.single_hand.is_(None))).distinct()).all()
    return [row[0] for row in rows]
