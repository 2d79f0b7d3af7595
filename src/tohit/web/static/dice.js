// Enter dice: the faces rolled at the table, typed by hand. First the dice every roll of the attack needs (the
// server's `when`: "always"); the rest only when those faces call for them (its `needed`, e.g. the damage dice
// after a hit), never a die no rule of the fight reads. A face off its die is refused at its field.
import { api, el } from "./api.js";

/** What the dice need of the tracker: the encounter, its token, the choice on the form, the attack, the error line. */
const ctx = { id: null, token: null, chosen: null, attack: null, fail: null, roles: null };

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

/** One field for a role's faces (its hint: the dice it reads). */
function dieField(r) {
  const hint = r.sides ? `${r.sides.length} face${r.sides.length > 1 ? "s" : ""}: ${r.sides.map((s) => `d${s}`).join(" ")}` : "faces as rolled";
  return el(
    "div",
    { class: "field die", dataset: { role: r.role, when: r.when || "always" } },
    el("label", { for: `die-${r.role}` }, `${r.role} (${r.notation})`),
    el("input", {
      id: `die-${r.role}`,
      name: r.role,
      inputmode: "numeric",
      autocomplete: "off",
      placeholder: hint,
      "aria-describedby": `die-${r.role}-error`,
      dataset: { sides: r.sides ? r.sides.join(" ") : "" },
      oninput: (e) => checkFaces(e.target),
    }),
    el("span", { id: `die-${r.role}-error`, class: "field-error", "aria-live": "polite" }),
  );
}

/** Enter dice, first step: the dice every roll of this attack needs (`when` "always"); a die read only after
 * some faces (a critical's) is asked in a second step, when the first answer calls for it. */
export async function loadDice() {
  const body = ctx.chosen();
  if (!body.targets.length) return;
  const answer = await api("POST", `/v1/encounters/${ctx.id}/dice`, body, ctx.token);
  if (!answer.ok) {
    ctx.fail(answer);
    return;
  }
  const fields = q("#dice-fields");
  const key = JSON.stringify(answer.data.roles);
  if (fields.dataset.roles === key) return;
  fields.dataset.roles = key;
  ctx.roles = answer.data.roles;
  const first = answer.data.roles.filter((r) => (r.when || "always") === "always");
  const later = answer.data.roles.filter((r) => r.when === "conditional");
  const never = answer.data.roles.filter((r) => r.when === "never");
  const notes = [
    first.length ? null : el("p", { class: "note", id: "dice-none" }, "No die has to be typed first."),
    later.length
      ? el("p", { class: "note", id: "dice-later" }, `Asked after these if the roll needs them: ${later.map((r) => `${r.role} (${r.notation})`).join(", ")}.`)
      : null,
    never.length
      ? el("p", { class: "note", id: "dice-never" }, `Not asked, they change nothing here (tohit rolls them for the trace): ${never.map((r) => `${r.role} (${r.notation})`).join(", ")}.`)
      : null,
  ];
  fields.replaceChildren(...first.map(dieField), ...notes.filter(Boolean));
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

export async function rollTyped() {
  const inputs = [...q("#dice-fields").querySelectorAll("input")];
  const dice = {};
  let bad = null;
  for (const input of inputs) {
    const faces = checkFaces(input);
    if (faces === null) bad = bad || input;
    else dice[input.name] = faces;
  }
  if (bad) {
    bad.focus();
    return;
  }
  // the second step: the dice these faces still call for (a critical's), asked only when they are needed
  const check = await api("POST", `/v1/encounters/${ctx.id}/dice`, { ...ctx.chosen(), dice }, ctx.token);
  if (check.ok) {
    const missing = (check.data.needed || []).filter((role) => !(role in dice));
    if (missing.length) {
      const roles = ctx.roles || check.data.roles;
      const added = missing.map((role) => dieField(roles.find((r) => r.role === role)));
      q("#dice-fields").append(el("p", { class: "note", id: "dice-needed" }, `These dice call for ${missing.join(", ")} too:`), ...added);
      added[0].querySelector("input").focus();
      return;
    }
  } else if (!fieldError(check)) {
    ctx.fail(check);
    return;
  } else return;
  const answer = await ctx.attack(dice);
  if (answer && !answer.ok) fieldError(answer);
  else if (answer) {
    delete q("#dice-fields").dataset.roles; // the next attack starts from its first step again
    await loadDice();
  }
}

/** An answer's error on `dice.<role>`, shown at that role's field (true when it was one). */
function fieldError(answer) {
  const field = answer.data.error && answer.data.error.field;
  const input = field && field.startsWith("dice.") ? document.getElementById(`die-${field.slice(5)}`) : null;
  if (!input) return false;
  document.getElementById(`${input.id}-error`).textContent = answer.data.error.message;
  input.setAttribute("aria-invalid", "true");
  input.focus();
  return true;
}
