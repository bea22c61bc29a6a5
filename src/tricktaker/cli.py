"""The ``tricktaker`` command: play against bots, read the rules, replay records, simulate.

::

    tricktaker play tuppi --seed 3 --save match.json
    tricktaker play tute --players 2 --seed 5
    tricktaker rules tute
    tricktaker replay match.json --hand 2
    tricktaker replay match.json --analyse --time-limit 1
    tricktaker simulate tute --hands 10000 --seed 1
    tricktaker solve --game tuppi --seed 4
    tricktaker arena tuppi --bots pimc,rules --deals 200 --workers 2 --plot duel.png
    tricktaker games

Like every front end, this module reaches the games only through the public
State API (``legal_actions``, ``apply``, ``observation``, ``to_json``,
``tt.load``).  The referee loop of ``play`` (:class:`~tricktaker.tui.PlaySession`)
holds the State, as any card table does, but everything it prints for the
person comes from ``observation(seat)`` of that person's seat (or from the
public face of an action, such as a card played to a trick), so the screen
cannot show a card the player is not entitled to see.  Each game's panels live
in ``tricktaker.tui`` (one module per game); this module parses the command
line and runs the commands.

Exit codes: 0 on success (also when the player quits), 2 for a usage error,
an unknown game, preset, option or bot, or a record that does not load.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console
from rich.padding import Padding
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

import tricktaker as tt

from .bots import BOTS, DEFAULT_BOT, Bot, Oracle, make_bot, parse_bot, view_of
from .bots.pimc import MAX_THREADS
from .engine import JSON, Action, Game, OptionError, State
from .record import RecordError
from .tui import SCREENS, PlaySession, screen_class
from .tui.screen import public

if TYPE_CHECKING:
    from .arena import ArenaConfig, DealResult, Journal

__all__ = ["PlaySession", "main", "read_line"]


class CliError(Exception):
    """A usage error the command reports on stderr with exit code 2."""


def read_line(prompt: str) -> str:
    """Read one line typed by the person at the table.

    Every prompt of ``tricktaker play`` goes through here, so tests (and other
    front ends) can script a game by replacing this function.
    """
    return input(prompt)


def _ask(prompt: str) -> str:
    return read_line(prompt)  # looked up at each call, so a replaced read_line is used


# -- commands -------------------------------------------------------------------------------

def _option_value(game_cls: type[Game], key: str, raw: str) -> Any:
    """Convert ``--option key=value`` text to the option's type; leave bad text for the game to reject."""
    option = next((o for o in game_cls.OPTIONS if o.name == key), None)
    if option is None:
        return raw
    if isinstance(option.default, bool):
        return {"true": True, "yes": True, "on": True, "1": True,
                "false": False, "no": False, "off": False, "0": False}.get(raw.lower(), raw)
    if isinstance(option.default, int):
        try:
            return int(raw)
        except ValueError:
            return raw
    return raw


def make_game(name: str, preset: str | None, option_texts: Sequence[str] | None) -> Game:
    """The rule set from command-line words; unknown names raise :class:`OptionError`."""
    game_cls = tt.GAMES.get(name.lower())
    if game_cls is None:
        return tt.new_game(name)  # raises the OptionError listing the games
    options: dict[str, Any] = {}
    for text in option_texts or ():
        key, sep, raw = text.partition("=")
        if not sep or not key.strip():
            raise CliError(f"--option takes key=value (e.g. target=40), not {text!r}")
        options[key.strip()] = _option_value(game_cls, key.strip(), raw.strip())
    return tt.new_game(name, preset=preset, **options)


