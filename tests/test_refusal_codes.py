"""Issue 21: a refused card carries a code and parameters, for a front end to say in its language.

The English message stays for the API; ``IllegalActionError.code`` names the kind of refusal
and ``params`` fill the browser's ``why_<code>`` text (``server/static/i18n.js``).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from test_contract import VARIANTS

import tricktaker as tt

I18N = (Path(tt.__file__).parent / "server" / "static" / "i18n.js").read_text()
CARD = re.compile(r"(?:1[012]|[1-9TJQKA])[SHDCOEB]")


def why_texts() -> dict[str, list[str]]:
    """Each ``why_<code>`` key's text in every language of the page."""
    texts: dict[str, list[str]] = {}
    for code, text in re.findall(r'^\s*why_(\w+): "(.*)",$', I18N, re.M):
        texts.setdefault(code, []).append(text)
    return texts


WHY = why_texts()


def test_every_code_is_told_in_every_language() -> None:
    assert {"follow", "trump", "beat", "overtrump", "turn", "first_ace", "first_card",
            "marriage_lead", "not_now", "bid_card"} <= set(WHY)
    assert all(len(texts) == 3 for texts in WHY.values()), WHY


def test_an_error_without_a_code_still_works() -> None:
    exc = tt.IllegalActionError("nothing to undo")
    assert (str(exc), exc.code, exc.params) == ("nothing to undo", None, {})
    coded = tt.IllegalActionError("must follow suit: seat 1 holds spades", code="follow",
                                  params={"suit": "spades"})
    assert coded.addressed_to(1) == "must follow suit: you hold spades"
    assert (coded.code, coded.params) == ("follow", {"suit": "spades"})


def refusals(name: str, options: dict, seed: int) -> list[tuple[str, tt.IllegalActionError]]:
    """Every card the page would dim over a random match, with the engine's refusal.

    The page asks with the verb of the mover's single-card actions ("bid 7H"), else "play";
    a seat not to move asks with "play"."""
    game = tt.new_game(name, **options)
    state, rng = game.new_match(seed=seed), random.Random(seed)
    found: list[tuple[str, tt.IllegalActionError]] = []
    for _ in range(400):
        if state.is_over():
            break
        mover = state.current_player
        legal = {a.text for a in state.legal_actions()}
        words = [text.split(" ") for text in legal]
        verbs = {w[0] for w in words if len(w) == 2 and CARD.fullmatch(w[1])}
        multi = any(len(w) > 2 and all(CARD.fullmatch(x) for x in w[1:]) for w in words)
        asks = [(seat, "play") for seat in range(game.num_players) if seat != mover]
        if mover is not None and not multi:
            asks += [(mover, verb) for verb in verbs or {"play"}]
        for seat, verb in asks:
            for card in state.observation(seat).get("hand", []):
                text = f"{verb} {card}"
                if seat == mover and text in legal:
                    continue
                trial = state.clone()
                with pytest.raises(tt.IllegalActionError) as caught:
                    trial.apply(text, seat=seat)
                found.append((text, caught.value))
        state.apply(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_refused_card_has_a_code_and_the_params_its_text_needs(variant: str) -> None:
    name, options = VARIANTS[variant]
    codes: set[str] = set()
    for seed in range(3):
        for text, exc in refusals(name, options, seed):
            assert exc.code in WHY, f"{variant}: {text}: {exc} has no known code ({exc.code!r})"
            codes.add(exc.code)
            for translation in WHY[exc.code]:
                needed = set(re.findall(r"\{(\w+)\}", translation))
                assert needed <= set(exc.params), f"{variant}: {text}: {exc} lacks {needed - set(exc.params)}"
            assert all(isinstance(v, (str, int)) for v in exc.params.values())
    assert {"turn", "follow"} <= codes
