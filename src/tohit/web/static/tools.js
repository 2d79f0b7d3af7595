// The GM's hand: damage or heal by an amount, set and clear conditions, roll any dice into the log,
// show or hide a combatant from the players, add or remove a combatant, rename and delete the encounter. Each is
// one /v1 action (or PATCH / DELETE of the encounter); the server's rules decide, the page only asks.
import { api, el, errorLine } from "./api.js";

let ctx = null;

function q(selector) {
  return document.querySelector(selector);
}

function field(idName, label, input) {
  return el("div", { class: "field" }, el("label", { for: idName }, label), input);
}

function picker(idName, label) {
  return field(idName, label, el("select", { id: idName, name: idName }));
}

function text(idName, label, attrs = {}) {
  return field(idName, label, el("input", { id: idName, name: idName, type: "text", autocomplete: "off", ...attrs }));
}

function fill(node, pairs) {
  const before = node.value;
  node.replaceChildren(...pairs.map(([v, t]) => el("option", { value: v }, t)));
  if (pairs.some(([v]) => v === before)) node.value = before;
}

/** An action sent; its error shown once, at `box` (the tracker's act writes it there, not under Roll). */
async function run(action, box = q("#tools-error")) {
  box.textContent = "";
  return ctx.act(action, null, box);
}

/** "-7" or "+3": the amount; anything else an error line naming the field. */
function amount() {
  const raw = q("#amount").value.trim();
  if (!/^[+-]?\d+$/.test(raw)) {
    q("#tools-error").textContent = "error: by: an amount such as -7 or +3";
    return null;
  }
  return Number(raw);
}

async function byAmount() {
  const by = amount();
  if (by === null) return;
  const answer = await run({ kind: "adjust", combatant: q("#amount-who").value, stat: ctx.page.sheet.health, by });
  if (answer && answer.ok) q("#amount").value = "";
}

async function condition(on) {
  await run({ kind: "condition", combatant: q("#cond-who").value, condition: q("#cond-name").value, on });
}

async function rollAny() {
  const label = q("#roll-label").value.trim();
  const answer = await run({ kind: "dice", expression: q("#roll-expr").value, ...(label ? { label } : {}) });
  if (answer && answer.ok) q("#roll-label").value = ""; // "For" names this roll only, not the next
}

async function reveal() {
  const who = q("#reveal-who").value;
  const hidden = new Set(ctx.page.enc.hidden || []);
  const absent = new Set(ctx.page.enc.hidden_entirely || []); // hidden entirely: brought into sight, its numbers kept
  await run({ kind: "reveal", combatant: who, to_players: hidden.has(who) && !absent.has(who) });
}

/** Hide a combatant entirely from the players (an ambusher): absent from their view until revealed. */
async function hideEntirely() {
  await run({ kind: "hide", combatant: q("#reveal-who").value });
}

async function join() {
  let combatant;
  try {
    combatant = JSON.parse(q("#join-block").value);
  } catch (err) {
    q("#tools-error").textContent = `error: combatant: not JSON (${err.message})`;
    return;
  }
  const answer = await run({ kind: "join", side: q("#join-side").value, combatant });
  if (answer && answer.ok) q("#join-block").value = "";
}

async function leave() {
  await run({ kind: "leave", combatant: q("#leave-who").value });
}

async function rename() {
  const box = q("#tools-error");
  const answer = await api("PATCH", `/v1/encounters/${ctx.id}`, { name: q("#rename-name").value }, ctx.token);
  box.textContent = answer.ok ? "" : errorLine(answer.data);
  if (answer.ok) await ctx.refresh();
}

async function remove() {
  if (!window.confirm(`Delete the encounter "${ctx.page.enc.name}" and its log?`)) return;
  const answer = await api("DELETE", `/v1/encounters/${ctx.id}`, undefined, ctx.token);
  if (!answer.ok) {
    q("#tools-error").textContent = errorLine(answer.data);
    return;
  }
  location.href = "/";
}

