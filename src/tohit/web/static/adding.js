// The GM adds creatures as at the table: from the fight file's bestiary or as copies of one in the fight, on a
// side, several at once, numbered by the server ("Bandit chief 2", "3"); delays the turn that comes (where the
// game's order allows it: otherwise the control says why, in the game's words); and reads the players' link again
// without replacing it. Each is one /v1 call; the server decides.
import { api, el, errorLine } from "./api.js";
import { field, fill, q, run } from "./forms.js";

let ctx = null;

async function add(event) {
  event.preventDefault();
  const from = q("#add-from").value; // "bestiary:<name>" or "copy:<name>" (a name may hold a colon)
  const how = from.slice(0, from.indexOf(":"));
  const who = from.slice(from.indexOf(":") + 1);
  const count = Number(q("#add-count").value || "1");
  const body = { kind: "join", count, ...(how === "copy" ? { copy_of: who } : { combatant: who }) };
  const side = q("#add-side").value;
  if (side) body.side = side;
  const name = q("#add-name").value.trim();
  if (name) body.name = name;
  const answer = await run(ctx.act, body, q("#add-error"));
  if (answer && answer.ok) q("#add-name").value = "";
}

async function delay(event) {
  event.preventDefault();
  const after = q("#delay-after").value;
  const body = { kind: "delay", combatant: ctx.page.enc.turn, ...(after ? { after } : {}) };
  await run(ctx.act, body, q("#delay-error"));
}

/** The players' link as it is now (GET …/view_token: the GM's token; nothing replaced). */
async function showLink() {
  const answer = await api("GET", `/v1/encounters/${ctx.id}/view_token`, undefined, ctx.token);
  const box = q("#link-again");
  if (!answer.ok) {
    box.replaceChildren(el("span", { class: "error" }, errorLine(answer.data)));
    return;
  }
  const url = `${location.origin}/encounters/${encodeURIComponent(ctx.id)}?token=${encodeURIComponent(answer.data.view_token)}`;
  box.replaceChildren("Players' link: ", el("a", { id: "players-link", href: url, target: "_blank", rel: "noopener" }, url));
}

/** The add form and the delay control after the action panel, and "Show the players' link" in Share. */
export function buildAdding(given) {
  ctx = given;
  const box = el(
    "section",
    { id: "adding", "aria-labelledby": "adding-title" },
    el("h2", { id: "adding-title" }, "Add creatures and order"),
    el(
      "form",
      { id: "add-form", class: "panel", onsubmit: add },
      el("h3", {}, "Add creatures"),
      field("add-from", "From", el("select", { id: "add-from" })),
      field("add-name", "Name (empty: its own, numbered)", el("input", { id: "add-name", type: "text", autocomplete: "off" })),
      field("add-side", "Side", el("select", { id: "add-side" })),
      field("add-count", "How many", el("input", { id: "add-count", type: "number", min: 1, max: 20, step: 1, value: 1 })),
      el("button", { id: "add", type: "submit" }, "Add"),
      el("p", { id: "add-error", class: "error", role: "alert" }),
    ),
    el(
      "form",
      { id: "delay-form", class: "panel", onsubmit: delay },
      el("h3", {}, "Delay the turn"),
      field("delay-after", "Act after", el("select", { id: "delay-after" })),
      el("button", { id: "delay", type: "submit" }, "Delay"),
      el("p", { id: "delay-why", class: "note" }),
      el("p", { id: "delay-error", class: "error", role: "alert" }),
    ),
  );
  q("#controls").after(box);
  q("#share").append(
    el("button", { id: "show-link", type: "button", onclick: showLink }, "Show the players' link"),
    el("p", { id: "link-again", class: "note", "aria-live": "polite" }),
  );
}

/** The choices from the current state (after every answer). */
export function syncAdding() {
  const { enc, sheet } = ctx.page;
  const from = [
    ...(sheet.bestiary || []).map((n) => [`bestiary:${n}`, `${n} (bestiary)`]),
    ...sheet.combatants.map((c) => [`copy:${c.name}`, `copy of ${c.name}`]),
  ];
  fill(q("#add-from"), from);
  fill(q("#add-side"), [["", "the copy's side"], ...sheet.sides.map((s) => [s, s])]);
  q("#add").disabled = enc.over;
  const later = enc.delay_after || [];
  fill(q("#delay-after"), [["", "the next one"], ...later.map((n) => [n, n])]);
  q("#delay-why").textContent = sheet.delay || (enc.turn ? `${enc.turn}'s turn comes: it may act later this round.` : "");
  q("#delay").disabled = enc.over || Boolean(sheet.delay) || !enc.turn;
}
