// The battle map, for encounters whose game has map rules and whose fight has a map (the server says so in the
// sheet): an SVG grid with the solid squares and the creatures by size; an attack placed with the mouse or keys
// shows, before any roll, the squares it covers, the creatures the rules say it reaches, the cover lines that make
// a creature Hard to Hit, and the exact odds per creature (the encounter's preview); "Best aim" shows the aim
// command's top placements. Every square, target and line comes from the server's map route. A map from a
// Universal VTT file has its picture under the grid (the picture route's image, scaled so its pixels_per_grid
// pixels fill a square) and walls, drawn over it when the GM asks ("Show walls"). The map pans and zooms
// (mapzoom.js) and measures (ruler.js); the players see only what their characters see (sight.js).
import { api, el, errorLine, percent } from "./api.js";
import { apply, attachZoom, fit, openOn, point, show, viewBox, zoomBy, zoomed, zoomKey } from "./mapzoom.js";
import { playersTurn } from "./player.js";
import { measureTo, rulerLayer, rulerOn, toggleRuler } from "./ruler.js";
import { exploredKey, sightLayer } from "./sight.js";

const CELL = 44;
/** The margin (in the SVG's units) that carries the coordinates along the top and left edges. */
const EDGE = 20;
const SVG = "http://www.w3.org/2000/svg";
const DIRECTIONS = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"];
const state = { built: false, view: null, placement: null, cursor: [0, 0], ctx: null, best: null, showWalls: false };

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function q(selector) {
  return document.querySelector(selector);
}

/** Draw (first time) or update the map section. */
export function showMap(section, ctx) {
  state.ctx = ctx;
  section.hidden = false;
  if (!state.built) build(ctx);
  syncChoices();
}

/** The read-only view: the board and the creatures (who is down), no placing. */
async function buildView(ctx) {
  const { enc, sheet } = ctx.page;
  // no buttons in the players' view: the wheel, a pinch and a drag zoom and pan it
  const moves = playersTurn(ctx.page) ? `${ctx.page.player}'s turn: tap a square (or drag ${ctx.page.player}) to move there.` : "";
  q("#map-body").replaceChildren(el("p", { id: "map-range" }), el("p", { id: "map-help", class: "note" }, moves), el("p", { id: "map-error", class: "error", role: "alert" }), el("div", { id: "map-svg" }));
  const attacker = ctx.page.player || enc.standing[0] || sheet.combatants[0].name;
  state.seq = enc.seq;
  const answer = await api("POST", `/v1/encounters/${ctx.id}/map`, { attacker }, ctx.token);
  if (!answer.ok) {
    q("#map-error").textContent = errorLine(answer.data);
    return;
  }
  state.view = { ...answer.data, squares: [], reached: [], cover: {} };
  draw();
  q("#map-range").textContent = "";
}

/** Zoom in, zoom out, fit the whole map (the keys +, - and 0 on the map do the same). */
function zoomButtons() {
  return el(
    "div",
    { class: "buttons map-zoom", role: "group", "aria-label": "Zoom" },
    el("button", { id: "map-zoom-in", type: "button", title: "Zoom in (+)", "aria-label": "Zoom in", onclick: () => zoomBy(1.25) }, "+"),
    el("button", { id: "map-zoom-out", type: "button", title: "Zoom out (-)", "aria-label": "Zoom out", onclick: () => zoomBy(0.8) }, "−"),
    el("button", { id: "map-fit", type: "button", title: "The whole map (0)", onclick: fit }, "Fit"),
  );
}

