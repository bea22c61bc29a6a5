"""A partner people trust: the bots never overtake a partner's sure winner without need,
and never repeat an ask their partner answered no."""

from __future__ import annotations

import random

from bot_helpers import fill

import tricktaker as tt
from tricktaker.bots import make_bot, view_of
from tricktaker.bots.pimc import candidates
from tricktaker.bots.rules import needless_overtakes
from tricktaker.bots.rules.tuppi import card_of, winning
from tricktaker.engine import State


def _sure_winner_positions(limit: int) -> list[State]:
    """Tuppi rami positions from rules self-play where a card would overtake the partner's sure winner."""
    found: list[State] = []
    for seed in range(40):
        state = tt.new_game("tuppi").new_hand(seed=seed)
        bots = [make_bot("rules", seed=seat) for seat in range(4)]
        while not state.is_over() and state.hand_number == 0 and len(found) < limit:
            seat = state.current_player
            view = view_of(state, seat)
            if needless_overtakes(view):
                found.append(state.clone())
            state.apply(bots[seat].act(view))
        if len(found) >= limit:
            break
    return found


def test_the_bots_never_overtake_a_partners_sure_winner() -> None:
    positions = _sure_winner_positions(4)
    assert len(positions) == 4
    for state in positions:
        seat = state.current_player
        view = view_of(state, seat)
        obs = view.observation
        overtakes = needless_overtakes(view)
        # What the rule reads: the partner's card wins the trick on the table, and each
        # left-out card is of the led suit and higher, while a lower one is legal.
        trick = [(s, card_of(c)) for s, c in obs["trick"]]
        best_seat, best = winning(trick)
        assert obs["contract"] == "rami" and best_seat == (seat + 2) % 4
        assert all(a.card is not None and card_of(a.card.text)[0] == best[0]
                   and card_of(a.card.text)[1] > best[1] for a in overtakes)
        assert any(a.card is not None and card_of(a.card.text)[0] == best[0]
                   and card_of(a.card.text)[1] < best[1] for a in view.legal_actions)
        assert make_bot("rules", seed=1).act(view) not in overtakes
        assert make_bot("pimc:worlds=8", seed=1).act(view) not in overtakes
        assert not overtakes & set(candidates(view, random.Random(0), 12))


def test_an_overtake_that_is_forced_is_not_left_out() -> None:
    """With only higher cards of the suit legal, the seat must overtake: nothing is left out."""
    from tricktaker.bots.rules import tuppi

    state = _sure_winner_positions(1)[0]
    view = view_of(state, state.current_player)
    over = needless_overtakes(view)
    assert over
    assert tuppi.needless_overtakes(view.observation, sorted(over, key=str)) == set()


def test_pimc_never_repeats_an_ask_answered_no() -> None:
    game = tt.new_game("marjapussi")
    deal = fill(game, [9] * 4, ["AS AD JH 9H 9C 8C 7C 6C 9D", "6S KC KH KS KD", "7S QS QC QH QD", "8S 6D"])
    state = game.new_hand(deal=deal, dealer=3)
    for action in ("play AS", "play 6S", "play 7S", "play 8S", "ask whole", "answer no", "play AD"):
        state.apply(action)
    while state.current_player != 0:
        state.apply(state.legal_actions()[-1])
    view = view_of(state, 0)
    assert "ask whole" in [a.text for a in view.legal_actions]  # the engine allows it; the bots do not
    assert all(a.text != "ask whole" for a in candidates(view, random.Random(0), 12))
    assert make_bot("pimc:worlds=8", seed=2).act(view).text != "ask whole"
