// The tracker: turn order, combatant cards, the action panel (GM) with the exact preview before a roll, the
// result with its trace, undo, auto, adjust, the event log and its export; a view token gets a read-only view
// that follows the game live; a player's link, its character's card and turn (player.js). Every number shown comes
// from the /v1 routes: no rules here.
import { api, el, errorLine, follow, known, pageToken, percent } from "./api.js";
import { card, readings } from "./cards.js";
import { diceUsed, loadDice, setUpDice } from "./dice.js";
import { KEYS, onKey, toggleKeys } from "./keys.js";
import { showMap, showMove } from "./map.js";
import { attackForm, select, wireAttackForm } from "./panel.js";
import { keptTargets, showKept } from "./kept.js";
import { buildPlayer, playersTurn, syncPlayer } from "./player.js";
import { buildPlayerLinks } from "./playerlinks.js";
import { checkedTargets, fillTargets as fillTargetBox } from "./targets.js";
import { buildTools, syncTools } from "./tools.js";
import { buildAdding, syncAdding } from "./adding.js";
import { buildSelection, decorateCards, syncSelection } from "./selection.js";

const id = decodeURIComponent(location.pathname.split("/").pop());
const token = pageToken();
const root = document.getElementById("tracker");
const page = { sheet: null, enc: null, events: new Map(), gm: false, player: null, busy: false, inflight: null };

function q(selector) {
  return document.querySelector(selector);
}

function setStatus(text) {
  q("#status").textContent = text;
}

function fail(answer, box = q("#action-error")) {
  const line = errorLine(answer.data);
  if (box) box.textContent = line;
  return line;
}

// -- the state --------------------------------------------------------------------------------------------------
async function refresh() {
  const answer = await api("GET", `/v1/encounters/${id}`, undefined, token);
  if (!answer.ok) {
    q("#load-error").textContent = errorLine(answer.data);
    return;
  }
  page.enc = answer.data;
  const names = Object.keys(page.enc.state.combatants).sort().join("\n");
  if (names !== page.sheet.combatants.map((c) => c.name).sort().join("\n")) await loadSheet(); // joined or left
  render();
  if (page.gm || playersTurn(page)) await updatePreview();
}

function render() {
  const { enc, sheet } = page;
  root.dataset.seq = enc.seq;
  const round = enc.state.fight.round;
  q("#title").textContent = `${enc.name} · ${enc.system}`;
  document.title = `tohit: ${enc.name}`;
  const turn = enc.over ? "the fight is over" : enc.turn ? `${enc.turn}'s turn` : "";
  setStatus([round !== undefined ? `round ${round}` : null, turn, `seq ${enc.seq}`].filter(Boolean).join(" · "));
  renderWinner();
  renderOrder();
  renderCards();
  decorateCards(page);
  renderRows();
  if (sheet.map) showMap(q("#map"), { id, token, page, act });
  if (page.gm) {
    syncControls();
    syncTools();
    syncSelection();
    syncAdding();
  }
  if (page.player) syncPlayer({ page, fillAttacks, fillTargets });
}

/** At the end, the winning side (or a draw) in a banner: `[data-winner]` carries the side's name or "draw". */
function renderWinner() {
  const { enc, sheet } = page;
  const box = q("#winner");
  if (!enc.over) {
    box.hidden = true;
    delete box.dataset.winner;
    return;
  }
  const w = enc.state.fight.winner;
  const side = w >= 0 ? sheet.sides[w] : null;
  const end = [...page.events.values()].filter((e) => e.kind === "end").pop();
  box.hidden = false;
  box.dataset.winner = side ?? "draw";
  box.replaceChildren(el("strong", {}, end && end.text ? end.text : side ? `${side} won` : "a draw"));
}

function renderOrder() {
  const { enc, sheet } = page;
  const standing = new Set(enc.standing);
  q("#order").replaceChildren(
    ...(enc.order || sheet.order).map((name) =>
      el(
        "li",
        {
          class: [name === enc.turn ? "current" : "", standing.has(name) ? "" : "down"].join(" ").trim(),
          "aria-current": name === enc.turn ? "true" : false,
          dataset: { name },
        },
        name,
        name === enc.turn ? el("span", { class: "sr-only" }, " (acts now)") : null,
        standing.has(name) ? null : el("span", { class: "tag" }, " down"),
      ),
    ),
  );
}