function build(ctx) {
  state.built = true;
  const { sheet } = ctx.page;
  if (!ctx.page.gm) {
    buildView(ctx);
    return;
  }
  q("#map-body").replaceChildren(
    el(
      "div",
      { class: "map-tools" },
      el(
        "div",
        { class: "field" },
        el("label", { for: "map-attacker" }, "Attacker"),
        el("select", { id: "map-attacker", onchange: () => choose(true) }),
      ),
      el(
        "div",
        { class: "field" },
        el("label", { for: "map-attack" }, "Attack"),
        el("select", { id: "map-attack", onchange: () => choose(false) }),
      ),
      el(
        "div",
        { class: "field", id: "map-direction-field", hidden: true },
        el("label", { for: "map-direction" }, "Direction"),
        el(
          "select",
          { id: "map-direction", onchange: (e) => place({ direction: e.target.value }) },
          DIRECTIONS.map((d) => el("option", { value: d }, d)),
        ),
      ),
      el("button", { id: "best-aim", type: "button", onclick: bestAim }, "Best aim"),
      el("button", { id: "map-walls", type: "button", "aria-pressed": "false", onclick: toggleWalls }, "Show walls"),
      ctx.page.gm ? el("button", { id: "map-roll", type: "button", onclick: rollPlaced }, "Roll this placement") : null,
      zoomButtons(),
      el("button", { id: "map-ruler", type: "button", "aria-pressed": "false", onclick: () => toggleRuler(draw) }, "Ruler"),
    ),
    el("p", { id: "map-measure", "aria-live": "polite" }),
    el("div", { id: "map-doors", class: "map-tools" }),
    el("p", { id: "map-help", class: "note" }),
    el("p", { id: "map-range", "aria-live": "polite" }),
    el("p", { id: "map-error", class: "error", role: "alert" }),
    el("div", { id: "map-svg" }),
    el("table", { id: "map-odds", class: "preview map-odds" }, el("caption", {}, "Odds per creature reached, before the roll"), el("thead"), el("tbody")),
    el("p", { id: "map-move", class: "preview-move", hidden: true }),
    el("ol", { id: "best-list", class: "trace" }),
  );
  const who = q("#map-attacker");
  who.replaceChildren(...sheet.combatants.map((c) => el("option", { value: c.name }, c.name)));
  who.value = ctx.page.enc.turn || sheet.combatants[0].name;
  state.turn = ctx.page.enc.turn;
  choose(true);
}

/** The map's attacker follows the turn: when the turn passes to another (standing) combatant, it is chosen. */
function followTurn() {
  const { enc } = state.ctx.page;
  if (!state.ctx.page.gm || !enc.turn || enc.turn === state.turn) return false;
  state.turn = enc.turn;
  if (!enc.standing.includes(enc.turn) || q("#map-attacker").value === enc.turn) return false;
  q("#map-attacker").value = enc.turn;
  choose(true);
  return true;
}

function syncChoices() {
  if (!state.view) return;
  if (state.ctx.page.gm) {
    const over = state.ctx.page.enc.over; // at the end, nothing left to roll or aim (undo first)
    for (const b of ["#map-roll", "#best-aim", "#map-attacker", "#map-attack", "#map-direction"]) q(b).disabled = over;
    for (const b of document.querySelectorAll("#map-doors button, #best-list button")) b.disabled = over;
    q("#map-svg").dataset.locked = String(over); // no token dragged at the end
  }
  if (followTurn()) return;
  const seq = state.ctx.page.enc.seq;
  const changed = state.seq !== undefined && state.seq !== seq;
  state.seq = seq;
  if (!changed) draw();
  else if (state.ctx.page.gm) load(); // a move changes the board, an attack the odds: asked again
  else buildView(state.ctx);
}

function choose(attackerChanged) {
  const { sheet } = state.ctx.page;
  const who = sheet.combatants.find((c) => c.name === q("#map-attacker").value);
  if (attackerChanged) {
    q("#map-attack").replaceChildren(...who.attacks.map((a) => el("option", { value: a }, a)));
  }
  state.placement = null;
  state.best = null;
  q("#best-list").replaceChildren();
  load();
}

function body(extra = {}) {
  return { attacker: q("#map-attacker").value, attack: q("#map-attack").value || undefined, ...extra };
}

async function load() {
  const { id, token } = state.ctx;
  const asked = body({ placement: state.placement || undefined });
  state.seq = state.ctx.page.enc.seq; // the board and odds asked at this seq
  const ticket = (state.ticket = (state.ticket || 0) + 1);
  const answer = await api("POST", `/v1/encounters/${id}/map`, asked, token);
  if (ticket !== state.ticket) return; // a newer choice was sent meanwhile
  if (!answer.ok) {
    q("#map-error").textContent = errorLine(answer.data);
    if (state.view) state.placement = state.view.placement;
    return;
  }
  q("#map-error").textContent = "";
  state.view = answer.data;
  state.viewFor = `${asked.attacker}/${asked.attack}`;
  const fields = state.view.placement_fields;
  q("#map-direction-field").hidden = !fields.includes("direction");
  if (state.view.placement.direction) q("#map-direction").value = state.view.placement.direction;
  q("#map-help").textContent = help(fields);
  draw();
  odds();
}