def _bot_names(text: str, count: int, oracles: bool = False) -> list[str]:
    """The bot specs of ``--bots``, each checked; an oracle (it sees every card) only where
    ``oracles`` (the arena, which hands it the true state)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise CliError(f"--bots takes one bot name or {count} names separated by commas, not {text!r}")
    for name in names:
        try:
            bot = parse_bot(name)[0]
        except ValueError as error:
            raise CliError(str(error)) from None
        factory = BOTS[bot]
        if not oracles and isinstance(factory, type) and issubclass(factory, Oracle):
            raise CliError(f"{bot} sees every card: only the arena seats it "
                           f"(tricktaker arena GAME --bots {bot},rules)")
    return names


def _screen(game: Game, command: str) -> None:
    """Check that the terminal can show the game."""
    if game.name not in SCREENS:
        raise CliError(f"{command} does not support {game.name} yet (games: {', '.join(SCREENS)})")


def _players_option(args: argparse.Namespace) -> list[str]:
    """The ``--option`` texts, with ``--players N`` as ``players=N`` (games whose table size is an option)."""
    options = list(args.option or ())
    if args.players is not None:
        game_cls = tt.GAMES.get(args.game.lower())
        if game_cls is not None and not any(o.name == "players" for o in game_cls.OPTIONS):
            raise CliError(f"{game_cls.name} is always played by {game_cls.num_players}: "
                           "--players does not apply")
        options.append(f"players={args.players}")
    return options


def _table_sizes(game_cls: type[Game]) -> str:
    option = next((o for o in game_cls.OPTIONS if o.name == "players"), None)
    if option is not None and option.choices:
        return ", ".join(map(str, sorted(option.choices)))
    return str(game_cls.num_players)


BOT_DELAY = 0.6
"""Seconds ``play`` pauses after each bot move by default: a trick appears card by card."""
MAX_BOT_DELAY = 10.0


def cmd_play(args: argparse.Namespace, out: Console, err: Console) -> int:
    game = make_game(args.game, args.preset, _players_option(args))
    _screen(game, "play")
    n = game.num_players
    if not 0 <= args.seat < n:
        raise CliError(f"--seat must be 0..{n - 1}, not {args.seat}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    others = [(args.seat + k) % n for k in range(1, n)]
    names = _bot_names(args.bots, len(others))
    bots = {seat: make_bot(name, seed=seed * 10 + seat) for seat, name in zip(others, names, strict=True)}
    state = game.new_match(seed=seed)
    save = Path(args.save) if args.save else None
    if save is not None and not save.parent.is_dir():
        raise CliError(f"cannot save to {save}: no directory {save.parent}")
    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    if not 0 <= args.bot_delay <= MAX_BOT_DELAY:
        raise CliError(f"--bot-delay must be 0..{MAX_BOT_DELAY:g} seconds, not {args.bot_delay:g}")
    # the pause is for a person watching: none when the output is a file or a pipe
    delay = args.bot_delay if out.is_terminal else 0.0
    return PlaySession(state, args.seat, bots, out, err, save, ask=_ask, bot_delay=delay).run()


def cmd_rules(args: argparse.Namespace, out: Console, err: Console) -> int:
    game = make_game(args.game, None, None)
    cls = type(game)
    out.print(Rule(f"{cls.title} ({cls.name})", style="cyan", align="left"))
    out.print(_reflow(cls.SUMMARY, out.width))
    out.print()
    # One block per option, not a four-column table: at 80 columns a table cut the long
    # names, values and words of the meaning ("partnersh…"); a block wraps at spaces only.
    out.print(Text("Options  (tricktaker play ... --option name=value)", style="italic"))
    for option in cls.OPTIONS:
        head = Text("  ")
        head.append(option.name, style="cyan")
        head.append(f" = {json.dumps(option.default)}")
        out.print(head)
        out.print(Padding(Text(f"allowed: {option.describe()}", style="dim"), (0, 0, 0, 6)))
        out.print(Padding(Text(option.doc), (0, 0, 0, 6)))
    out.print()
    if any(option.name == "players" for option in cls.OPTIONS):
        out.print(Text("--players N is short for --option players=N.", style="dim"))
    presets = Table(title="Presets  (--preset name)", box=box.SIMPLE_HEAD, title_justify="left")
    presets.add_column("preset", style="cyan", no_wrap=True)
    presets.add_column("sets")
    for name, values in cls.PRESETS.items():
        sets = ", ".join(f"{k}={json.dumps(v)}" for k, v in values.items()) or "the defaults"
        presets.add_row(name, sets)
    out.print(presets)
    return 0


def _reflow(text: str, width: int) -> Text:
    """Paragraphs hard-wrapped wider than the console are joined, so the console can wrap them."""
    paragraphs = []
    for paragraph in text.split("\n\n"):
        lines = paragraph.splitlines()
        if any(len(line) > width for line in lines):
            paragraph = " ".join(line.strip() for line in lines)
        paragraphs.append(paragraph)
    return Text("\n\n".join(paragraphs))


def cmd_games(args: argparse.Namespace, out: Console, err: Console) -> int:
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("game", style="cyan")
    table.add_column("title")
    table.add_column("players", justify="right")
    table.add_column("presets")
    for name, cls in tt.GAMES.items():
        table.add_row(name, cls.title, _table_sizes(cls), ", ".join(cls.PRESETS) or "—")
    out.print(table)
    return 0


# replay


def cmd_replay(args: argparse.Namespace, out: Console, err: Console) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from None
    try:
        final = tt.load(text)
    except RecordError as exc:
        err.print(Text(f"tricktaker: {path}: {exc}", style="red"), soft_wrap=True)
        return 2
    record = json.loads(text)
    game = final.game
    _screen(game, "replay")
    screen = screen_class(game.name).for_replay(out, game)
    hands = record["hands"]
    if args.hand is not None and not 1 <= args.hand <= len(hands):
        raise CliError(f"--hand must be 1..{len(hands)}: the record has {len(hands)} hands")

    base = type(game).default_options()
    if game.preset is not None and game.preset in type(game).PRESETS:
        base.update(type(game).PRESETS[game.preset])
    changed = [f"{k}={json.dumps(v)}" for k, v in game.options.items() if v != base[k]]
    rules = [f"preset {game.preset}"] if game.preset else []
    settings = ", ".join(rules + changed) or "default rules"
    head = Text.assemble((f"{game.title}", "bold"), f" record {path.name}: ", settings,
                         f"; seed {record['seed']}" if record.get("seed") is not None else "",
                         f"; {len(hands)} {screen.hand_word}{'s' if len(hands) != 1 else ''}")
    out.print(Panel(head, box=box.ROUNDED, expand=False))
    if args.time_limit is not None and not args.time_limit > 0:
        raise CliError(f"--time-limit must be positive seconds, not {args.time_limit}")
    if not 1 <= args.threads <= MAX_THREADS:
        raise CliError(f"--threads must be 1 to {MAX_THREADS}, not {args.threads}")
    for index in range(len(hands)):
        if args.hand is None or args.hand == index + 1:
            screen.replay_hand(record, index)
            if args.analyse:
                _print_analysis(out, screen.seats, record, index, args.time_limit, args.par, args.threads)
    out.print()
    out.print(screen.verdict(public(final), final.is_over()))
    return 0


def _cost_text(cost: int, units: str) -> str:
    """``−2 tricks``, ``−1 point``, ``0``: what a play lost, in the analysis's units."""
    if cost == 0:
        return "0"
    if units == "sooli":
        return "−sooli"
    word = units[:-1] if cost == 1 else units
    return f"−{cost} {word}"