function renderCards() {
  const { sheet } = page;
  q("#cards").replaceChildren(
    ...sheet.sides.map((side) =>
      el(
        "div",
        { class: "side-group", role: "group", "aria-label": side },
        el("h3", { class: "side-title" }, side),
        sheet.combatants.filter((c) => c.side === side).map((c) => card(c, page.enc)),
      ),
    ),
  );
}

function renderRows() {
  // Each side's rows as the server words them ("front row": the game's words, never the stat's number).
  const sides = page.enc.rows || [];
  q("#rows").hidden = !sides.length;
  const parts = sides.map((side) =>
    el(
      "div",
      { class: "rows-side" },
      el("h3", {}, side.side),
      side.rows.map((r) => el("p", {}, el("strong", {}, `${r.label}: `), r.names.join(", "))),
    ),
  );
  q("#rows-body").replaceChildren(...parts);
}

// -- the event log and the result --------------------------------------------------------------------------------
function addEvents(events) {
  for (const e of events) page.events.set(e.n, e);
  const items = [...page.events.values()].sort((a, b) => a.n - b.n);
  const taken = new Set(items.filter((e) => e.kind === "undo").map((e) => e.undoes));
  page.undone = (e) => e.kind !== "undo" && taken.has(e.action);
  const log = q("#log");
  log.replaceChildren(
    ...items.map((e) =>
      el(
        "li",
        {
          value: e.n,
          class: page.undone(e) ? "undone" : null,
          dataset: { n: e.n, kind: e.kind, event: e.n, ...(page.undone(e) ? { undone: "true" } : {}) },
          title: page.undone(e) ? "undone" : null,
        },
        e.text || e.kind.replaceAll("_", " "),
        e.player && e.text && !e.text.includes(`${e.player}'s player`) ? el("span", { class: "by-player" }, ` (${e.player}'s player)`) : null,
        page.undone(e) ? el("span", { class: "sr-only" }, " (undone)") : null,
      ),
    ),
  );
  log.scrollTop = log.scrollHeight;
}

/** The latest result (`[data-result]`): a short headline (who did what, how much: each attack's own line, or the
action's first words), the action's other events listed under it, then the trace; scrolled into view after the
page's own action (an action from elsewhere, followed live, never moves the page). */
function showResult(events, note, scroll = true) {
  const worded = events.filter((e) => e.text); // an event without words (a turn's start) adds none
  const by = page.gm ? events.find((e) => e.player)?.player : null; // a player's action, on the GM's page
  if (by) note = [`${by}'s player:`, note].filter(Boolean).join(" ");
  const attacks = worded.filter((e) => e.outcome || e.result); // the players' words keep an attack's result only
  const head = attacks.length ? attacks : worded.slice(0, 1);
  const box = q("#result-text");
  box.className = "headline";
  box.replaceChildren(...[note, ...head.map((e) => e.text)].filter(Boolean).map((t, i) => (i ? [el("br"), t] : t)).flat());
  if (!box.textContent) box.textContent = "done";
  box.dataset.seq = events.length ? events[events.length - 1].n : "";
  q("#result-lines").replaceChildren(...worded.filter((e) => !head.includes(e)).map((e) => el("li", {}, e.text)));
  const steps = events.flatMap((e) => e.trace || []);
  q("#trace").replaceChildren(
    ...steps.map((s) =>
      el("li", {}, el("span", {}, s.text), s.clause ? el("cite", {}, s.clause) : null),
    ),
  );
  if (page.gm && scroll) box.scrollIntoView({ block: "nearest" }); // the headline whole, Roll above it kept if it fits
}