function help(fields) {
  return `${placeHelp(fields)} Drag a creature (or M on it, arrows, Enter) to move it. Wheel or pinch to zoom, drag the board to pan (keys: + - 0, Shift+arrows).`;
}

function placeHelp(fields) {
  if (fields.includes("at")) return "Click a square (or move with the arrow keys and press Enter) to place the area's corner.";
  if (fields.includes("direction")) return "Choose a direction, or click a square (arrow keys and Enter) to point the attack at it.";
  if (fields.includes("target")) return "Click a creature (arrow keys and Enter) to aim at it.";
  if (fields.includes("targets")) return "Click creatures (arrow keys and Enter) to choose them.";
  if (fields.includes("squares")) return "Click squares (arrow keys and Enter) to choose them.";
  return "This range needs no placement.";
}

function place(extra) {
  const same = state.viewFor === `${q("#map-attacker").value}/${q("#map-attack").value}`;
  const base = same ? state.placement || state.view.placement || {} : {};
  state.placement = { ...base, ...extra };
  load();
}

function creatureAt(x, y) {
  return state.view.creatures.find((c) => c.squares.some(([a, b]) => a === x && b === y));
}

/** A click (or Enter) on square (x, y): the placement field the range takes. */
function pick(x, y) {
  if (rulerOn()) return measureTo(x, y, state.ctx, draw);
  const fields = state.view.placement_fields;
  const current = state.placement || state.view.placement || {};
  const who = creatureAt(x, y);
  if (fields.includes("at")) return place({ at: [x, y] });
  if (fields.includes("direction")) {
    const me = state.view.creatures.find((c) => c.name === state.view.attacker);
    const [ax, ay] = me.squares[0];
    const angle = Math.atan2(y - ay, x - ax); // y grows southwards
    const step = Math.round(angle / (Math.PI / 4));
    const compass = { 0: "east", 1: "southeast", 2: "south", 3: "southwest", 4: "west", "-4": "west", "-3": "northwest", "-2": "north", "-1": "northeast" };
    return place({ direction: compass[step] });
  }
  if (fields.includes("target") && who) return place({ target: who.name });
  if (fields.includes("targets") && who) {
    const list = new Set(current.targets || []);
    list.has(who.name) ? list.delete(who.name) : list.add(who.name);
    return place({ targets: [...list] });
  }
  if (fields.includes("squares")) {
    const list = (current.squares || []).filter(([a, b]) => !(a === x && b === y));
    if (list.length === (current.squares || []).length) list.push([x, y]);
    return place({ squares: list });
  }
  return null;
}

function toggleWalls() {
  state.showWalls = !state.showWalls;
  q("#map-walls").setAttribute("aria-pressed", String(state.showWalls));
  draw();
}

/** The picture under the grid, asked (with the page's token) and kept as an object URL: once for the GM; for the
 * players again each time the party has explored more (their picture is black where it never looked). */
async function askPicture() {
  const key = state.ctx.page.gm ? "gm" : exploredKey(state.view);
  if (!state.view.picture || state.pictureAsked === key) return;
  state.pictureAsked = key;
  const answer = await fetch(`/v1/encounters/${state.ctx.id}/picture`, { headers: { Authorization: `Bearer ${state.ctx.token}` }, cache: "no-store" });
  if (!answer.ok || state.pictureAsked !== key) return;
  if (state.pictureUrl) URL.revokeObjectURL(state.pictureUrl);
  state.pictureUrl = URL.createObjectURL(await answer.blob());
  draw();
}

