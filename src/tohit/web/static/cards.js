// A combatant's card: its health bar, its conditions and references as chips, every other stat under the game's
// own label. All of it is the server's `shown` (the game's stat readings): the page names no stat and no game.
import { el } from "./api.js";

/** One combatant's stats as the game reads them (`shown`: label, kind, text; chips for conditions). */
export function readings(enc, name) {
  return (enc.shown && enc.shown[name]) || [];
}

function value(entry) {
  return el("dd", { dataset: { stat: entry.stat, label: entry.label } }, entry.text);
}

export function card(who, enc) {
  const entries = readings(enc, who.name);
  const health = entries.find((e) => e.kind === "health");
  const up = enc.standing.includes(who.name);
  const word = { unhurt: 100, wounded: 70, bloodied: 30, down: 0, downed: 0 }; // a hidden combatant's bar: its word's
  const fill = !health
    ? 0
    : health.hidden
      ? (word[health.text] ?? 50)
      : Math.max(0, Math.min(100, (100 * health.value) / Math.max(health.max, 1)));
  const chips = entries.filter((e) => e.chips && e.chips.length);
  const rest = entries.filter((e) => e.kind !== "health" && !e.chips && e.tracked !== false); // "—": left out
  return el(
    "article",
    {
      class: `card${up ? "" : " down"}${who.name === enc.turn ? " current" : ""}`,
      dataset: { combatant: who.name },
      "aria-label": `${who.name}, ${who.side}`,
    },
    el("h3", {}, who.name, el("span", { class: "side-name" }, who.side)),
    health
      ? el(
          "div",
          {
            class: "health",
            role: "meter",
            "aria-label": health.label,
            "aria-valuemin": 0,
            "aria-valuemax": health.max,
            "aria-valuenow": health.value,
          },
          el("div", { class: "fill", style: `width: ${fill}%` }),
          health.hidden // the players' view of a hidden combatant: a health word, no number
            ? el(
                "span",
                { class: "health-text" },
                `${health.label} `,
                el("b", { dataset: { stat: health.stat, label: health.label, hidden: "true" } }, health.text),
              )
            : el(
                "span",
                { class: "health-text" },
                `${health.label} `,
                el("b", { dataset: { stat: health.stat, label: health.label } }, health.value),
                ` / ${health.max}`,
              ),
        )
      : null,
    el(
      "ul",
      { class: "chips", "aria-label": "conditions" },
      up ? null : el("li", { class: "chip down" }, "down"),
      chips.flatMap((e) => e.chips.map((c) => el("li", { class: "chip", dataset: { stat: e.stat, label: e.label } }, c))),
    ),
    el(
      "dl",
      { class: "stats" },
      rest.map((e) => el("div", {}, el("dt", { title: e.label }, e.label), value(e))),
    ),
  );
}
