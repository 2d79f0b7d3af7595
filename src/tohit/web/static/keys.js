// The GM's keys: r roll, a auto turn, e end turn, u undo, ? the list; none fires while typing in a field, and a
// key presses its button only when that button is enabled (so a key never does what the page would not).

/** Each key and the button it presses (null: the list itself), with its words for the list. */
export const KEYS = {
  r: ["#roll", "roll the attack chosen"],
  a: ["#auto", "auto turn"],
  e: ["#end-turn", "end the turn"],
  u: ["#undo", "undo the last action"],
  "?": [null, "show or hide this list"],
};

/** Show or hide the list of keys (`#keys`, opened by `#show-keys`). */
export function toggleKeys() {
  const box = document.getElementById("keys");
  box.hidden = !box.hidden;
  document.getElementById("show-keys").setAttribute("aria-expanded", String(!box.hidden));
}

/** A key pressed anywhere but in a field (typing a value or dice never fires one). */
export function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  const t = event.target;
  if (t && (t.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName))) return;
  const found = KEYS[event.key];
  if (!found) return;
  event.preventDefault();
  if (found[0] === null) {
    toggleKeys();
    return;
  }
  const button = document.querySelector(found[0]);
  if (button && !button.disabled) button.click();
}