function draw() {
  const view = state.view;
  askPicture();
  const { enc } = state.ctx.page;
  const standing = new Set(enc.standing);
  const width = view.width * CELL;
  const height = view.height * CELL;
  const inRange = new Set(view.squares.map(([x, y]) => `${x},${y}`));
  const best = new Set((state.best || []).map(([x, y]) => `${x},${y}`));
  const reached = new Set(view.reached);
  const sides = [...new Set(view.creatures.map((c) => c.side))];
  const squares = [];
  for (let y = 0; y < view.height; y++) {
    for (let x = 0; x < view.width; x++) {
      const solid = view.solid.some(([a, b]) => a === x && b === y);
      const key = `${x},${y}`;
      squares.push(
        svg("rect", {
          x: x * CELL, y: y * CELL, width: CELL, height: CELL,
          class: ["sq", solid ? "solid" : "", inRange.has(key) ? "in-range" : "", best.has(key) ? "best" : "", state.pictureUrl ? "pictured" : ""].join(" ").trim(),
          "data-square": key,
        }),
      );
    }
  }
  const creatures = view.creatures.map((c) => {
    const xs = c.squares.map((s) => s[0]);
    const ys = c.squares.map((s) => s[1]);
    const x0 = Math.min(...xs), y0 = Math.min(...ys);
    const side = Math.max(...xs) - x0 + 1;
    const pad = c.size === "tiny" || c.size === "small" ? 10 : 4;
    return svg(
      "g",
      {
        class: `creature side-${sides.indexOf(c.side)}${standing.has(c.name) ? "" : " down"}${reached.has(c.name) ? " reached" : ""}${c.name === view.attacker ? " user" : ""}`,
        "data-creature": c.name,
        "data-reached": reached.has(c.name) ? "true" : "false",
      },
      svg("title", {}, `${c.name} (${c.side}, ${c.size})${reached.has(c.name) ? ": reached" : ""}`),
      svg("rect", { x: x0 * CELL + pad, y: y0 * CELL + pad, width: side * CELL - 2 * pad, height: side * CELL - 2 * pad, rx: 8 }),
      label(c.name, (x0 + side / 2) * CELL, (y0 + side / 2) * CELL, side * CELL - 4),
    );
  });
  const lines = Object.entries(view.cover)
    .filter(([name, c]) => c && (reached.has(name) || !view.squares.length))
    .map(([name, c]) =>
      svg(
        "g",
        { class: "cover", "data-cover": name },
        svg("title", {}, `${name} is behind cover: Hard to Hit`),
        svg("line", { x1: c.segment[0][0] * CELL, y1: c.segment[0][1] * CELL, x2: c.segment[1][0] * CELL, y2: c.segment[1][1] * CELL }),
        c.square ? svg("rect", { x: c.square[0] * CELL + 3, y: c.square[1] * CELL + 3, width: CELL - 6, height: CELL - 6, class: "blocker" }) : svg("g"),
      ),
    );
  const [cx, cy] = state.cursor;
  const cursor = svg("rect", { x: cx * CELL + 1, y: cy * CELL + 1, width: CELL - 2, height: CELL - 2, class: "cursor" });
  const edges = [
    ...Array.from({ length: view.width }, (_, x) =>
      svg("text", { x: x * CELL + CELL / 2, y: -6, "text-anchor": "middle", class: "coord", "data-coord-x": x }, x),
    ),
    ...Array.from({ length: view.height }, (_, y) =>
      svg("text", { x: -EDGE / 2, y: y * CELL + CELL / 2 + 4, "text-anchor": "middle", class: "coord", "data-coord-y": y }, y),
    ),
  ];
  const picture = svg(
    "svg",
    {
      class: "map-svg",
      viewBox: viewBox([-EDGE, -EDGE, width + EDGE, height + EDGE]),
      "data-zoom": zoomed(),
      role: state.ctx.page.gm ? "application" : "img",
      tabindex: state.ctx.page.gm ? 0 : undefined,
      "aria-label": state.ctx.page.gm
        ? `Battle map, ${view.width} by ${view.height} squares. ${view.range}: ${view.squares.length} squares, reaching ${view.reached.join(", ") || "nobody"}. Cursor at ${cx}, ${cy}.`
        : `Battle map, ${view.width} by ${view.height} squares: ${view.creatures.map((c) => `${c.name} (${c.side})`).join(", ")}`,
      "data-range": view.range,
    },
    ...edges,
    state.pictureUrl
      ? svg("image", { href: state.pictureUrl, x: 0, y: 0, width, height, preserveAspectRatio: "none", class: "map-picture", "data-pixels-per-grid": view.picture.pixels_per_grid })
      : svg("g"),
    ...squares,
    ...(state.showWalls ? view.walls || [] : []).map(([x0, y0, x1, y1]) =>
      svg("line", { class: "wall", x1: x0 * CELL, y1: y0 * CELL, x2: x1 * CELL, y2: y1 * CELL }),
    ),
    ...(state.showWalls ? view.doors || [] : []).map(({ segment: [x0, y0, x1, y1], closed }) =>
      svg("line", { class: `door${closed ? " closed" : " open"}`, x1: x0 * CELL, y1: y0 * CELL, x2: x1 * CELL, y2: y1 * CELL }, svg("title", {}, closed ? "a closed door" : "an open door")),
    ),
    sightLayer(svg, view, CELL, state.ctx.page.gm),
    ...lines,
    ...creatures,
    rulerLayer(svg, CELL),
    state.ctx.page.gm ? cursor : svg("g"),
  );
  const mover = !state.ctx.page.gm && playersTurn(state.ctx.page); // a player's own token, on its turn
  const grabs = (who) => (state.ctx.page.gm ? !enc.over && who : mover && who && who.name === state.ctx.page.player);
  const moved = attachZoom(picture, (event) => grabs(creatureAt(...square(picture, view, event))));
  if (state.ctx.page.gm) listen(picture, view, cx, cy, moved);
  else if (mover) listenPlayer(picture, view, moved);
  const hadFocus = document.activeElement && document.activeElement.closest && document.activeElement.closest("#map-svg");
  q("#map-svg").replaceChildren(picture);
  const turn = view.creatures.find((c) => c.name === (enc.turn || view.attacker)) || view.creatures[0];
  if (turn) openOn(CELL, (turn.squares[0][0] + 0.5) * CELL, (turn.squares[0][1] + 0.5) * CELL);
  apply(); // its height on the page: the shown part's
  if (hadFocus) picture.focus();
  if (state.ctx.page.gm) doorButtons(view.doors || []);
  if (state.ctx.page.gm) {
    q("#map-range").textContent = `${view.range}: ${view.squares.length} square${view.squares.length === 1 ? "" : "s"}; reaches ${view.reached.join(", ") || "nobody"}`;
  }
}

