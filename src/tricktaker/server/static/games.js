// What each game shows beyond cards: info rows, seat badges, action labels,
// event texts and the result of a hand.  Every function reads an observation
// (what the seat may know) and a context `c` from table.js with helpers:
// c.t, c.seatName(s), c.sideName(side), c.perSide(values), c.card(text),
// c.cards(list), c.suit(letter), c.suitName(letter), c.game, c.players, c.options, c.mySeat.

const MARRIAGE_GAMES = new Set(["marjapussi", "bondtolva", "avomarjapussi"]);
const isNum = (s) => /^-?\d+$/.test(String(s));
const esc = (s) => String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch]));

/** Tuppi: a red bid card (or the word) is rami, black is nolo. */
export function tuppiMeaning(bid) {
  if (bid === "rami" || bid === "nolo") return bid;
  return /[HD]$/.test(bid) ? "rami" : "nolo";
}

// ---------------------------------------------------------------- actions

/** A button label for a non-card action (HTML). */
export function actionLabel(action, obs, c) {
  const [verb, ...args] = action.split(" ");
  const { t } = c;
  switch (verb) {
    case "bid":
      if (args[0] === "rami" || args[0] === "nolo") return `${t(`act_bid_${args[0]}`)}`;
      return isNum(args[0]) ? args[0] : `${t("act_bid")} ${c.card(args[0])}`;
    case "raise": return args[0];
    case "pass":
      return obs.phase === "raise" && obs.contract != null ? t("act_keep", { n: obs.contract }) : t("act_pass");
    case "sooli": return t("act_sooli");
    case "exchange":
      return obs.trump_card ? t("act_exchange", { card: c.card(obs.trump_card) }) : t("act_exchange_plain");
    case "sing":
      return args[0] === "40" ? t("act_sing40") : t("act_sing20", { suit: c.suit(args[1]) });
    case "tute": return t("act_tute");
    case "declare": return t("act_declare", { suit: c.suit(args[0]) });
    case "ask":
      return args[0] === "whole" ? t("act_ask_whole") : t("act_ask_half", { suit: c.suit(args[1]) });
    case "answer":
      return args[0] === "no" ? t("act_answer_no") : t("act_answer", { suit: c.suit(args[0]) });
    case "redeal": return t("act_redeal");
    default: return esc(action);
  }
}

/** What the seat is asked to do now (one line). */
export function prompt(obs, legal, multiSize, c) {
  const { t } = c;
  const phase = obs.phase;
  if (multiSize > 1) {
    const key = phase === "return" ? "prompt_return" : legal[0].startsWith("discard") ? "prompt_discard" : "prompt_give";
    return t(key, { n: c.t("cardsN", { n: multiSize }) });
  }
  if (c.game === "tuppi") {
    if (phase === "bid") return legal.some((a) => /^bid \S\S$/.test(a)) ? t("prompt_bid_tuppi") : t("prompt_bid_tuppi_cards");
    if (phase === "sooli") return t("prompt_sooli");
    if (phase === "discard") return t("prompt_discard", { n: 1 });
    if (phase === "give") return t("prompt_give", { n: 1 });
  }
  if (phase === "declare") return t("prompt_declare");
  if (phase === "answer") return t("prompt_answer");
  if (phase === "bid") return t("prompt_bid");
  if (phase === "raise") return t("prompt_raise");
  if (legal.some((a) => a.startsWith("play "))) return obs.trick && obs.trick.length ? t("prompt_play") : t("prompt_lead");
  return t("prompt_choose");
}

// ---------------------------------------------------------------- events

