// What the cards carry beyond their stats, and the GM's hand on several at once: each condition's duration as a
// count ("Prone · 2 rounds", everyone's view), the GM's note and a tick to select (the GM's only); the selection
// panel applies damage, healing or a condition (with its duration) to every ticked card in one action, and the
// notes form writes a note. The server's rules decide; the page only asks (/v1 actions adjust, condition, note).
import { el } from "./api.js";
import { field, fill, q, run } from "./forms.js";

let ctx = null;
const picked = new Set();

/** Every card: its conditions' counts; for the GM, its note and its tick. Called after each render. */
export function decorateCards(page) {
  const durations = page.enc.durations || {};
  const notes = page.enc.notes || {};
  for (const card of document.querySelectorAll("#cards [data-combatant]")) {
    const who = card.dataset.combatant;
    for (const d of durations[who] || []) {
      const chip = [...card.querySelectorAll(".chips .chip")].find((c) => c.textContent === d.condition);
      if (!chip) continue;
      chip.append(el("span", { class: "count", title: `counts ${d.ends}` }, ` · ${d.text}`));
      chip.dataset.left = d.left;
    }
    if (!page.gm) continue;
    if (notes[who]) card.append(el("p", { class: "gm-note", dataset: { note: who } }, el("b", {}, "GM's note: "), notes[who]));
    const box = el("input", {
      type: "checkbox",
      class: "pick",
      dataset: { pick: who },
      "aria-label": `select ${who}`,
      onchange: (e) => {
        if (e.target.checked) picked.add(who);
        else picked.delete(who);
        syncSelection();
      },
    });
    box.checked = picked.has(who);
    card.querySelector("h3").prepend(box);
    card.classList.toggle("picked", picked.has(who));
  }
}

function chosen() {
  const names = new Set(ctx.page.sheet.combatants.map((c) => c.name));
  for (const who of [...picked]) if (!names.has(who)) picked.delete(who); // one who left
  return [...picked];
}

async function amount(sign) {
  const raw = q("#sel-amount").value.trim();
  if (!/^\d+$/.test(raw)) {
    q("#selection-error").textContent = "error: by: an amount such as 7";
    return;
  }
  const body = { kind: "adjust", combatants: chosen(), stat: ctx.page.sheet.health, by: sign * Number(raw) };
  const answer = await run(ctx.act, body, q("#selection-error"));
  if (answer && answer.ok) q("#sel-amount").value = "";
}

async function condition(on) {
  const body = { kind: "condition", combatants: chosen(), condition: q("#sel-cond").value, on };
  const rounds = q("#sel-rounds").value.trim();
  if (on && rounds) {
    if (!/^\d+$/.test(rounds) || Number(rounds) < 1) {
      q("#selection-error").textContent = "error: rounds: a whole number from 1";
      return;
    }
    body.rounds = Number(rounds);
    body.until = q("#sel-until").value;
    if (q("#sel-of").value) body.of = q("#sel-of").value;
  }
  await run(ctx.act, body, q("#selection-error"));
}

async function writeNote(event) {
  event.preventDefault();
  const body = { kind: "note", combatant: q("#note-who").value, text: q("#note-text").value };
  const answer = await run(ctx.act, body, q("#selection-error"));
  if (answer && answer.ok) q("#note-text").value = "";
}

/** The selection panel and the notes form, before the GM tools: `{page, act}` from the tracker. */
export function buildSelection(given) {
  ctx = given;
  const box = el(
    "section",
    { id: "selection", "aria-labelledby": "selection-title" },
    el("h2", { id: "selection-title" }, "Selected"),
    el(
      "form",
      { id: "selection-form", class: "panel", onsubmit: (e) => e.preventDefault() },
      el("p", { id: "selected", class: "note", "aria-live": "polite" }),
      field("sel-amount", "Amount", el("input", { id: "sel-amount", type: "text", inputmode: "numeric", placeholder: "7" })),
      el(
        "div",
        { class: "buttons" },
        el("button", { id: "sel-damage", type: "button", onclick: () => amount(-1) }, "Damage"),
        el("button", { id: "sel-heal", type: "button", onclick: () => amount(1) }, "Heal"),
      ),
      field("sel-cond", "Condition", el("select", { id: "sel-cond" })),
      field("sel-rounds", "Lasts (rounds; empty: until cleared)", el("input", { id: "sel-rounds", type: "text", inputmode: "numeric" })),
      field(
        "sel-until",
        "Counts at",
        el(
          "select",
          { id: "sel-until" },
          el("option", { value: "end_of_turn" }, "the end of a turn"),
          el("option", { value: "start_of_turn" }, "the start of a turn"),
        ),
      ),
      field("sel-of", "Whose turn", el("select", { id: "sel-of" })),
      el(
        "div",
        { class: "buttons" },
        el("button", { id: "sel-cond-on", type: "button", onclick: () => condition(true) }, "Set"),
        el("button", { id: "sel-cond-off", type: "button", onclick: () => condition(false) }, "Clear"),
      ),
      el("p", { id: "selection-error", class: "error", role: "alert" }),
    ),
    el(
      "form",
      { id: "note-form", class: "panel", onsubmit: writeNote },
      el("h3", {}, "GM's note (never shown to the players)"),
      field("note-who", "Combatant", el("select", { id: "note-who" })),
      field("note-text", "Note", el("input", { id: "note-text", type: "text", maxlength: 500, placeholder: "flees below 10 LP" })),
      el("button", { id: "note", type: "submit" }, "Save note"),
    ),
  );
  q("#controls").after(box);
}

/** The panel's choices and what is selected, from the current state (after every answer, every tick). */
export function syncSelection() {
  const { enc, sheet } = ctx.page;
  const names = chosen();
  q("#selected").textContent = names.length ? names.join(", ") : "Tick cards to act on several at once.";
  fill(q("#sel-cond"), (sheet.gm_conditions || []).map((w) => [w, w]));
  const all = sheet.combatants.map((c) => [c.name, c.name]);
  fill(q("#sel-of"), [["", "each one's own"], ...all]);
  fill(q("#note-who"), all);
  for (const b of ["#sel-damage", "#sel-heal", "#sel-cond-on", "#sel-cond-off"]) {
    q(b).disabled = enc.over || !names.length;
  }
  q("#note").disabled = enc.over;
  for (const card of document.querySelectorAll("#cards [data-combatant]")) {
    card.classList.toggle("picked", picked.has(card.dataset.combatant));
  }
}