/** A button per door of the map: the GM opens or closes it (one door event; undo takes it back). */
function doorButtons(doors) {
  q("#map-doors").replaceChildren(
    ...doors.map((d) =>
      el(
        "button",
        { type: "button", dataset: { door: d.door }, disabled: state.ctx.page.enc.over, onclick: () => door(d.door, !d.closed) },
        `${d.closed ? "Open" : "Close"} door ${d.door + 1}`,
      ),
    ),
  );
}

async function door(number, closed) {
  await state.ctx.act({ kind: "door", door: number, closed }, null, q("#map-error")); // an error shown once, here
}

/** The GM moves a creature (dragged, or M then arrows and Enter): one move event; the board is asked again. */
async function move(name, x, y, from) {
  const creature = state.view.creatures.find((c) => c.name === name);
  const [ox, oy] = creature.squares[0];
  const to = [x - (from[0] - ox), y - (from[1] - oy)]; // the square under the pointer keeps its place in the footprint
  if (state.ctx.page.gm) q("#map-help").textContent = help(state.view.placement_fields);
  await state.ctx.act({ kind: "move", combatant: name, to }, null, q("#map-error")); // an error shown once, here
}

/** The square under a pointer event, on the board (the SVG's own transform: any zoom and pan). */
function square(picture, view, event) {
  const [ux, uy] = point(picture, event);
  return [
    Math.max(0, Math.min(view.width - 1, Math.floor(ux / CELL))),
    Math.max(0, Math.min(view.height - 1, Math.floor(uy / CELL))),
  ];
}

/** Mouse and keys on the GM's map: a click or Enter places at a square (or, the ruler on, measures to it); the
 * arrow keys move the cursor; a token dragged moves (never at the end of the fight); a drag that panned or a
 * pinch (`moved()`) places nothing. */