def _outcome_text(outcome: JSON, seats: Any) -> str:
    contract = outcome["contract"]
    parts = [str(contract["contract"])] if "contract" in contract else []
    for key in ("declarer", "soloist"):
        if contract.get(key) is not None:
            parts.append(f"{key} {seats.short(contract[key])}")
    if contract.get("trump"):
        parts.append(f"trumps {contract['trump']}")
    points = " · ".join(f"{seats.side(side)} {p}" for side, p in enumerate(outcome["points"]))
    return f"{', '.join(parts) or 'no contract'}: {points}"


def _print_analysis(out: Console, seats: Any, record: JSON, index: int, time_limit: float | None,
                    par: bool, threads: int) -> None:
    """Each judged play of hand ``index``, trick by trick, with its cost and the best play;
    each seat's total; the par next to the contract played (tricktaker.analysis)."""
    from .analysis import TIMEOUT, analyse_hand

    report = analyse_hand(record, index, time_limit=time_limit, par=par, threads=threads).to_json()
    units = report["units"]
    out.print(Text(f"Analysis of hand {index + 1}: what each play cost on the true deal, double dummy "
                   f"(in {units}; 0 is a best play)", style="bold cyan"))
    by_trick: dict[int, list[JSON]] = {}
    for decision in report["decisions"]:
        by_trick.setdefault(decision["trick"], []).append(decision)
    for trick, decisions in sorted(by_trick.items()):
        line = Text(f"{trick + 1:>3}  ", style="dim")
        for i, d in enumerate(decisions):
            if i:
                line.append(" · ", style="dim")
            played = d["action"].removeprefix("play ")
            line.append(f"{seats.short(d['seat'])} {played} ")
            if d["status"] == TIMEOUT:
                line.append("not analysed (time)", style="dim")
            elif d["cost"] == 0:
                line.append("0", style="green")
            else:
                best = ", ".join(b.removeprefix("play ") for b in d["best"])
                line.append(_cost_text(d["cost"], units), style="bold red")
                line.append(f" (best {best})")
        out.print(line)
    totals = " · ".join(f"{seats.short(seat)} {_cost_text(cost, units)}"
                        for seat, cost in enumerate(report["totals"]))
    out.print(Text(f"Cost per player: {totals}"))
    skipped = sum(d["status"] == TIMEOUT for d in report["decisions"])
    if skipped:
        limit = f"{time_limit:g} s" if time_limit else "the limit"
        out.print(Text(f"{skipped} plays not analysed: their solve took over {limit} (--time-limit)",
                       style="dim"))
    if report["actual"] is not None:
        line = Text("Played: ").append(_outcome_text(report["actual"], seats))
        if report["par"] is not None:
            line.append("   Par: ", style="bold").append(_outcome_text(report["par"], seats))
        out.print(line)


