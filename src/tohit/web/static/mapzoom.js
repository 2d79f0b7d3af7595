// Pan and zoom of the battle map, as a GM expects of a map: the wheel (or a trackpad's pinch) zooms at the pointer,
// two fingers pinch, a drag on the board pans it, the keys + and - zoom, 0 fits the whole map, Shift and the arrows
// pan; buttons do the same. The view is the SVG's viewBox, kept within the board, so every square of the map (a big
// imported one too) can be brought into view; the map is drawn anew on every answer and keeps the view it had.
// On a narrow screen (a phone) the map opens zoomed in, its squares large enough to read the tokens' names.

/** The smallest a square is drawn on screen (CSS pixels) when the map opens on a narrow screen. */
const PHONE_SQUARE = 64;
const MAX_ZOOM = 8;

/** The view: the zoom (1: the whole map fits), the centre in the SVG's units, the whole map's box [x, y, w, h]. */
const view = { z: 1, cx: 0, cy: 0, full: null, opened: false };

/** The viewBox for the map of box `full` ([x, y, w, h] in the SVG's units): the current view, clamped. */
export function viewBox(full) {
  const first = !view.full;
  view.full = full;
  if (first) Object.assign(view, { cx: full[0] + full[2] / 2, cy: full[1] + full[3] / 2 });
  clamp();
  return box().join(" ");
}

/** The zoom now (1: the whole map), as the SVG's `data-zoom` carries it. */
export function zoomed() {
  return view.z.toFixed(3);
}

/** The map's room on the page: its width, and the most height it takes (70% of the window's). */
function room() {
  const holder = document.getElementById("map-svg");
  return [Math.max(1, holder ? holder.clientWidth : 1), Math.max(120, window.innerHeight * 0.7)];
}

/** Pixels a unit of the SVG: at zoom 1 the whole map fits the room; zoom z is z times that. */
function scale() {
  const [w, h] = room();
  return Math.min(w / view.full[2], h / view.full[3]) * view.z;
}

/** The part shown [x, y, w, h]: the room's width at this scale, and as tall as the map there (at most the room). */
function box() {
  const [w, h] = room();
  const k = scale();
  const [bw, bh] = [w / k, Math.min(h, view.full[3] * k) / k];
  return [view.cx - bw / 2, view.cy - bh / 2, bw, bh];
}

/** Keep the zoom within 1 to MAX_ZOOM and the view within the map (no pan past its edges; a map narrower than
 * the part shown stays centred). */
function clamp() {
  const [x, y, w, h] = view.full;
  view.z = Math.min(MAX_ZOOM, Math.max(1, view.z));
  const [, , bw, bh] = box();
  view.cx = bw >= w ? x + w / 2 : Math.min(x + w - bw / 2, Math.max(x + bw / 2, view.cx));
  view.cy = bh >= h ? y + h / 2 : Math.min(y + h - bh / 2, Math.max(y + bh / 2, view.cy));
}

/** The shown part on the map's SVG: its viewBox, and its height on the page (the part's height at this scale). */
export function apply() {
  const node = document.querySelector("#map-svg svg");
  if (!node || !view.full) return;
  clamp();
  const shown = box();
  node.setAttribute("viewBox", shown.join(" "));
  node.style.height = `${shown[3] * scale()}px`;
  node.dataset.zoom = zoomed();
}

/** The whole map in view. */
export function fit() {
  const [x, y, w, h] = view.full;
  Object.assign(view, { z: 1, cx: x + w / 2, cy: y + h / 2 });
  apply();
}

/** Zoom by `factor`, keeping the SVG point `at` ([x, y]; the centre when not given) where it is on screen. */
export function zoomBy(factor, at = null) {
  const [px, py] = at || [view.cx, view.cy];
  const z = Math.min(MAX_ZOOM, Math.max(1, view.z * factor));
  const kept = view.z / z; // the point under the pointer stays under it
  Object.assign(view, { cx: px + (view.cx - px) * kept, cy: py + (view.cy - py) * kept, z });
  apply();
}