function listen(picture, view, cx, cy, moved) {
  const over = () => state.ctx.page.enc.over;
  picture.addEventListener("pointerdown", (event) => {
    const [x, y] = square(picture, view, event);
    const who = over() ? null : creatureAt(x, y);
    state.drag = who ? { name: who.name, from: [x, y] } : null;
  });
  picture.addEventListener("pointerup", (event) => {
    const [x, y] = square(picture, view, event);
    const drag = state.drag;
    state.drag = null;
    if (moved()) return;
    state.cursor = [x, y];
    if (drag && (drag.from[0] !== x || drag.from[1] !== y)) move(drag.name, x, y, drag.from);
    else pick(x, y);
  });
  picture.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (zoomKey(event, CELL)) return;
    if (moves[event.key]) {
      const [dx, dy] = moves[event.key];
      state.cursor = [Math.max(0, Math.min(view.width - 1, cx + dx)), Math.max(0, Math.min(view.height - 1, cy + dy))];
      event.preventDefault();
      draw();
      show((state.cursor[0] + 0.5) * CELL, (state.cursor[1] + 0.5) * CELL, CELL);
      q("#map-svg svg").focus();
    } else if ((event.key === "m" || event.key === "M") && !state.moving && !over()) {
      const who = creatureAt(cx, cy);
      if (who) {
        state.moving = { name: who.name, from: [cx, cy] };
        q("#map-help").textContent = `Moving ${who.name}: arrow keys to its new square, Enter to put it there, Escape to stop.`;
      }
    } else if (event.key === "Escape" && state.moving) {
      state.moving = null;
      q("#map-help").textContent = help(view.placement_fields);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (state.moving) {
        const moving = state.moving;
        state.moving = null;
        move(moving.name, cx, cy, moving.from);
      } else pick(...state.cursor);
    }
  });
}

/** A player's map on their character's turn: its token dragged, or a tap on a free square, moves it there. */
function listenPlayer(picture, view, moved) {
  const me = view.creatures.find((c) => c.name === state.ctx.page.player);
  picture.addEventListener("pointerdown", (event) => {
    const [x, y] = square(picture, view, event);
    state.drag = creatureAt(x, y) === me ? [x, y] : null;
  });
  picture.addEventListener("pointerup", (event) => {
    const [x, y] = square(picture, view, event);
    const from = state.drag || (me && me.squares[0]);
    state.drag = null;
    if (!moved() && me && !creatureAt(x, y)) move(me.name, x, y, from);
  });
}

/** A token's name fitted to its squares: on one line or two (split at a space), in the largest type from 12 down
 * to 7 units that fits (a glyph is about 0.6 of the type's size wide), drawn with a halo so it reads over the
 * token's border; cut with "…" only when even 7 does not fit. */
function label(name, x, y, room) {
  const fits = (lines, size) => Math.max(...lines.map((l) => l.length)) * size * 0.6 <= room && lines.length * size * 1.1 <= room;
  const words = name.split(" ");
  const cut = Math.ceil(words.length / 2);
  const layouts = [[name], words.length > 1 ? [words.slice(0, cut).join(" "), words.slice(cut).join(" ")] : null].filter(Boolean);
  for (let size = 12; size >= 7; size--) {
    const lines = layouts.find((l) => fits(l, size));
    if (lines) return lines.length === 1 ? text1(lines[0], x, y, size, name) : text2(lines, x, y, size, name);
  }
  const keep = Math.max(1, Math.floor(room / (7 * 0.6)) - 1);
  return text1(`${name.slice(0, keep)}…`, x, y, 7, name);
}

function text1(line, x, y, size, name) {
  return svg("text", { x, y: y + size * 0.35, "text-anchor": "middle", "font-size": size, "data-name": name }, line);
}

function text2(lines, x, y, size, name) {
  return svg(
    "text",
    { x, y: y - size * 0.2, "text-anchor": "middle", "font-size": size, "data-name": name },
    svg("tspan", { x, dy: 0 }, lines[0]),
    svg("tspan", { x, dy: size * 1.1 }, lines[1]),
  );
}