/** One line for the event log (HTML), or null. */
export function eventText(ev, obs, c) {
  if (!ev || ev.action == null) return null;
  const mine = ev.seat === c.mySeat;
  // Our own moves read in the second person ("You play", "Pelaat", "Juegas").
  const t = (key, params) => (mine && c.has(`${key}_you`) ? c.t(`${key}_you`, params) : c.t(key, params));
  const who = c.seatName(ev.seat);
  const [verb, ...args] = String(ev.action).split(" ");
  switch (verb) {
    case "play": return t("ev_play", { who, card: c.card(args[0]) });
    case "bid": {
      const b = args[0];
      if (isNum(b)) return t("ev_bid_num", { who, n: b });
      if (c.game === "tuppi") {
        const seen = (obs.bids || []).find((x) => x.seat === ev.seat && x.revealed && x.bid);
        const verbal = (b === "rami" || b === "nolo") && !c.options.bid_cards;
        if (verbal || mine || seen) {
          return (b === "rami" || b === "nolo") ? t("ev_bid_word", { who, bid: t(b) })
            : t("ev_bid_card", { who, card: c.card(b) });
        }
        return t("ev_bid_hidden", { who });
      }
      return t("ev_bid_word", { who, bid: esc(b) });
    }
    case "raise": return t("ev_raise", { who, n: args[0] });
    case "pass": return t("ev_pass", { who });
    case "sooli": return t("ev_sooli", { who });
    case "discard": case "give":
      // Another seat's given or discarded cards are private: only the count is told.
      return mine ? c.t(`ev_${verb}_mine`, { who, cards: c.cards(args) }) : t(`ev_${verb}`, { who, n: args.length || ev.cards || "?" });
    case "exchange": return t("ev_exchange", { who });
    case "sing": return args[0] === "40" ? t("ev_sing40", { who }) : t("ev_sing20", { who, suit: c.suit(args[1]) });
    case "tute": return t("ev_tute", { who });
    case "declare": return t("ev_declare", { who, suit: c.suit(args[0]) });
    case "ask": return args[0] === "whole" ? t("ev_ask_whole", { who }) : t("ev_ask_half", { who, suit: c.suit(args[1]) });
    case "answer": return args[0] === "no" ? t("ev_answer_no", { who }) : t("ev_answer", { who, suit: c.suit(args[0]) });
    case "redeal": return t("ev_redeal", { who });
    default: return `${esc(who)}: ${esc(ev.action)}`;
  }
}

// ---------------------------------------------------------------- info panel

/** Rows [label, html] describing the hand in progress. */
export function infoRows(obs, c) {
  const { t } = c;
  const rows = [];
  const add = (label, html) => { if (html !== null && html !== undefined && html !== "") rows.push([label, html]); };
  const trumpRow = () => add(t("trump"), obs.trump ? `${c.suit(obs.trump)}${obs.trump_card ? ` · ${c.card(obs.trump_card)}` : ""}` : t("noTrump"));

  if (c.game === "tuppi") {
    if (obs.contract) {
      let html = `<b>${t(obs.contract)}</b>`;
      if (obs.declarer != null && obs.contract !== "nolo") html += ` · ${t("declarer")}: ${c.seatName(obs.declarer)}`;
      add(t("contract"), html);
    }
    if (obs.soloist != null) add(t("soloist"), c.seatName(obs.soloist));
    if (obs.sitting_out != null) add(t("sittingOut"), c.seatName(obs.sitting_out));
    add("nousussa", obs.nousussa == null ? t("nobodyNousussa") : t("nousussa", { side: c.sideName(obs.nousussa) }));
    if (obs.bids && obs.bids.length) {
      add(t("bids"), obs.bids.map((b) => `${c.seatName(b.seat)}: ${b.bid
        ? (b.bid === "rami" || b.bid === "nolo" ? t(b.bid) : `${c.card(b.bid)} ${t(tuppiMeaning(b.bid))}`)
        : `<i>${t("hiddenBid")}</i>`}`).join("<br>"));
    }
    if (obs.hand_limit) add(t("totals"), c.perSide(obs.totals || []));
  } else if (c.game === "tute") {
    trumpRow();
    if (obs.stock_size != null) add(t("stock", { n: "" }).replace(/[:\s]+$/, ""), String(obs.stock_size));
    if (c.players === 2 && obs.stock_size === 0 && obs.phase === "play") add("arrastre", t("arrastre"));
    add(t("points"), c.perSide(obs.points || []));
    if (obs.out) {  // tute cabrero: lost hands per seat, and who is out of the match
      add(t("lostHands"), `${c.perSide(obs.scores || [])} · ${t("outAt", { n: c.options.losses_out })}`);
      const out = obs.out.map((gone, seat) => (gone ? c.seatName(seat) : null)).filter((n) => n != null);
      if (out.length) add(t("outOfMatch"), out.join(", "));
    }
    if (obs.declarations && obs.declarations.length) {
      add(t("cantes"), obs.declarations.map(([s, a]) => `${c.seatName(s)}: ${cante(a, c)}`).join("<br>"));
    }
    if (obs.exchanges && obs.exchanges.length) {
      add(t("exchanges"), obs.exchanges.map(([s, g, tk]) => `${c.seatName(s)}: ${c.card(g)} ⇄ ${c.card(tk)}`).join("<br>"));
    }
  } else if (MARRIAGE_GAMES.has(c.game)) {
    trumpRow();
    if (obs.lead_rule && obs.lead_rule.length) add(t("leadRule"), c.cards(obs.lead_rule));
    if (obs.stock_size != null) add(t("stock", { n: "" }).replace(/[:\s]+$/, ""), String(obs.stock_size));
    add(t("pips"), c.perSide(obs.pips || []));
    add(t("points"), c.perSide(obs.points || []));
    marriageRows(obs, c, add);
    if (obs.carry) add("", t("carry", { n: obs.carry }));
  } else if (c.game === "huutopussi") {
    if (obs.auction && obs.auction.length) {
      add(t("auction"), obs.auction.map(([s, a]) => `${c.seatName(s)} ${a === "pass" ? t("act_pass").toLowerCase() : esc(a.replace(/^\w+ /, ""))}`).join(", "));
    }
    if (obs.contract != null) {
      add(t("contract"), `<b>${obs.contract}</b>${obs.declarer != null ? ` · ${t("declarer")}: ${c.seatName(obs.declarer)}` : ""}`);
    } else if (obs.high_bid != null) {
      add(t("highBid", { n: "" }).replace(/[:\s]+$/, ""), `${obs.high_bid}${obs.high_bidder != null ? ` · ${c.seatName(obs.high_bidder)}` : ""}`);
    }
    if (obs.phase === "play" || obs.trump) trumpRow();
    if (obs.kitty && obs.kitty.length) add(t("kitty"), c.cards(obs.kitty));
    if (c.players === 2 && c.options.kitty) {  // two players: the third hand, dealt and never seen
      add(t("deadHand"), String((36 - c.options.kitty) / 3));
    }
    if (obs.given && obs.given.length) add(t("given"), c.cards(obs.given));
    if (obs.returned && obs.returned.length) add(t("returned"), c.cards(obs.returned));
    if (obs.discard && obs.discard.length) add(t("discarded"), c.cards(obs.discard));
    add(t("points"), c.perSide(obs.points || []));
    marriageRows(obs, c, add);
  }
  return rows;
}