/** Pan by [dx, dy] in the SVG's units. */
export function panBy(dx, dy) {
  view.cx += dx;
  view.cy += dy;
  apply();
}

/** Bring the SVG point [x, y] into view (the cursor moved by keys off the shown part). */
export function show(x, y, margin) {
  const [bx, by, bw, bh] = box();
  if (x - margin < bx) view.cx -= bx - (x - margin);
  if (x + margin > bx + bw) view.cx += x + margin - (bx + bw);
  if (y - margin < by) view.cy -= by - (y - margin);
  if (y + margin > by + bh) view.cy += y + margin - (by + bh);
  apply();
}

/** The SVG point under a pointer event. */
export function point(node, event) {
  const p = node.createSVGPoint();
  p.x = event.clientX;
  p.y = event.clientY;
  const found = p.matrixTransform(node.getScreenCTM().inverse());
  return [found.x, found.y];
}

/** On a narrow screen, once, when the map is first drawn: zoomed so a square of `cell` units is PHONE_SQUARE
 * pixels, centred on [x, y] (the creature whose turn it is). */
export function openOn(cell, x, y) {
  if (view.opened) return;
  view.opened = true;
  const square = (scale() / view.z) * cell; // pixels a square at zoom 1
  if (square < PHONE_SQUARE) Object.assign(view, { z: PHONE_SQUARE / square, cx: x, cy: y });
  apply();
}

/** The keys of the map: + and - zoom, 0 fits, Shift and an arrow pans by `step` units. True when taken. */
export function zoomKey(event, step) {
  const pans = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (event.key === "+" || event.key === "=") zoomBy(1.25);
  else if (event.key === "-" || event.key === "_") zoomBy(0.8);
  else if (event.key === "0") fit();
  else if (event.shiftKey && pans[event.key]) panBy(pans[event.key][0] * step, pans[event.key][1] * step);
  else return false;
  event.preventDefault();
  return true;
}

/** The wheel and the pointers on the map's SVG `node`: the wheel zooms at the pointer; two pointers pinch; one
 * pointer dragged further than a few pixels pans, unless `grabs(event)` says it takes the drag (a token). Returns
 * `moved()`: whether the last press panned or pinched (then its release places nothing). */
export function attachZoom(node, grabs = () => false) {
  const down = new Map();
  let moved = false;
  let start = null;
  node.addEventListener(
    "wheel",
    (event) => {
      event.preventDefault();
      zoomBy(event.deltaY < 0 ? 1.15 : 1 / 1.15, point(node, event));
    },
    { passive: false },
  );
  node.addEventListener("pointerdown", (event) => {
    down.set(event.pointerId, [event.clientX, event.clientY]);
    if (down.size === 1) {
      moved = false;
      start = grabs(event) ? null : [event.clientX, event.clientY];
    }
  });
  node.addEventListener("pointermove", (event) => {
    if (!down.has(event.pointerId)) return;
    const before = down.get(event.pointerId);
    const [bw] = [box()[2]];
    const scale = bw / node.getBoundingClientRect().width; // units a pixel
    if (down.size === 2) {
      const other = [...down.entries()].find(([id]) => id !== event.pointerId)[1];
      const gap = (a) => Math.hypot(a[0] - other[0], a[1] - other[1]);
      const mid = point(node, { clientX: (event.clientX + other[0]) / 2, clientY: (event.clientY + other[1]) / 2 });
      if (gap(before) > 0) zoomBy(gap([event.clientX, event.clientY]) / gap(before), mid);
      moved = true;
    } else if (start && (moved || Math.hypot(event.clientX - start[0], event.clientY - start[1]) > 8)) {
      if (!moved) node.setPointerCapture(event.pointerId);
      moved = true;
      panBy((before[0] - event.clientX) * scale, (before[1] - event.clientY) * scale);
    }
    down.set(event.pointerId, [event.clientX, event.clientY]);
  });
  const up = (event) => down.delete(event.pointerId);
  node.addEventListener("pointerup", up);
  node.addEventListener("pointercancel", up);
  return () => moved;
}

window.addEventListener("resize", apply); // the room changes: the same part, drawn to the new size