# simulate


def _play_out(state: State, bots: dict[int, Bot], on_hand_end: Callable[[JSON], None],
              hand_budget: int) -> int:
    """Play bots until the state is over or ``hand_budget`` hands have finished; return hands played."""
    played = 0
    hand_number = state.hand_number
    while not state.is_over() and played < hand_budget:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(view_of(state, seat)))
        if state.is_over() or state.hand_number != hand_number:
            hand_number = state.hand_number
            played += 1
            on_hand_end(public(state)["previous_hand"])
    return played


def cmd_simulate(args: argparse.Namespace, out: Console, err: Console) -> int:
    game = make_game(args.game, args.preset, _players_option(args))
    _screen(game, "simulate")
    if args.hands < 1:
        raise CliError("--hands must be at least 1")
    n = game.num_players
    names = _bot_names(args.bots, n)
    bots = {seat: make_bot(name, seed=args.seed * 10 + seat) for seat, name in enumerate(names)}
    stats = screen_class(game.name).for_replay(out, game).stats()
    started = time.perf_counter()
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn(stats.hand_word), TimeRemainingColumn(), console=err, transient=True)
    with progress:
        task = progress.add_task("Simulating", total=args.hands)

        def hand_done(result: JSON) -> None:
            stats.add(result)
            progress.advance(task)

        if args.matches:
            match = 0
            while stats.hands < args.hands:
                state = game.new_match(seed=args.seed * 1_000_003 + match, dealer=match % n)
                _play_out(state, bots, hand_done, args.hands - stats.hands)
                match += 1
                if state.is_over():
                    stats.match_over(public(state), state.hand_number + 1)
        else:
            for i in range(args.hands):
                state = game.new_hand(seed=args.seed * 1_000_003 + i, dealer=i % n)
                _play_out(state, bots, hand_done, 1)
    elapsed = time.perf_counter() - started
    stats.print(out, game, args, elapsed)
    return 0

# arena