// -- the GM's controls ----------------------------------------------------------------------------------------------
function buildControls() {
  const box = q("#controls");
  box.hidden = false;
  box.replaceChildren(
    el("h2", { id: "controls-title" }, "Action"),
    attackForm(() => attack(null), [
      el("button", { id: "auto", type: "button", onclick: () => act({ kind: "auto" }) }, "Auto turn"),
      el("button", { id: "end-turn", type: "button", onclick: () => act({ kind: "end_turn" }) }, "End turn"),
      el("button", { id: "undo", type: "button", onclick: undo }, "Undo"),
    ]),
    el(
      "form",
      { id: "adjust-form", class: "panel", onsubmit: adjust },
      el("h3", {}, "Adjust a stat"),
      el("div", { class: "field" }, ...select("adjust-who", "Combatant", [])),
      el("div", { class: "field" }, ...select("adjust-stat", "Stat", [])),
      el(
        "div",
        { class: "field" },
        el("label", { for: "adjust-value" }, "Value"),
        el("input", { id: "adjust-value", name: "adjust-value", type: "number", step: 1, required: true }),
      ),
      el("button", { id: "adjust", type: "submit" }, "Set"),
    ),
    el(
      "div",
      { class: "buttons" },
      el("button", { id: "export", type: "button", onclick: exportLog }, "Export .jsonl"),
    ),
  );
  q("#dice").after(q("#result")); // the result right under Roll: in view after every action
  q("#result").classList.add("inline");
  q("#controls").append(
    el(
      "p",
      { class: "note keys-hint" },
      "Keys: ",
      el("button", { id: "show-keys", type: "button", class: "link", onclick: toggleKeys }, "? lists them"),
    ),
    el(
      "dl",
      { id: "keys", class: "keys", hidden: true, "aria-label": "Keyboard shortcuts" },
      Object.entries(KEYS).map(([key, [, words]]) => el("div", {}, el("dt", {}, el("kbd", {}, key)), el("dd", {}, words))),
    ),
  );
  document.addEventListener("keydown", onKey);
  wireAttackForm({ fillAttacks, fillTargets, updatePreview });
  q("#adjust-who").addEventListener("change", fillAdjustValue);
  q("#adjust-value").addEventListener("input", (e) => (e.target.dataset.typed = "true"));
  q("#adjust-stat").addEventListener("change", fillAdjustValue);
}

function options(node, pairs, keep) {
  const before = keep ?? node.value;
  node.replaceChildren(...pairs.map(([v, t]) => el("option", { value: v }, t)));
  if (pairs.some(([v]) => v === before)) node.value = before;
}

function syncControls() {
  const { enc, sheet } = page;
  const attacker = q("#attacker");
  const before = attacker.value;
  const standing = new Set(enc.standing);
  const able = sheet.combatants.filter((c) => standing.has(c.name));
  const turn = enc.turn && standing.has(enc.turn) ? enc.turn : null;
  options(
    attacker,
    (able.length ? able : sheet.combatants).map((c) => [c.name, c.name]),
    page.lastSeq === enc.seq && before ? before : turn || before,
  );
  page.lastSeq = enc.seq;
  fillAttacks();
  fillTargets();
  const who = q("#adjust-who");
  options(who, sheet.combatants.map((c) => [c.name, c.name]));
  options(q("#adjust-stat"), adjustable(enc, who.value).map((e) => [e.stat, e.label]));
  fillAdjustValue();
  for (const b of ["#roll", "#enter-dice", "#auto", "#end-turn", "#roll-dice", "#adjust"]) q(b).disabled = enc.over;
  for (const b of ["#attacker", "#attack", "#adjust-who", "#adjust-stat", "#adjust-value"]) q(b).disabled = enc.over;
  q("#targets").disabled = enc.over;
  if (enc.over) {
    q("#dice").hidden = true;
    q("#action-error").textContent = "";
  }
  q("#undo").disabled = !canUndo();
}

/** Whether an action is left to take back (an undo with nothing left would only answer an error). */
function canUndo() {
  const undone = page.undone || (() => false);
  return [...page.events.values()].some((e) => e.action > 0 && e.kind !== "undo" && !undone(e));
}

/** The stats a game master may set for `name`: its readings, but for those the rules keep (a `ranges` entry of
 * null: no value to set by hand). */
function adjustable(enc, name) {
  const ranges = page.sheet.ranges || {};
  return readings(enc, name).filter((e) => ranges[e.stat] !== null);
}

/** The chosen stat's current value in the value field, unless the GM has typed one (live updates keep it). */
function fillAdjustValue(event) {
  const input = q("#adjust-value");
  if (event) delete input.dataset.typed;
  if (input.dataset.typed) return;
  const stats = page.enc.state.combatants[q("#adjust-who").value] || {};
  const stat = q("#adjust-stat").value;
  if (stat in stats) q("#adjust-value").value = stats[stat];
}

function fillAttacks() {
  const who = page.sheet.combatants.find((c) => c.name === q("#attacker").value);
  options(q("#attack"), (who ? who.attacks : []).map((a) => [a, a]));
}

