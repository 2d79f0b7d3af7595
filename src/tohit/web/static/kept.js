// A foe whose numbers the GM keeps from the players, on a player's page (docs/players.md, "A link per player"): the
// odds on it and the dice to type against it are read from those numbers, so the server refuses them (403). The
// Attack panel says so in words where the odds and the dice fields would be, and still offers Roll.

function q(selector) {
  return document.querySelector(selector);
}

/** The chosen targets whose numbers the GM keeps from the players (docs/players.md: their odds and the dice to
 * type are read from those numbers, so the server refuses them); none on the GM's page. */
export function keptTargets(page, targets) {
  if (page.gm) return [];
  const kept = new Set(page.enc.hidden || []);
  return targets.filter((name) => kept.has(name));
}

/** "The GM keeps Bokoblin's numbers": the start of the panel's words for a kept target. */
export function keptWords(names) {
  return `The GM keeps ${names.map((n) => `${n}'s`).join(" and ")} numbers`;
}

/** The odds' place says why there are none for a kept target (`names`; empty: the line hidden). */
export function showKept(names) {
  const line = q("#odds-kept");
  line.hidden = !names.length;
  q("#preview").hidden = names.length > 0; // its caption speaks of odds there are none of
  line.textContent = names.length ? `${keptWords(names)}: no odds shown. Roll, or roll at the table and tell the GM.` : "";
}
