// The small pieces the GM's forms share (selection.js, adding.js): a labelled field, a select's options kept
// as chosen, and an action whose refusal shows in the form's own error line.
import { el } from "./api.js";

export function q(selector) {
  return document.querySelector(selector);
}

/** A labelled field: `<div class=field><label for=id>label</label>input</div>`. */
export function field(idName, label, input) {
  return el("div", { class: "field" }, el("label", { for: idName }, label), input);
}

/** A select's options from [value, text] pairs, the choice kept where it is still offered. */
export function fill(node, pairs) {
  const before = node.value;
  node.replaceChildren(...pairs.map(([v, t]) => el("option", { value: v }, t)));
  if (pairs.some(([v]) => v === before)) node.value = before;
}

/** One action through the tracker's `act`; a refusal's error line also in `box`, beside the form. */
export async function run(act, action, box) {
  box.textContent = "";
  const answer = await act(action);
  if (answer && !answer.ok) box.textContent = q("#action-error").textContent;
  return answer;
}