function fillTargets() {
  const box = q("#targets");
  const { enc, sheet } = page;
  const [attacker, attack] = [q("#attacker").value, q("#attack").value];
  fillTargetBox(box, { sheet, enc, attacker, attack, onChange: updatePreview });
}

function chosen() {
  return {
    attacker: q("#attacker").value,
    attack: q("#attack").value || undefined,
    targets: checkedTargets(q("#targets")),
  };
}

/** A probability's exact value as text: its fraction, or (too long to write) its decimal. */
function exact(p) {
  return p.fraction ?? p.decimal ?? String(p.float);
}

async function updatePreview() {
  const body = chosen();
  const table = q("#preview");
  const error = q("#action-error");
  const kept = keptTargets(page, body.targets); // a player's kept foe: words where the odds would be, no error
  showKept(kept);
  if (!body.targets.length || page.enc.over || kept.length) {
    page.previewTicket = (page.previewTicket || 0) + 1; // an answer still on its way is not shown
    if (kept.length) error.textContent = "";
    showMove(q("#preview-move"), []);
    table.tBodies[0].replaceChildren();
    table.tHead.replaceChildren();
    return;
  }
  const ticket = (page.previewTicket = (page.previewTicket || 0) + 1);
  const answer = await api("POST", `/v1/encounters/${id}/preview`, body, token);
  if (ticket !== page.previewTicket) return; // a newer choice was sent meanwhile
  if (!answer.ok) {
    showMove(q("#preview-move"), []);
    table.tBodies[0].replaceChildren();
    table.dataset.seq = "";
    fail(answer, error);
    return;
  }
  error.textContent = "";
  page.preview = answer.data;
  table.dataset.seq = answer.data.seq;
  table.dataset.request = JSON.stringify(body);
  const labels = [...new Set(answer.data.targets.flatMap((t) => Object.keys(t.result ?? {})))];
  showMove(q("#preview-move"), answer.data.targets);
  table.tHead.replaceChildren(
    el(
      "tr",
      {},
      el("th", { scope: "col" }, "Target"),
      labels.map((l) => el("th", { scope: "col" }, l)),
      el("th", { scope: "col" }, "Expected damage"),
    ),
  );
  table.tBodies[0].replaceChildren(
    ...answer.data.targets.map((t) =>
      t.result
        ? el(
            "tr",
            { dataset: { target: t.name } },
            el("th", { scope: "row" }, t.name),
            labels.map((l) =>
              el(
                "td",
                { dataset: { outcome: l }, title: t.result[l] ? exact(t.result[l]) : "0" },
                t.result[l] ? percent(t.result[l]) : "0.0%",
              ),
            ),
            el("td", { dataset: { outcome: "mean_damage" }, title: exact(t.mean_damage) }, t.mean_damage.float.toFixed(2)),
          )
        : el(
            "tr",
            { dataset: { target: t.name } },
            el("th", { scope: "row" }, t.name),
            el("td", { class: "reach", colSpan: labels.length + 1, dataset: { outcome: "reach" }, title: t.reach ?? "" }, t.reach ?? "hidden"),
          ),
    ),
  );
  if (!q("#dice").hidden) await loadDice();
}

// -- acting ---------------------------------------------------------------------------------------------------------
/** An action sent; `stored` is called once it is stored, before the page shows the new state; an error is shown
 * once, at `box` (the control's own error line; the action panel's by default). */
async function act(action, stored = null, box = q("#action-error")) {
  if (page.busy) return null;
  page.busy = true;
  let landed = () => {};
  page.inflight = new Promise((resolve) => (landed = resolve));
  try {
    q("#action-error").textContent = "";
    const answer = await api("POST", `/v1/encounters/${id}/actions`, { ...action, expected_seq: page.enc.seq }, token);
    page.busy = false;
    if (!answer.ok) {
      fail(answer, box);
      if (answer.status === 409) await refresh();
      return answer;
    }
    addEvents(answer.data.events);
    showResult(answer.data.events, answer.data.out_of_turn ? "(out of turn)" : "");
    if (stored) stored();
    await refresh();
    return answer;
  } finally {
    page.busy = false;
    page.inflight = null;
    landed();
  }
}

async function attack(dice) {
  const body = chosen();
  if (!body.targets.length) {
    q("#action-error").textContent = "error: targets: choose the target";
    return null;
  }
  return dice ? act({ kind: "attack", ...body, dice }, diceUsed) : act({ kind: "attack", ...body });
}

