// A player's page (a player's link: /encounters/{id}?token=…), made for a phone first: their character's card on
// top, then the Attack panel: on their character's turn its attacks, a target, the exact odds, Roll or the dice
// typed by hand, and End turn (a move is a tap on the map); out of turn the panel says whose turn it is. The
// server decides what a player may do (a 403 with its reason otherwise): the page only offers it.
import { el } from "./api.js";
import { card } from "./cards.js";
import { attackForm, wireAttackForm } from "./panel.js";

function q(selector) {
  return document.querySelector(selector);
}

/** Whether it is the player's character's turn now. */
export function playersTurn(page) {
  return Boolean(page.player) && !page.enc.over && page.enc.turn === page.player;
}

/** The player's card and Attack panel, at the top of the board (`ctx`: the tracker's page, act, attack and its
 * form's fillers). */
export function buildPlayer(ctx) {
  const { page, act } = ctx;
  const mine = el(
    "section",
    { id: "mine", "aria-labelledby": "mine-title" },
    el("h2", { id: "mine-title" }, "Your character"),
    el("div", { id: "mine-card" }),
  );
  const box = q("#controls");
  box.hidden = false;
  box.replaceChildren(
    el("h2", { id: "controls-title" }, "Attack"),
    el("p", { id: "turn-line", class: "turn-line", role: "status" }),
    attackForm(() => ctx.attack(null), [
      el("button", { id: "end-turn", type: "button", onclick: () => act({ kind: "end_turn" }) }, "End turn"),
    ]),
  );
  q(".board").prepend(mine, box); // the card, then the panel, before the turn order and the map
  q("#attacker").disabled = true; // the player's own character, only
  wireAttackForm(ctx);
  document.title = `tohit: ${page.player}`;
}

/** The card, whose turn it is, and the panel shown on the player's turn only. */
export function syncPlayer(ctx) {
  const { enc, sheet, player } = ctx.page;
  const me = sheet.combatants.find((c) => c.name === player);
  q("#mine-card").replaceChildren(me ? card(me, enc) : el("p", { class: "note" }, `${player} has left the fight.`));
  const attacker = q("#attacker");
  if (attacker.value !== player) attacker.replaceChildren(el("option", { value: player }, player));
  ctx.fillAttacks();
  ctx.fillTargets();
  const mine = playersTurn(ctx.page);
  const whose = enc.over ? "The fight is over." : enc.turn ? `It is ${enc.turn}'s turn: wait for ${player}'s.` : "";
  q("#turn-line").textContent = mine ? `${player}'s turn: attack, move on the map, or end the turn.` : whose;
  q("#turn-line").dataset.mine = String(mine);
  q("#action").hidden = !mine;
}