def cmd_arena(args: argparse.Namespace, out: Console, err: Console) -> int:
    from .arena import ArenaConfig, check_plotting, print_summary, run_deals, summarise, to_json, write_plot

    game = make_game(args.game, args.preset, _players_option(args))
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if not 2 <= len(names) <= game.num_sides:
        raise CliError(f"--bots takes 2 to {game.num_sides} bots for {game.name} "
                       f"(one per side at most), not {args.bots!r}")
    _bot_names(",".join(names), len(names), oracles=True)
    if args.deals < 1:
        raise CliError("--deals must be at least 1")
    if args.workers < 1:
        raise CliError("--workers must be at least 1")
    if not 0 < args.dd_time <= 3600:
        raise CliError("--dd-time must be above 0 and at most 3600 seconds")
    for path in (args.json, args.plot, args.journal):
        if path is not None and not Path(path).parent.is_dir():
            raise CliError(f"cannot write {path}: no directory {Path(path).parent}")
    if args.plot:
        try:
            check_plotting()  # before the run, which may take hours
        except RuntimeError as error:
            raise CliError(str(error)) from None
    config = ArenaConfig(game.name, tuple(names), args.deals, options=dict(game.options),
                         duplicate=args.duplicate, matches=args.matches, seed=args.seed,
                         dd_loss=args.dd_loss, dd_time=args.dd_time)
    journal = _open_journal(args.journal, config)
    results = [] if journal is None else [r for r in journal.done.values() if r.deal < config.deals]
    if journal is not None and results:
        out.print(f"{len(results)} of {config.deals} deals already played, read from {args.journal}")
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("deals"), TimeRemainingColumn(), console=err, transient=True)

    every = max(1, args.deals // 20)

    def finished(result: DealResult) -> None:
        results.append(result)
        if journal is not None:
            journal.add(result)
        progress.advance(task)
        if not err.is_terminal and len(results) % every == 0:
            # no progress bar in a log (nohup, a batch job): a line every 5% instead
            pair = summarise(config.bots, results, config.matches).pairs[0]
            err.print(f"{len(results)} of {config.deals} deals: {names[pair.a]} - {names[pair.b]} "
                      f"{pair.difference} points a deal so far", highlight=False)

    try:
        with progress:
            task = progress.add_task(" vs ".join(names), total=args.deals, completed=len(results))
            run_deals(config, args.workers, args.ray, finished, done={r.deal for r in results})
    except RuntimeError as error:
        raise CliError(str(error)) from None
    except KeyboardInterrupt:
        kept = f"; {args.journal} keeps them, and the same command goes on" if journal else ""
        err.print(f"stopped after {len(results)} of {config.deals} deals{kept}")
        if results:
            print_summary(out, config, summarise(config.bots, results, config.matches))
        return 130
    finally:
        if journal is not None:
            journal.close()
    summary = summarise(config.bots, results, config.matches)
    print_summary(out, config, summary)
    if args.json:
        Path(args.json).write_text(json.dumps(to_json(config, summary, results), indent=1) + "\n")
        out.print(f"results written to {args.json}")
    if args.plot:
        try:
            write_plot(Path(args.plot), config, summary)
        except RuntimeError as error:
            raise CliError(str(error)) from None
        out.print(f"plot written to {args.plot}")
    return 0


def _open_journal(path: str | None, config: ArenaConfig) -> Journal | None:
    """The run's journal (``--journal``), or None; a file of another run is refused by name."""
    from .arena import Journal, JournalError

    if path is None:
        return None
    try:
        return Journal(Path(path), config)
    except (JournalError, OSError) as error:
        raise CliError(f"--journal: {error}") from None


# solve


def _advance_to_play(state: State, moves: str | None) -> None:
    """Apply the given moves, then the first legal action until the hand's play starts."""
    for text in (m.strip() for m in (moves or "").split(";")):
        if text:
            try:
                state.apply(text)
            except ValueError as exc:
                raise CliError(f"--moves: {text!r}: {exc}") from None
    if state.is_over():
        raise CliError("the game is over: no play is left to solve (give a record of a game in "
                       "progress, or --game G --seed N with --moves to reach a position)")
    hand = state.hand_number
    while (not state.is_over() and state.hand_number == hand
           and public(state).get("phase") not in ("play", "answer")):
        state.apply(state.legal_actions()[0])
    if state.is_over() or state.hand_number != hand:
        raise CliError("the hand ended before its play, so no play is left to solve: give --moves "
                       "to choose the actions before the play (e.g. --moves 'bid 120; pass; ...')")


def cmd_serve(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Run the web server until interrupted."""
    import uvicorn

    from .server import create_app
    from .server.app import MAX_MESSAGE

    if args.workers < 0 or args.bot_delay < 0 or args.tables_per_minute < 0:
        raise CliError("--workers, --bot-delay and --tables-per-minute cannot be negative")
    if args.bot_time <= 0 or args.bot_worlds < 1 or args.bot_iterations < 1:
        raise CliError("--bot-time must be positive seconds; --bot-worlds and --bot-iterations at least 1")
    if args.turn_time < 0:
        raise CliError("--turn-time cannot be negative (0: no limit)")
    try:
        app = create_app(db=args.db, workers=args.workers, bot_delay=args.bot_delay,
                         tables_per_minute=args.tables_per_minute, bot_time=args.bot_time,
                         bot_worlds=args.bot_worlds, bot_iterations=args.bot_iterations,
                         turn_time=args.turn_time, pace_gc=True, queue_bot=args.queue_bot,
                         signups=not args.no_signups)
    except ValueError as exc:  # a --queue-bot this server would not seat
        raise CliError(f"--queue-bot: {exc}") from None
    out.print(f"tricktaker: tables at http://{args.host}:{args.port}/ (games kept in {args.db})")
    uvicorn.run(app, host=args.host, port=args.port, ws_max_size=4 * MAX_MESSAGE, log_level="info")
    return 0


def _values_table(state: State, values: dict[Action, int], units: str | None, best: set[Action]) -> Table:
    """Every legal action of ``state`` with its value (``best`` in green; an action missing from
    ``values``, which a stopped solve did not reach, as "not solved")."""
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("action")
    table.add_column(f"value ({units})" if units else "value", justify="right")
    for action in state.legal_actions():
        style = "bold green" if action in best else ""
        shown = Text(str(values[action]), style=style) if action in values else Text("not solved",
                                                                                     style="dim")
        table.add_row(Text(str(action), style=style), shown)
    return table


def cmd_solve(args: argparse.Namespace, out: Console, err: Console) -> int:
    from .solver import SolveError, SolveInterrupted, SolveTimeout, solve

    if args.time_limit is not None and not args.time_limit > 0:
        raise CliError(f"--time-limit must be positive seconds, not {args.time_limit}")
    if not 1 <= args.threads <= MAX_THREADS:
        raise CliError(f"--threads must be 1 to {MAX_THREADS}, not {args.threads}")
    if args.file:
        if args.game:
            raise CliError("give a record FILE or --game, not both")
        path = Path(args.file)
        try:
            state = tt.load(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CliError(f"cannot read {path}: {exc.strerror}") from None
        except RecordError as exc:
            raise CliError(f"{path}: {exc}") from None
    elif args.game:
        game = make_game(args.game, args.preset, _players_option(args))
        state = game.new_match(seed=args.seed)
    else:
        raise CliError("solve needs a record FILE or --game G --seed N")
    _advance_to_play(state, args.moves)
    obs = public(state)
    deck = state.game.deck
    head = Table(box=box.SIMPLE_HEAD, title=f"{state.game.title}, hand {state.hand_number + 1}")
    head.add_column("seat", justify="right")
    head.add_column("cards")
    for seat in range(state.game.num_players):
        mark = "  <- to play" if seat == state.current_player else ""
        head.add_row(str(seat), " ".join(str(c) for c in deck.sorted(state.hand(seat))) + mark)  # type: ignore[attr-defined]
    out.print(head)
    facts = {k: obs[k] for k in ("contract", "declarer", "soloist", "trump", "trick") if obs.get(k)}
    if facts:
        out.print(Text(", ".join(f"{k}: {v}" for k, v in facts.items())))
    started = time.perf_counter()
    threads = f" in {args.threads} threads" if args.threads > 1 else ""
    try:
        solution = solve(state, time_limit=args.time_limit, threads=args.threads)
    except SolveError as exc:
        raise CliError(str(exc)) from None
    except (SolveTimeout, SolveInterrupted) as exc:
        # what was solved before the stop is exact: show it, none in green (the best may be unsolved)
        elapsed = time.perf_counter() - started
        why = f"--time-limit {args.time_limit:g} s" if isinstance(exc, SolveTimeout) else "Ctrl-C"
        if exc.values:
            out.print(_values_table(state, exc.values, None, set()))
            found = (f"{len(exc.values)} of {len(state.legal_actions())} actions solved (their values "
                     f"are exact), the others not")
        else:
            found = "no action solved yet"
        out.print(Text(f"Stopped by {why} after {elapsed:.2f} s{threads}: {found}."))
        return 130 if isinstance(exc, SolveInterrupted) else 1
    elapsed = time.perf_counter() - started
    out.print(_values_table(state, solution.values, solution.units, set(solution.best())))
    out.print(Text(f"Seat {solution.mover} to play: value {solution.value} {solution.units} under "
                   f"best play by everyone (solved in {elapsed:.2f} s{threads}, "
                   f"{solution.nodes:,} search nodes)."))
    return 0


# -- the argument parser -------------------------------------------------------------------


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tricktaker",
        description="Traditional trick-taking card games: play against bots, read the rules, "
                    "replay records, simulate.",
    )
    parser.add_argument("--version", action="version", version=f"tricktaker {tt.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="command")

    def game_options(p: argparse.ArgumentParser) -> None:
        sizes = "; ".join(f"{name}: {' or '.join(_table_sizes(cls).rsplit(', ', 1))}"
                          for name, cls in tt.GAMES.items() if "," in _table_sizes(cls))
        p.add_argument("--players", type=int, metavar="N",
                       help=f"players at the table, for games played by several sizes ({sizes})")
        p.add_argument("--preset", help="a named bundle of options (see: tricktaker rules GAME)")
        p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE",
                       help="set one rule option, e.g. -o target=40 -o sooli=false (repeatable)")

    play = sub.add_parser("play", help="play a match against bots in the terminal",
                          description="Play a whole match at one seat against bots.")
    play.add_argument("game", help="the game, e.g. tuppi or tute")
    play.add_argument("--seat", type=int, default=0, help="your seat, 0..N-1 (default 0)")
    play.add_argument("--seed", type=int, help="seed of the deals (default: random, shown)")
    play.add_argument("--save", metavar="FILE", help="write the record here after every hand")
    play.add_argument("--bot-delay", type=float, default=BOT_DELAY, metavar="SECONDS",
                      help=f"pause after each bot move, to follow a trick card by card (default "
                           f"{BOT_DELAY:g}; 0 for none; never when the output is not a terminal)")
    play.add_argument("--bots", default=DEFAULT_BOT,
                      help="bot for the other seats, or one per seat from your left, comma-separated; "
                           f"options after colons, e.g. pimc:worlds=40 (bots: {', '.join(BOTS)}; "
                           f"default {DEFAULT_BOT}, see docs/bots.md)")
    game_options(play)
    play.set_defaults(func=cmd_play)

    rules = sub.add_parser("rules", help="the rules, options and presets of a game")
    rules.add_argument("game")
    rules.set_defaults(func=cmd_rules)

    replay = sub.add_parser("replay", help="show a saved record trick by trick")
    replay.add_argument("file")
    replay.add_argument("--hand", type=int, metavar="N", help="show only hand N (1-based)")
    replay.add_argument("--analyse", "--analyze", action="store_true",
                        help="after each hand, what each card cost on the true deal (double dummy), "
                             "each player's total and the par of the bidding")
    replay.add_argument("--time-limit", type=float, default=2.0, metavar="SECONDS",
                        help="with --analyse: the longest one solve may take; a slower play is "
                             "marked not analysed (default 2)")
    replay.add_argument("--no-par", dest="par", action="store_false",
                        help="with --analyse: leave out the par (the oracle bids every seat: seconds a hand)")
    replay.add_argument("--threads", type=int, default=2, metavar="N",
                        help="with --analyse: plays solved at once, each in a thread of its own (default 2)")
    replay.set_defaults(func=cmd_replay)

    sim = sub.add_parser("simulate", help="bots play many hands (Tute: rounds); print hands/s and "
                         "statistics")
    sim.add_argument("game")
    sim.add_argument("--hands", type=int, default=10_000, help="how many hands (default 10000)")
    sim.add_argument("--seed", type=int, default=1, help="seed of deals and bots (default 1)")
    sim.add_argument("--bots", default="random",
                     help="one bot name, or one per seat comma-separated (default random)")
    sim.add_argument("--matches", action="store_true",
                     help="play the hands as consecutive matches (so nousussa, resets and early "
                          "ends occur; Tute: match winners) instead of single hands from 0-0")
    game_options(sim)
    sim.set_defaults(func=cmd_simulate)

    solve = sub.add_parser("solve", help="the value of each legal action with every card known",
                           description="Solve a position double-dummy: every card known, best play "
                                       "by everyone.  Without a position in play, the first legal "
                                       "action is taken in each phase before play (or give --moves).")
    solve.add_argument("file", nargs="?", help="a record (its current position is solved)")
    solve.add_argument("--game", help="deal a new match of this game instead of a record")
    solve.add_argument("--seed", type=int, default=1, help="seed of the deal (default 1)")
    solve.add_argument("--moves", metavar="'A; B; ...'",
                       help="actions to apply first, separated by semicolons (e.g. bids)")
    solve.add_argument("--time-limit", type=float, metavar="SECONDS",
                       help="give up after this many seconds (Ctrl-C also stops a solve)")
    solve.add_argument("--threads", type=int, default=2, metavar="N",
                       help="search the legal actions in N threads at once (default 2)")
    game_options(solve)
    solve.set_defaults(func=cmd_solve)

    arena = sub.add_parser("arena", help="bots play duplicate deals against each other; who is stronger",
                           description="Play seeded deals with the bots moved round the sides (duplicate), "
                                       "and print each pair's score difference per deal with a 95% "
                                       "interval, win rates, ratings and time per decision.")
    arena.add_argument("game")
    arena.add_argument("--bots", default="rules,random",
                       help="two bots (or one per side), comma-separated; options after colons, "
                            "e.g. pimc:worlds=16,rules (default rules,random)")
    arena.add_argument("--deals", type=int, default=100, help="how many deals (default 100)")
    arena.add_argument("--duplicate", action=argparse.BooleanOptionalAction, default=True,
                       help="play every deal under every seating of the bots (default on)")
    arena.add_argument("--matches", action="store_true",
                       help="each deal is a whole match from its seed (match win rates)")
    arena.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    arena.add_argument("--seed", type=int, default=1, help="seed of the deals and bots (default 1)")
    arena.add_argument("--dd-loss", action="store_true",
                       help="measure each bot's double-dummy loss per card play (one solve a decision)")
    arena.add_argument("--dd-time", type=float, default=2.0, metavar="SECONDS",
                       help="seconds one --dd-loss solve may take; slower positions are skipped (default 2)")
    arena.add_argument("--json", metavar="FILE", help="write every result and the summary as JSON")
    arena.add_argument("--journal", metavar="FILE",
                       help="save each deal to FILE as it finishes; run again with the same FILE "
                            "to go on after a stop (or with more --deals to extend the run)")
    arena.add_argument("--plot", metavar="FILE", help="write a PNG of the running difference and ratings")
    arena.add_argument("--ray", metavar="ADDRESS",
                       help="run the deals on Ray: a cluster address, 'auto', or 'local' "
                            "(needs pip install 'tricktaker[ray]')")
    game_options(arena)
    arena.set_defaults(func=cmd_arena)

    serve = sub.add_parser("serve", help="play in the browser: tables with friends and bots",
                           description="Start the web server (docs/server.md).  Open the address it "
                                       "prints, create a table, and send the invite links to friends.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1; 0.0.0.0 for the whole network)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", default="tricktaker.db",
                       help="an SQLite file (default tricktaker.db) or a URL such as "
                            "postgresql://user:password@host/dbname "
                            "(needs pip install 'tricktaker[postgres]')")
    serve.add_argument("--workers", type=int, default=2,
                       help="processes in which bots think (default 2; 0 runs them in a thread)")
    serve.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                       help="pause before each bot move, so people can follow (default 0.6)")
    serve.add_argument("--bot-time", type=float, default=3.0, metavar="SECONDS",
                       help="the longest a search bot thinks over a move; a spec's time= may ask "
                            "for less, never more (default 3)")
    serve.add_argument("--bot-worlds", type=int, default=1000, metavar="N",
                       help="the most worlds a pimc spec may ask for (default 1000)")
    serve.add_argument("--bot-iterations", type=int, default=100_000, metavar="N",
                       help="the most iterations an ismcts spec may ask for (default 100000)")
    serve.add_argument("--turn-time", type=float, default=0, metavar="SECONDS",
                       help="seconds a person has for a move before a bot plays it for them; "
                            "10 at most when their connection is gone (default 0: no limit)")
    serve.add_argument("--tables-per-minute", type=int, default=30, metavar="N",
                       help="new tables one client address may create a minute (default 30; 0: no limit)")
    serve.add_argument("--queue-bot", default="rules", metavar="SPEC",
                       help="the bot in the empty seats of a Play now table (default rules)")
    serve.add_argument("--no-signups", action="store_true",
                       help="refuse new player identities (the players who have one go on as before)")
    serve.set_defaults(func=cmd_serve)

    games = sub.add_parser("games", help="list the games")
    games.set_defaults(func=cmd_games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tricktaker`` command; return its exit code."""
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (code 2)
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    out = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        code: int = args.func(args, out, err)
    except (OptionError, CliError) as exc:
        err.print(Text(f"tricktaker: {exc}", style="red"), soft_wrap=True)
        return 2
    except KeyboardInterrupt:
        err.print(Text("tricktaker: interrupted", style="red"))
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
