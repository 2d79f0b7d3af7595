// The attack panel's form, shared by the GM's action panel (tracker.js) and a player's (player.js): the attacker,
// the attack and its targets, the exact odds before the roll, Roll and the dice typed by hand, then the panel's
// own buttons. The tracker fills and wires it (its ids are the tracker's: #attacker, #attack, #targets, ...).
import { el } from "./api.js";
import { rollTyped, toggleDice } from "./dice.js";

/** A labelled <select> (its options as [value, text] pairs). */
export function select(idName, label, options) {
  return [
    el("label", { for: idName }, label),
    el("select", { id: idName, name: idName }, options.map(([v, t]) => el("option", { value: v }, t))),
  ];
}

/** The #action form: `roll` plays the attack as chosen; `buttons`, the panel's own (the GM's Auto turn, End turn,
 * Undo; a player's End turn). */
export function attackForm(roll, buttons) {
  return el(
    "form",
    { id: "action", class: "panel", onsubmit: (e) => e.preventDefault() },
    el("div", { class: "field" }, ...select("attacker", "Attacker", [])),
    el("div", { class: "field" }, ...select("attack", "Attack", [])),
    el("fieldset", { id: "targets" }, el("legend", {}, "Target")),
    el(
      "table",
      { id: "preview", class: "preview", dataset: { preview: "" } },
      el("caption", {}, "Before the roll: exact odds of what the roll plays (an attack that cannot reach says why)"),
      el("thead"),
      el("tbody"),
    ),
    el("p", { id: "odds-kept", class: "note odds-kept", role: "status", hidden: true }),
    el("p", { id: "preview-move", class: "preview-move", hidden: true }),
    el(
      "div",
      { class: "buttons" },
      el("button", { id: "roll", type: "button", onclick: roll }, "Roll"),
      el("button", { id: "enter-dice", type: "button", "aria-expanded": "false", onclick: toggleDice }, "Enter dice"),
    ),
    el(
      "fieldset",
      { id: "dice", hidden: true },
      el("legend", {}, "Dice rolled at the table"),
      el("div", { id: "dice-fields" }),
      el("button", { id: "roll-dice", type: "button", onclick: rollTyped }, "Use these dice"),
    ),
    el("div", { class: "buttons" }, ...buttons),
    el("p", { id: "action-error", class: "error", role: "alert" }),
  );
}

/** The form's choices followed: a new attacker fills its attacks, a new attack its targets; either asks the odds. */
export function wireAttackForm({ fillAttacks, fillTargets, updatePreview }) {
  const q = (selector) => document.querySelector(selector);
  q("#attacker").addEventListener("change", () => {
    fillAttacks();
    fillTargets();
    updatePreview();
  });
  q("#attack").addEventListener("change", () => {
    fillTargets(); // radios, or checkboxes where the attack may take several targets
    updatePreview();
  });
}