/** The move the game makes before the attack (the preview's `moves_to` and `move`), shown above the odds: the
 * odds are those from where it ends. Hidden when the attacker attacks from where it stands. */
export function showMove(line, targets) {
  const moved = targets.find((t) => t.moves_to);
  line.hidden = !moved;
  line.textContent = moved ? `Moves first to (${moved.moves_to.join(", ")}): ${moved.move ?? ""}` : "";
}

async function odds() {
  const { id, token } = state.ctx;
  const targets = state.view.reached.filter((n) => n !== state.view.attacker);
  const table = q("#map-odds");
  if (!targets.length) {
    showMove(q("#map-move"), []);
    table.tHead.replaceChildren();
    table.tBodies[0].replaceChildren();
    return;
  }
  const answer = await api("POST", `/v1/encounters/${id}/preview`, body({ targets }), token);
  if (!answer.ok) {
    q("#map-error").textContent = errorLine(answer.data);
    return;
  }
  showMove(q("#map-move"), answer.data.targets);
  const labels = [...new Set(answer.data.targets.flatMap((t) => Object.keys(t.result ?? {})))];
  table.tHead.replaceChildren(
    el("tr", {}, el("th", { scope: "col" }, "Creature"), labels.map((l) => el("th", { scope: "col" }, l)), el("th", { scope: "col" }, "Expected damage")),
  );
  table.tBodies[0].replaceChildren(
    ...answer.data.targets.map((t) =>
      el(
        "tr",
        { dataset: { target: t.name } },
        el("th", { scope: "row" }, t.name, state.view.cover[t.name] ? " (cover)" : ""),
        t.result
          ? [...labels.map((l) => el("td", {}, t.result[l] ? percent(t.result[l]) : "0.0%")), el("td", {}, t.mean_damage.float.toFixed(2))]
          : el("td", { class: "reach", colSpan: labels.length + 1 }, t.reach ?? "hidden"),
      ),
    ),
  );
}

/** The GM rolls the attack as placed: the server plays it as the fight would, on the creatures it catches. */
async function rollPlaced() {
  const view = state.view;
  const targets = view.reached.filter((n) => n !== view.attacker);
  if (!view.squares.length || !targets.length) {
    q("#map-error").textContent = "error: placement: place the attack where it reaches a creature first";
    return;
  }
  // One target named: whom else the placed attack catches, the game's rules decide (as the map shows them).
  await state.ctx.act({ kind: "attack", ...body({ targets: targets.slice(0, 1) }), placement: view.range }, null, q("#map-error")); // an error shown once, here
}

async function bestAim() {
  const { id, token } = state.ctx;
  q("#best-list").replaceChildren(el("li", {}, "ranking every placement…"));
  const answer = await api("POST", `/v1/encounters/${id}/aim`, body({ n: 5 }), token);
  if (!answer.ok) {
    q("#best-list").replaceChildren();
    q("#map-error").textContent = errorLine(answer.data);
    return;
  }
  const best = answer.data.best;
  q("#map-error").textContent = "";
  const number = (p) => p.float.toFixed(2);
  q("#best-list").replaceChildren(
    ...best.map((a, i) =>
      el(
        "li",
        { dataset: { aim: i, score: a.score.float } },
        el(
          "button",
          { type: "button", class: "link", onclick: () => placeAim(a) },
          `${a.range}: ${number(a.score)} = ${number(a.expected_to_foes)} to foes (${a.foes.join(", ") || "none"})` +
            ` − ${number(a.expected_to_allies)} to allies (${a.allies.join(", ") || "none"})`,
        ),
      ),
    ),
    // replaceChildren writes a null as the text "null": the note is spread in only when nothing is ranked
    ...(best.length ? [] : [el("li", { class: "note", dataset: { aim: "none" } }, answer.data.note || "no placement reaches anyone")]),
  );
  if (best.length) placeAim(best[0]);
  else draw();
}

/** A ranked placement, placed: the range, its squares, the creatures it reaches and their odds become the map's
 * own (as a click would place it), so "Roll this placement" rolls it. */
function placeAim(aim) {
  state.best = aim.squares;
  state.placement = aim.placement;
  load();
}