function marriageRows(obs, c, add) {
  const { t } = c;
  if (obs.marriages && obs.marriages.length) {
    add(t("marriages"), obs.marriages.map(([s, suit, value]) => `${c.seatName(s)}: ${c.suit(suit)} (${value})`).join("<br>"));
  }
  if (obs.calls && obs.calls.length) {
    add(t("calls"), obs.calls.map(([s, a]) => `${c.seatName(s)}: ${actionLabel(a, obs, c)}`).join("<br>"));
  }
}

function cante(action, c) {
  const [, n, suit] = action.split(" ");
  if (action === "tute") return `<b>${c.t("tute")}</b>`;
  return n === "40" ? `${c.t("cuarenta")} (40)` : `${c.t("veinte")} ${c.suit(suit)} (20)`;
}

/** Small chips next to a seat's name (HTML strings). */
export function seatBadges(obs, seat, c) {
  const { t } = c;
  const out = [];
  if (obs.dealer === seat) out.push(`<span class="chip dealer" title="${t("dealer")}">${t("dealer")}</span>`);
  if (c.game === "tuppi") {
    const bid = (obs.bids || []).find((b) => b.seat === seat);
    if (bid) {
      out.push(bid.bid ? `<span class="chip bid">${bid.bid.length <= 3 && bid.bid !== "rami" ? `${c.card(bid.bid)} ` : ""}${t(tuppiMeaning(bid.bid))}</span>`
        : `<span class="chip bid hidden">?</span>`);
    }
    if (obs.declarer === seat && obs.contract === "rami") out.push(`<span class="chip lead">${t("declarer")}</span>`);
    if (obs.soloist === seat) out.push(`<span class="chip lead">${t("sooli")}</span>`);
    if (obs.sitting_out === seat) out.push(`<span class="chip">${t("sittingOut")}</span>`);
  }
  if (c.game === "huutopussi") {
    if (obs.declarer === seat) out.push(`<span class="chip lead">${t("declarer")}</span>`);
    const last = [...(obs.auction || [])].reverse().find(([s]) => s === seat);
    if (last && obs.phase === "bid") out.push(`<span class="chip bid">${last[1] === "pass" ? t("act_pass") : last[1].split(" ")[1]}</span>`);
  }
  for (const [s, suit, value] of obs.marriages || []) {
    if (s === seat) out.push(`<span class="chip">${c.suit(suit, true)} ${value}</span>`);
  }
  for (const [s, a] of obs.declarations || []) {
    if (s === seat) out.push(`<span class="chip">${cante(a, c)}</span>`);
  }
  return out;
}

// ---------------------------------------------------------------- hand results