async function undo() {
  // an Undo pressed while an action is in flight takes back that action, once it has landed (and any started
  // while it waited): never a dropped press
  while (page.busy || page.inflight) await (page.inflight || new Promise((resolve) => setTimeout(resolve, 50)));
  page.busy = true;
  const answer = await api("POST", `/v1/encounters/${id}/undo`, { expected_seq: page.enc.seq }, token);
  page.busy = false;
  if (!answer.ok) {
    fail(answer);
    if (answer.status === 409) await refresh(); // someone acted first: the page shows it, the GM looks again
    return;
  }
  addEvents(answer.data.events);
  showResult(answer.data.events, "");
  await refresh();
}

async function adjust(event) {
  event.preventDefault();
  const input = q("#adjust-value");
  const value = Number(input.value);
  delete input.dataset.typed;
  await act({ kind: "adjust", combatant: q("#adjust-who").value, stat: q("#adjust-stat").value, value });
}

async function exportLog() {
  const response = await fetch(`/v1/encounters/${id}/events.jsonl`, { headers: { Authorization: `Bearer ${token}` } });
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const a = el("a", { href: url, download: `${page.enc.name || id}.jsonl` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// -- share ----------------------------------------------------------------------------------------------------------
function viewLink(view) {
  return `${location.origin}/encounters/${encodeURIComponent(id)}?token=${encodeURIComponent(view)}`;
}

function renderShare() {
  const box = q("#share");
  box.hidden = false;
  const mine = known.get(id);
  const body = q("#share-body");
  if (mine && mine.view) {
    const url = viewLink(mine.view);
    body.replaceChildren(
      el("p", {}, "Read-only view, follows live: "),
      el("a", { id: "share-link", href: url, target: "_blank", rel: "noopener" }, url),
    );
  } else {
    body.replaceChildren(
      el("p", { class: "note" }, "Show the players' link below, or make a new one (the old share link stops working)."),
      el("button", { id: "make-share", type: "button", onclick: makeShare }, "Make a share link"),
    );
  }
}

async function makeShare() {
  const answer = await api("POST", `/v1/encounters/${id}/view_token`, undefined, token);
  if (!answer.ok) {
    fail(answer, q("#share-body"));
    return;
  }
  known.put(id, { view: answer.data.view_token, gm: token });
  renderShare();
}

// -- start ----------------------------------------------------------------------------------------------------------
/** The sheet (sides, combatants, attacks): at the start, and again when the roster changes. */
async function loadSheet() {
  const sheet = await api("GET", `/v1/encounters/${id}/sheet`, undefined, token);
  if (!sheet.ok) {
    q("#load-error").textContent = errorLine(sheet.data);
    return false;
  }
  page.sheet = sheet.data;
  return true;
}

async function start() {
  if (!token) {
    q("#load-error").textContent = "error: token: open this page with ?token=<the GM or view token>";
    return;
  }
  if (!(await loadSheet())) return;
  page.gm = page.sheet.role === "gm";
  page.player = page.sheet.player || null;
  root.dataset.role = page.sheet.role;
  if (page.gm) {
    setUpDice({ id, token, chosen, attack, fail, kept: () => keptTargets(page, chosen().targets) });
    buildControls();
    buildTools({ id, token, page, act, refresh });
    buildAdding({ id, token, page, act });
    buildSelection({ page, act });
    renderShare();
    buildPlayerLinks({ id, token, page });
  }
  if (page.player) {
    setUpDice({ id, token, chosen, attack, fail, kept: () => keptTargets(page, chosen().targets) });
    buildPlayer({ page, act, attack, fillAttacks, fillTargets, updatePreview });
  }
  const events = await api("GET", `/v1/encounters/${id}/events`, undefined, token);
  if (events.ok) addEvents(events.data);
  await refresh();
  let pending = null;
  follow(id, token, page.enc.seq, (event) => {
    if (event.quiet) {
      // an event the players do not notice (docs/players.md): no line, the encounter read again
      clearTimeout(pending);
      pending = setTimeout(refresh, 30);
      return;
    }
    addEvents([event]);
    if (page.enc && event.n <= page.enc.seq) return; // this page's own action, already shown
    showResult([...page.events.values()].filter((e) => e.action === event.action), "", false);
    clearTimeout(pending);
    pending = setTimeout(refresh, 30);
  });
  root.dataset.ready = "true";
}

start();
