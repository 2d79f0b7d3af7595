// Enter dice: the faces rolled at the table, typed by hand. First the dice every roll of the attack needs (the
// server's `when`: "always"); the rest only when those faces call for them (its `needed`, e.g. the damage dice
// after a hit), never a die no rule of the fight reads. A face off its die is refused at its field.
// An attack that rolls against several creatures (an rtw area: a To-Hit check for each foe) asks a set per
// creature, by name; a die rolled once for the whole attack (a Multi ability's hit die) is asked once.
import { api, el } from "./api.js";
import { keptWords } from "./kept.js";

/** What the dice need of the tracker: the encounter, its token, the choice on the form, the attack, the error
 * line, the chosen targets whose numbers the GM keeps (a player's page: kept.js); and the roles and the creatures
 * the last answer gave. `asked` counts the asks for the first step (only the latest one's answer is shown: an older
 * answer, for an attacker no longer chosen, is dropped); `fresh`: the next answer shows the first step anew even
 * when its roles are the same (once an attack has been sent); `rolling`: typed dice being checked and sent (a second
 * press meanwhile is ignored: it would send a second attack). */
const ctx = {
  id: null, token: null, chosen: null, attack: null, fail: null, kept: () => [], roles: null, targets: [], asked: 0, fresh: false,
  rolling: false,
};

export function setUpDice(tracker) {
  Object.assign(ctx, tracker);
}

function q(selector) {
  return document.querySelector(selector);
}

export async function toggleDice() {
  const box = q("#dice");
  box.hidden = !box.hidden;
  q("#enter-dice").setAttribute("aria-expanded", String(!box.hidden));
  if (!box.hidden) {
    await loadDice();
    const first = box.querySelector("input");
    if (first) first.focus();
  }
}

/** Several creatures, each its own roll: the dice are typed per creature (by its name). */
function perTarget() {
  return ctx.targets.length > 1;
}

/** A role in the game's words with its dice, e.g. "Roll To-Hit (2d6)": the server's label (the key only where an
 * answer gives none). */
function named(r) {
  return `${r.label || r.role} (${r.notation})`;
}

/** One field for a role's faces (its hint: the dice it reads). `t`: where the dice are typed per creature, the
 * creature's number among the targets, or -1 for a die rolled once for them all (sent in the first's set). */
function dieField(r, t = null) {
  const hint = r.sides ? `${r.sides.length} face${r.sides.length > 1 ? "s" : ""}: ${r.sides.map((s) => `d${s}`).join(" ")}` : "faces as rolled";
  const who = t === null ? null : ctx.targets[Math.max(t, 0)];
  const id = t === null ? `die-${r.role}` : t < 0 ? `die-all-${r.role}` : `die-${t}-${r.role}`;
  const label = t !== null && t < 0 ? `${named(r)}, one roll for all` : named(r);
  const target = who === null ? {} : { target: who };
  return el(
    "div",
    { class: "field die", dataset: { role: r.role, when: r.when || "always", ...target } },
    el("label", { for: id }, label),
    el("input", {
      id,
      name: r.role,
      inputmode: "numeric",
      autocomplete: "off",
      placeholder: hint,
      "aria-describedby": `${id}-error`,
      dataset: { sides: r.sides ? r.sides.join(" ") : "", field: who === null ? `dice.${r.role}` : `dice.${who}.${r.role}`, ...target },
      oninput: (e) => checkFaces(e.target),
    }),
    el("span", { id: `${id}-error`, class: "field-error", "aria-live": "polite" }),
  );
}

/** The first step's fields: one set where the attack rolls against one creature; else the dice rolled once for
 * the whole attack, then per creature a group (its name the legend) of the dice rolled for each. */
function firstFields(first) {
  if (!perTarget()) return first.map((r) => dieField(r));
  const once = first.filter((r) => r.scope === "attack").map((r) => dieField(r, -1));
  const each = first.filter((r) => r.scope !== "attack");
  const group = (name, t) =>
    el("fieldset", { class: "dice-target", dataset: { target: name } }, el("legend", {}, name), ...each.map((r) => dieField(r, t)));
  return [...once, ...(each.length ? ctx.targets.map(group) : [])];
}

/** Enter dice, first step: the dice every roll of this attack needs (`when` "always"); a die read only after
 * some faces (a critical's) is asked in a second step, when the first answer calls for it. */
export async function loadDice() {
  const body = ctx.chosen();
  if (!body.targets.length) return;
  const asked = ++ctx.asked;
  const kept = ctx.kept();
  q("#roll-dice").hidden = kept.length > 0;
  if (kept.length) return keptDice(kept);
  const answer = await api("POST", `/v1/encounters/${ctx.id}/dice`, body, ctx.token);
  if (asked !== ctx.asked) return; // a later ask is under way: its answer is the one shown
  if (!answer.ok) {
    ctx.fail(answer);
    return;
  }
  const fields = q("#dice-fields");
  const key = JSON.stringify([answer.data.roles, answer.data.targets]);
  if (fields.dataset.roles === key && !ctx.fresh) return; // the same dice: what is typed stays
  ctx.fresh = false;
  fields.dataset.roles = key;
  ctx.roles = answer.data.roles;
  ctx.targets = answer.data.targets || body.targets.slice(0, 1);
  const first = answer.data.roles.filter((r) => (r.when || "always") === "always");
  const later = answer.data.roles.filter((r) => r.when === "conditional");
  const never = answer.data.roles.filter((r) => r.when === "never");
  const notes = [
    first.length ? null : el("p", { class: "note", id: "dice-none" }, "No die has to be typed first."),
    later.length
      ? el("p", { class: "note", id: "dice-later" }, `Asked after these if the roll needs them: ${later.map(named).join(", ")}.`)
      : null,
    never.length
      ? el("p", { class: "note", id: "dice-never" }, `Not asked, they change nothing here (tohit rolls them for the trace): ${never.map(named).join(", ")}.`)
      : null,
  ];
  const each = first.some((r) => r.scope !== "attack") ? "type the dice rolled for each" : "one roll serves them all";
  const several = perTarget() && first.length
    ? el("p", { class: "note", id: "dice-several" }, `This attack rolls against ${ctx.targets.join(", ")}: ${each}.`)
    : null;
  fields.replaceChildren(...(several ? [several] : []), ...firstFields(first), ...notes.filter(Boolean));
}

