// The targets of the chosen attack: one radio group when the attack takes one target, checkboxes when the game
// lets it take several (the sheet's `max_targets`, per attack: a Multi ability, an area in a fight with no map),
// never more checked than that. One checked: whom else the attack reaches is the game's (the preview lists
// them); several: exactly those. No rules here: the cap is the server's answer.
import { el } from "./api.js";

/** How many targets the game lets `attacker`'s `attack` take (1 when the sheet does not say). */
export function maxTargets(sheet, attacker, attack) {
  const who = sheet.combatants.find((c) => c.name === attacker);
  if (!who) return 1;
  const i = Math.max(0, who.attacks.indexOf(attack));
  return (who.max_targets || [])[i] || 1;
}

/** The names checked now, in the order shown. */
export function checkedTargets(box) {
  return [...box.querySelectorAll("input:checked")].map((i) => i.value);
}

/** Fill `box` (the #targets fieldset) with one choice per other combatant: radios, or checkboxes up to the cap. A
 * choice still valid is kept (only the first when the attack now takes one); else the first standing foe. */
export function fillTargets(box, { sheet, enc, attacker, attack, onChange }) {
  const me = sheet.combatants.find((c) => c.name === attacker);
  if (!me) return;
  const others = sheet.combatants.filter((c) => c.name !== me.name);
  const standing = new Set(enc.standing);
  const most = maxTargets(sheet, attacker, attack);
  let checked = checkedTargets(box).filter((n) => others.some((c) => c.name === n));
  if (!checked.length || box.dataset.attacker !== me.name) {
    const foe = others.find((c) => c.side !== me.side && standing.has(c.name)) || others[0];
    checked = foe ? [foe.name] : [];
  }
  checked = checked.slice(0, most);
  box.dataset.attacker = me.name;
  box.dataset.most = String(most);
  const several = most > 1;
  const legend = !several ? "Target" : most >= others.length ? "Targets (any number)" : `Targets (up to ${most})`;
  box.replaceChildren(
    el("legend", {}, legend),
    ...others.map((c) => {
      const key = `target-${sheet.combatants.indexOf(c)}`;
      return el(
        "div",
        { class: "check" },
        el("input", {
          type: several ? "checkbox" : "radio",
          id: key,
          name: "targets",
          value: c.name,
          checked: checked.includes(c.name),
          onchange: () => {
            capTargets(box);
            onChange();
          },
        }),
        el("label", { for: key }, c.name, c.side === me.side ? " (ally)" : "", standing.has(c.name) ? "" : " (down)"),
      );
    }),
    // replaceChildren writes a null as the text "null": a single target's box has no note at all
    ...(several
      ? [
          el(
            "p",
            { class: "note", id: "targets-note" },
            "One checked: the attack reaches whom the rules say (listed below); several: exactly those.",
          ),
        ]
      : []),
  );
  capTargets(box);
}

/** With as many checked as the cap, the boxes left unchecked are disabled (the page never sends more). */
function capTargets(box) {
  const most = Number(box.dataset.most || 1);
  if (most <= 1) return;
  const full = checkedTargets(box).length >= most;
  for (const input of box.querySelectorAll("input")) input.disabled = box.disabled || (full && !input.checked);
}
