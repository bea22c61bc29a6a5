"""Full Tuppi hands per second through the PettingZoo env, against OpenSpiel's bridge, in one run.

Both sides read a player's tensor at every decision, as a learning agent
would, and play random legal actions:

- OpenSpiel: ``bridge(use_double_dummy_result=false)``, whole deals (52
  chance actions, a random auction, the 52 cards of the play unless all pass),
  with ``state.information_state_tensor()`` read at every decision.
- tricktaker: ``tricktaker.envs.pettingzoo.env("tuppi", ...)`` driven the
  standard AEC way: ``for agent in env.agent_iter(): obs, ... = env.last();
  env.step(a)``, where ``last()`` builds the observation tensor and the action
  mask, and ``a`` is drawn from the mask.  One episode is one complete hand,
  from the deal to the last card (and the four final ``step(None)`` calls of
  the finished agents).

Tuppi hands differ in length with the rules: with club rules (the default)
random bidders mostly end in sooli, which stops at the soloist's first trick,
so two rows follow: the tournament preset (no sooli; early end) and every hand
played to its 13th trick (``sooli=False, early_end=False``: 4 bids and 52
cards, the shape of a bridge deal).  The ratio of each row to bridge is
printed; the headline is club rules, as in ``bench/playouts.py``.  With
``--engine`` a last row plays the 13-trick hands on the bare engine
(``state.legal_actions()`` and ``state.apply``, no observation): the ceiling of
the environment rows.

With ``--layers``, two more rows split the 13-trick env row into its layers: the
engine's playout with the mask and the agent's choice but no tensor, and the
``Session`` (tensor and mask, no PettingZoo code).

Run:  pip install -e ".[envs]"  &&  python bench/envs.py [--seconds 2] [--rounds 5] [--engine] [--layers]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

Runner = Callable[[int, random.Random], int]


def pettingzoo_runner(**options: object) -> Runner:
    """Whole hands through the PettingZoo env: every step reads the observation and the mask."""
    from tricktaker.envs.pettingzoo import env

    e = env("tuppi", **options)  # type: ignore[arg-type]

    def run(n: int, rng: random.Random) -> int:
        steps = 0
        choice = rng.choice
        e.reset(seed=rng.getrandbits(32))
        for _ in range(n):
            for _agent in e.agent_iter():
                obs, _reward, terminated, truncated, _info = e.last()
                if terminated or truncated:
                    e.step(None)
                    continue
                e.step(choice(obs["action_mask"].nonzero()[0]))
                steps += 1
            e.reset()
        return steps

    return run


def engine_runner(**options: object) -> Runner:
    """The reference below every env row: whole hands on the bare engine, random legal actions,
    no observation (what the environment adds is the difference)."""
    import tricktaker as tt

    game = tt.new_game("tuppi", **options)  # type: ignore[arg-type]

    def run(n: int, rng: random.Random) -> int:
        steps = 0
        choice = rng.choice
        for _ in range(n):
            state = game.new_hand(seed=rng.getrandbits(48), dealer=rng.randrange(4))
            while state.current_player is not None:
                state.apply(choice(state.legal_actions()))
                steps += 1
        return steps

    return run


def mask_runner(**options: object) -> Runner:
    """The engine's playout as the environment's agent sees it, without any tensor: the mask
    made from the state's legal parts, then the agent's ``nonzero`` and ``choice``.  What no
    environment over this engine can go below."""
    import tricktaker as tt
    from tricktaker.envs.encoding import spec_for
    from tricktaker.games.tuppi import TuppiState

    game = tt.new_game("tuppi", **options)  # type: ignore[arg-type]
    spec = spec_for(game)
    texts = spec.action_texts

    def run(n: int, rng: random.Random) -> int:
        steps = 0
        choice = rng.choice
        for _ in range(n):
            state = game.new_hand(seed=rng.getrandbits(48), dealer=rng.randrange(4))
            assert isinstance(state, TuppiState)
            while state.current_player is not None:
                kind, cards, others = state.legal_parts()
                index = int(choice(spec.parts_mask(kind, cards, others).nonzero()[0]))
                state.apply(spec.action_objects.get(index) or texts[index])
                steps += 1
        return steps

    return run


def session_runner(**options: object) -> Runner:
    """The environment's own layer without PettingZoo: ``Session.observe`` (tensor and mask)
    and ``Session.apply`` at every step, as ``last`` and ``step`` call them."""
    import tricktaker as tt
    from tricktaker.envs.session import Session, new_state

    game = tt.new_game("tuppi", **options)  # type: ignore[arg-type]

    def run(n: int, rng: random.Random) -> int:
        steps = 0
        choice = rng.choice
        session = Session(new_state(game, False, 0, 0))
        for _ in range(n):
            session.restart(new_state(game, False, rng.getrandbits(48), rng.randrange(4)))
            while (seat := session.turn) is not None:
                session.apply(int(choice(session.observe(seat)["action_mask"].nonzero()[0])))
                steps += 1
        return steps

    return run


def openspiel_runner() -> Runner | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("bridge(use_double_dummy_result=false)")

    def run(n: int, rng: random.Random) -> int:
        choice = rng.choice
        steps = 0
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.information_state_tensor()
                    state.apply_action(choice(state.legal_actions()))
                    steps += 1
        return steps

    return run


def calibrate(run: Runner, seconds: float, rng: random.Random) -> int:
    """Episodes per round so that one round of ``run`` takes about ``seconds``."""
    run(20, rng)  # warm caches
    start = time.perf_counter()
    n = 20
    while time.perf_counter() - start < 0.2:
        run(n, rng)
        n *= 2
    return max(20, int(n / (time.perf_counter() - start) * seconds))


def measure(rows: dict[str, Runner], seconds: float, rounds: int) -> dict[str, tuple[list[float], float]]:
    """Per row: the episodes per second of each round, and decisions per episode.

    Rounds are interleaved (every row once per round) so that a change in the
    machine's load touches every row alike.
    """
    rng = random.Random(1)
    sizes = {label: calibrate(run, seconds, rng) for label, run in rows.items()}
    rates: dict[str, list[float]] = {label: [] for label in rows}
    steps: dict[str, float] = {}
    for _ in range(rounds):
        for label, run in rows.items():
            t0 = time.perf_counter()
            done = run(sizes[label], rng)
            rates[label].append(sizes[label] / (time.perf_counter() - t0))
            steps[label] = done / sizes[label]
    return {label: (rates[label], steps[label]) for label in rows}


BRIDGE = "OpenSpiel bridge, information_state_tensor"
ENGINE = "tricktaker engine alone, 13 tricks (no env)"
LAYERS = [
    ("13 tricks: engine + mask + agent's choice (no tensor)", mask_runner),
    ("13 tricks: Session, tensor and mask (no PettingZoo)", session_runner),
]
ROWS: list[tuple[str, dict[str, object]]] = [
    ("PettingZoo tuppi, club rules (default)", {}),
    ("PettingZoo tuppi, preset tournament", {"preset": "tournament"}),
    ("PettingZoo tuppi, 13 tricks (no sooli, no early end)", {"sooli": False, "early_end": False}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one timed round")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per row (median)")
    parser.add_argument("--engine", action="store_true",
                        help="add a row of 13-trick hands on the bare engine (no env, no observation)")
    parser.add_argument("--layers", action="store_true",
                        help="add rows for the layers under the 13-trick env row (docs/envs.md, Speed)")
    args = parser.parse_args()

    reference = openspiel_runner()
    runners: dict[str, Runner] = {}
    if reference is None:
        print("OpenSpiel is not installed (pip install -e '.[envs]'): no reference row")
    else:
        runners[BRIDGE] = reference
    for label, options in ROWS:
        runners[label] = pettingzoo_runner(**options)
    if args.engine:
        runners[ENGINE] = engine_runner(sooli=False, early_end=False)
    if args.layers:
        for label, make in LAYERS:
            runners[label] = make(sooli=False, early_end=False)
    results = measure(runners, args.seconds, args.rounds)

    print(f"{'system':56} {'hands/s':>10} {'decisions/hand':>15} {'ratio':>7}")
    ref_rates = results[BRIDGE][0] if BRIDGE in results else None
    ratios: dict[str, float] = {}
    for label, (rates, steps) in results.items():
        median = statistics.median(rates)
        if ref_rates:  # the median of the per-round ratios: each round's rows ran side by side
            ratios[label] = statistics.median(r / b for r, b in zip(rates, ref_rates, strict=True))
        ratio = f"{ratios[label]:6.2f}x" if ref_rates else "   n/a"
        print(f"{label:56} {median:10.0f} {steps:15.1f} {ratio:>7}")
    if ref_rates:
        club, full = ROWS[0][0], ROWS[2][0]
        print(f"\nratio (PettingZoo tuppi hands, club rules / OpenSpiel bridge deals): {ratios[club]:.2f}x; "
              f"every hand to 13 tricks: {ratios[full]:.2f}x "
              f"(medians of {args.rounds} interleaved rounds of {args.seconds:g} s)")


if __name__ == "__main__":
    main()