/** Lines (HTML) summing up a finished hand: obs.previous_hand. */
export function handSummary(prev, c) {
  const { t } = c;
  const lines = [];
  const per = (v) => (Array.isArray(v) ? c.perSide(v) : esc(v));
  if (c.game === "tuppi") {
    let head = `${t("contract")}: <b>${t(prev.contract)}</b>`;
    if (prev.soloist != null) head += ` · ${c.seatName(prev.soloist)}`;
    else if (prev.declarer != null && prev.contract === "rami") head += ` · ${c.seatName(prev.declarer)}`;
    lines.push(head);
    lines.push(`${t("tricks")}: ${per(prev.tricks)}`);
    lines.push(`${t("points")}: ${per(prev.points)}`);
    if (prev.early_end) lines.push(t("earlyEnd"));
  } else if (c.game === "tute") {
    lines.push(`${t("points")}: ${per(prev.points)}`);
    if (prev.declarations && prev.declarations.length) {
      lines.push(`${t("cantes")}: ${prev.declarations.map(([s, a]) => `${c.seatName(s)} ${cante(a, c)}`).join(", ")}`);
    }
    if (prev.tute != null && !prev.losers) lines.push(`<b>${t("tute")}</b>: ${c.sideName(prev.tute)}`);
    if (prev.last_trick != null) lines.push(t("lastTrickBonus", { name: c.sideName(prev.last_trick) }));
    if (prev.round_winner != null) lines.push(`<b>${c.winnerText(prev.round_winner)}</b>`);
    if (prev.losers) {  // tute cabrero: who lost the round, and why, as the engine's result says
      const names = prev.losers.map((s) => c.seatName(s)).join(", ");
      const why = prev.tute != null ? "lostTute" : prev.capote != null
        ? (prev.losers.length === 1 && prev.losers[0] === prev.capote ? "lostCapoteSang" : "lostCapote")
        : prev.losers.some((s) => prev.tricks[s] === 0) ? "lostNoTrick" : "lostMiddle";
      lines.push(`${t("tricks")}: ${per(prev.tricks)}`);
      const who = prev.tute != null ? prev.tute : prev.capote;
      lines.push(`<b>${t(why, { names, name: who != null ? c.seatName(who) : "" })}</b>`);
      if (prev.put_out && prev.put_out.length) {
        lines.push(t("putOut", { names: prev.put_out.map((s) => c.seatName(s)).join(", ") }));
      }
    }
  } else if (MARRIAGE_GAMES.has(c.game)) {
    if (prev.trump) lines.push(`${t("trump")}: ${c.suit(prev.trump)}`);
    if (prev.marriages && prev.marriages.length) {
      lines.push(`${t("marriages")}: ${prev.marriages.map(([s, suit, v]) => `${c.seatName(s)} ${c.suit(suit, true)} ${v}`).join(", ")}`);
    }
    lines.push(`${t("tricks")}: ${per(prev.tricks_won)}`);
    lines.push(`${t("pips")}: ${per(prev.pips)}`);
    if (prev.last_trick != null) lines.push(t("lastTrickBonus", { name: c.sideName(prev.last_trick) }));
    if (prev.porvoo && prev.porvoo.length) lines.push(t("porvoo", { names: prev.porvoo.map((s) => c.sideName(s)).join(", ") }));
    lines.push(`${t("points")}: ${per(prev.points)}`);
    if (prev.carry) lines.push(t("carry", { n: prev.carry }));
  } else if (c.game === "huutopussi") {
    if (prev.redeal != null) lines.push(t("act_redeal"));
    if (prev.contract != null) {
      lines.push(`${t("contract")}: <b>${prev.contract}</b>${prev.declarer != null ? ` · ${c.seatName(prev.declarer)}` : ""}` +
        ` — ${prev.made ? t("made") : t("failed")}`);
    }
    const tw = prev.tricks_won || [];
    const sweep = tw.filter((n) => n > 0);
    if (sweep.length === 1 && tw.length > 1) lines.push(`<b>${t("lapiajo", { name: c.sideName(tw.findIndex((n) => n > 0)) })}</b>`);
    if (prev.lapari != null) {  // two players: every trick collects the whole deck (the engine's collected says how much)
      lines.push(t("lapari", { name: c.sideName(prev.lapari), n: prev.collected[prev.lapari] - (prev.marriages || [])
        .filter(([s]) => s === prev.lapari).reduce((sum, [, , v]) => sum + v, 0) }));
    }
    lines.push(`${t("tricks")}: ${per(tw)}`);
    if (prev.collected) lines.push(`${t("pips")}: ${per(prev.collected)}`);
    lines.push(`${t("points")}: ${per(prev.points)}`);
  }
  if (prev.scores) lines.push(`${t("score")}: <b>${per(prev.scores)}</b>`);
  return lines;
}