/** The GM's tools, after the action panel: `{id, token, page, act, refresh}` from the tracker. */
export function buildTools(given) {
  ctx = given;
  const box = el(
    "section",
    { id: "tools", "aria-labelledby": "tools-title" },
    el("h2", { id: "tools-title" }, "GM tools"),
    el(
      "form",
      { id: "amount-form", class: "panel", onsubmit: (e) => (e.preventDefault(), byAmount()) },
      el("h3", {}, "Damage or heal"),
      picker("amount-who", "Combatant"),
      text("amount", "By (-7 damage, +3 heal)", { inputmode: "numeric", placeholder: "-7" }),
      el("button", { id: "apply-amount", type: "submit" }, "Apply"),
    ),
    el(
      "form",
      { id: "cond-form", class: "panel", onsubmit: (e) => e.preventDefault() },
      el("h3", {}, "Conditions"),
      picker("cond-who", "Combatant"),
      picker("cond-name", "Condition"),
      el(
        "div",
        { class: "buttons" },
        el("button", { id: "cond-on", type: "button", onclick: () => condition(true) }, "Set"),
        el("button", { id: "cond-off", type: "button", onclick: () => condition(false) }, "Clear"),
      ),
    ),
    el(
      "form",
      { id: "roll-form", class: "panel", onsubmit: (e) => (e.preventDefault(), rollAny()) },
      el("h3", {}, "Roll dice"),
      text("roll-expr", "Dice", { placeholder: "2d6+3" }),
      text("roll-label", "For", { placeholder: "Perception" }),
      el("button", { id: "roll-any", type: "submit" }, "Roll into the log"),
    ),
    el(
      "form",
      { id: "reveal-form", class: "panel", onsubmit: (e) => (e.preventDefault(), reveal()) },
      el("h3", {}, "Players' view"),
      picker("reveal-who", "Combatant"),
      el("button", { id: "reveal", type: "submit" }, "Show to players"),
      el("button", { id: "hide", type: "button", onclick: () => hideEntirely() }, "Hide entirely"),
    ),
    el(
      "form",
      { id: "join-form", class: "panel", onsubmit: (e) => (e.preventDefault(), join()) },
      el("h3", {}, "Add or remove a combatant"),
      picker("join-side", "Side"),
      field(
        "join-block",
        "Combatant (as in a fight file, JSON)",
        el("textarea", { id: "join-block", name: "join-block", rows: 3, placeholder: '{"name": "Bandit 3", ...}' }),
      ),
      el("button", { id: "join", type: "submit" }, "Add"),
      picker("leave-who", "Remove"),
      el("button", { id: "leave", type: "button", onclick: leave }, "Remove"),
    ),
    el(
      "form",
      { id: "rename-form", class: "panel", onsubmit: (e) => (e.preventDefault(), rename()) },
      el("h3", {}, "Encounter"),
      text("rename-name", "Name"),
      el(
        "div",
        { class: "buttons" },
        el("button", { id: "rename", type: "submit" }, "Rename"),
        el("button", { id: "delete", type: "button", class: "danger", onclick: remove }, "Delete"),
      ),
    ),
    el("p", { id: "tools-error", class: "error", role: "alert" }),
  );
  q("#controls").after(box);
  q("#reveal-who").addEventListener("change", syncTools);
}

/** Each card's own Hide / Bring into sight (the GM's page only): hides that combatant entirely from the players
 * (an ambusher), or brings one hidden entirely into their sight, its numbers still kept (docs/players.md). */
function cardSight(enc) {
  const absent = new Set(enc.hidden_entirely || []);
  for (const card of document.querySelectorAll("#cards [data-combatant]")) {
    const who = card.dataset.combatant;
    const away = absent.has(who);
    card.classList.toggle("unseen", away);
    card.querySelector(".card-sight")?.remove(); // the tools sync again on a choice, the cards stay
    const action = away ? { kind: "reveal", combatant: who, to_players: false } : { kind: "hide", combatant: who };
    const words = away ? `Bring ${who} into the players' sight` : `Hide ${who} entirely from the players`;
    card.append(
      el(
        "p",
        { class: "card-sight" },
        away ? el("span", { class: "unseen-tag" }, "the players do not know of it") : null,
        el(
          "button",
          {
            type: "button",
            class: "link",
            dataset: { sight: who },
            title: words,
            "aria-label": words,
            disabled: enc.over,
            onclick: () => run(action),
          },
          away ? "Bring into sight" : "Hide",
        ),
      ),
    );
  }
}

/** The tools' choices from the current state (after every answer). */
export function syncTools() {
  const { enc, sheet } = ctx.page;
  const names = sheet.combatants.map((c) => [c.name, c.name]);
  for (const s of ["#amount-who", "#cond-who", "#reveal-who", "#leave-who"]) fill(q(s), names);
  fill(q("#join-side"), sheet.sides.map((s) => [s, s]));
  fill(q("#cond-name"), (sheet.gm_conditions || []).map((w) => [w, w]));
  const hidden = new Set(enc.hidden || []);
  const absent = new Set(enc.hidden_entirely || []);
  const who = q("#reveal-who").value;
  q("#reveal").textContent = absent.has(who)
    ? "Bring into sight"
    : hidden.has(who)
      ? "Show to players"
      : "Hide from players";
  if (document.activeElement !== q("#rename-name")) q("#rename-name").value = enc.name;
  for (const b of ["#apply-amount", "#cond-on", "#cond-off", "#roll-any", "#reveal", "#join", "#leave"]) {
    q(b).disabled = enc.over;
  }
  q("#hide").disabled = enc.over || absent.has(who);
  cardSight(enc);
}
