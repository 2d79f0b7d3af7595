// The ruler on the battle map: with "Ruler" pressed, a click (or Enter) on a square starts it, a second ends it;
// the server counts the squares between them as the game counts ranges and moves (rtw: every second diagonal
// counts two), through POST /v1/encounters/{id}/measure, and the map draws the line with its count.
import { api, errorLine } from "./api.js";

const ruler = { on: false, from: null, to: null, squares: null };

function q(selector) {
  return document.querySelector(selector);
}

export function rulerOn() {
  return ruler.on;
}

/** Press or release "Ruler"; `redraw` draws the map again. */
export function toggleRuler(redraw) {
  Object.assign(ruler, { on: !ruler.on, from: null, to: null, squares: null });
  q("#map-ruler").setAttribute("aria-pressed", String(ruler.on));
  q("#map-measure").textContent = ruler.on ? "Ruler: click the square to measure from." : "";
  redraw();
}

/** A square picked while the ruler is on: its start, or its end (then measured). */
export async function measureTo(x, y, ctx, redraw) {
  if (!ruler.from || ruler.to) {
    Object.assign(ruler, { from: [x, y], to: null, squares: null });
    q("#map-measure").textContent = `Ruler from (${x}, ${y}): click the square to measure to.`;
    redraw();
    return;
  }
  ruler.to = [x, y];
  const answer = await api("POST", `/v1/encounters/${ctx.id}/measure`, { from: ruler.from, to: ruler.to }, ctx.token);
  if (!answer.ok) {
    q("#map-measure").textContent = errorLine(answer.data);
    return;
  }
  ruler.squares = answer.data.squares;
  const [a, b] = ruler.from;
  const s = ruler.squares;
  q("#map-measure").textContent = `From (${a}, ${b}) to (${x}, ${y}): ${s} square${s === 1 ? "" : "s"}`;
  redraw();
}

/** The ruler's line and count, drawn over the map (an empty group while there is none). */
export function rulerLayer(svg, cell) {
  if (!ruler.on || !ruler.from) return svg("g");
  const [a, b] = ruler.from.map((v) => (v + 0.5) * cell);
  const [c, d] = (ruler.to || ruler.from).map((v) => (v + 0.5) * cell);
  return svg(
    "g",
    { class: "ruler", "data-squares": ruler.squares ?? "" },
    svg("line", { x1: a, y1: b, x2: c, y2: d }),
    svg("circle", { cx: a, cy: b, r: 5 }),
    svg("circle", { cx: c, cy: d, r: 5 }),
    ruler.squares === null ? svg("g") : svg("text", { x: (a + c) / 2, y: (b + d) / 2 - 8, "text-anchor": "middle" }, ruler.squares),
  );
}