/** A target whose numbers the GM keeps (a player's page): which dice to type, and what they still call for, are
 * read from its numbers, so the server does not tell them (docs/players.md); the panel says so in words. */
function keptDice(kept) {
  const fields = q("#dice-fields");
  delete fields.dataset.roles;
  const words = `${keptWords(kept)}: the dice to type are read from them.`;
  const what = " Roll here, or roll at the table and the GM types them.";
  fields.replaceChildren(el("p", { class: "note", id: "dice-kept" }, words, what));
}

/** The faces typed in one field, checked against its dice; sets the field's message. Returns the faces or null. */
function checkFaces(input) {
  const error = document.getElementById(`${input.id}-error`);
  const text = input.value.trim();
  const sides = input.dataset.sides ? input.dataset.sides.split(" ").map(Number) : null;
  let message = "";
  let faces = [];
  if (!text) message = "type the faces rolled";
  else {
    faces = text.split(/[\s,]+/).map((t) => (/^\d+$/.test(t) ? Number(t) : NaN));
    if (faces.some((f) => Number.isNaN(f) || f < 1)) message = "faces are whole numbers from 1";
    else if (sides && faces.length !== sides.length) message = `needs ${sides.length} face${sides.length > 1 ? "s" : ""}, got ${faces.length}`;
    else if (sides) {
      const off = faces.findIndex((f, i) => f > sides[i]);
      if (off >= 0) message = `face ${faces[off]} is not on a d${sides[off]}`;
    }
  }
  input.setCustomValidity(message);
  input.setAttribute("aria-invalid", message ? "true" : "false");
  error.textContent = message;
  return message ? null : faces;
}

/** The faces typed: role -> faces, or per creature's name its set (a die rolled once for all in the first's). */
function typed() {
  const dice = {};
  if (perTarget()) for (const name of ctx.targets) dice[name] = {};
  let bad = null;
  for (const input of q("#dice-fields").querySelectorAll("input")) {
    const faces = checkFaces(input);
    if (faces === null) bad = bad || input;
    else if (input.dataset.target) dice[input.dataset.target][input.name] = faces;
    else dice[input.name] = faces;
  }
  return { dice, bad };
}

/** The fields of the dice the faces typed still call for (`needed`: roles, or per creature's name its roles). */
function neededFields(needed, dice) {
  const role = (name) => (ctx.roles || []).find((r) => r.role === name) || { role: name, notation: name, sides: null };
  const words = (name) => role(name).label || name;
  if (!perTarget()) {
    const missing = (needed || []).filter((name) => !(name in dice));
    return { words: missing.map(words), fields: missing.map((name) => dieField(role(name))) };
  }
  const said = [];
  const fields = [];
  ctx.targets.forEach((name, t) => {
    for (const r of (needed || {})[name] || []) {
      if (r in dice[name]) continue;
      said.push(`${words(r)} for ${name}`);
      fields.push(dieField(role(r), t));
    }
  });
  return { words: said, fields };
}

export async function rollTyped() {
  if (ctx.rolling) return; // a second press while these dice are checked and sent would send a second attack
  ctx.rolling = true;
  try {
    await sendTyped();
  } finally {
    ctx.rolling = false;
  }
}

async function sendTyped() {
  const { dice, bad } = typed();
  if (bad) {
    bad.focus();
    return;
  }
  // the second step: the dice these faces still call for (a critical's), asked only when they are needed
  const check = await api("POST", `/v1/encounters/${ctx.id}/dice`, { ...ctx.chosen(), dice }, ctx.token);
  if (check.ok) {
    const { words, fields } = neededFields(check.data.needed, dice);
    if (fields.length) {
      q("#dice-fields").append(el("p", { class: "note", id: "dice-needed" }, `These dice call for ${words.join(", ")} too:`), ...fields);
      fields[0].querySelector("input").focus();
      return;
    }
  } else if (!fieldError(check)) {
    ctx.fail(check);
    return;
  } else return;
  // Once the attack is stored, the next one starts from its first step again, shown once: by the refresh that
  // follows the attack (its preview asks for the dice), or here when that refresh did not ask. Shown twice, the
  // second showing would clear faces typed for the next attack in between.
  const answer = await ctx.attack(dice);
  if (answer && !answer.ok) fieldError(answer);
  else if (answer && ctx.fresh) await loadDice();
}

/** The dice typed have been used (their attack is stored): the next answer shows the first step anew. */
export function diceUsed() {
  ctx.fresh = true;
}

/** An answer's error on `dice.<role>` (or `dice.<target>.<role>`), shown at that field (true when it was one). */
function fieldError(answer) {
  const field = answer.data.error && answer.data.error.field;
  const input = field ? [...q("#dice-fields").querySelectorAll("input")].find((x) => x.dataset.field === field) : null;
  if (!input) return false;
  document.getElementById(`${input.id}-error`).textContent = answer.data.error.message;
  input.setAttribute("aria-invalid", "true");
  input.focus();
  return true;
}
