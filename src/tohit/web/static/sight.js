// The party's sight on the battle map (docs/maps.md, "Vision"): the map route's `sight` gives, per row, each
// square as "2" seen now, "1" seen before (explored), "0" never seen. The players' map covers what the party does
// not see: the squares never seen dark, those seen before dimmed (the server sends no creature there); the GM's
// map shows everything and outlines what the party sees now.

/** Runs of one mark along each row: [x, y, length] for every run of `mark` in `rows`. */
function runs(rows, mark) {
  const found = [];
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; ) {
      if (row[x] !== mark) { x++; continue; }
      const start = x;
      while (x < row.length && row[x] === mark) x++;
      found.push([start, y, x - start]);
    }
  });
  return found;
}

function count(rows, mark) {
  return rows.reduce((n, row) => n + row.split(mark).length - 1, 0);
}

/** The edges between a square seen now and one that is not (or the map's edge), as one SVG path. */
function outline(rows, cell) {
  const seen = (x, y) => y >= 0 && y < rows.length && x >= 0 && x < rows[y].length && rows[y][x] === "2";
  const parts = [];
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!seen(x, y)) continue;
      const [x0, y0, x1, y1] = [x * cell, y * cell, (x + 1) * cell, (y + 1) * cell];
      if (!seen(x, y - 1)) parts.push(`M${x0} ${y0}H${x1}`);
      if (!seen(x, y + 1)) parts.push(`M${x0} ${y1}H${x1}`);
      if (!seen(x - 1, y)) parts.push(`M${x0} ${y0}V${y1}`);
      if (!seen(x + 1, y)) parts.push(`M${x1} ${y0}V${y1}`);
    }
  });
  return parts.join("");
}

/** The sight layer: for the players, the dark and dimmed squares; for the GM, the outline of the party's sight. */
export function sightLayer(svg, view, cell, gm) {
  const sight = view.sight;
  if (!sight) return svg("g");
  const rows = sight.rows;
  const counts = { "data-seen": count(rows, "2"), "data-explored": count(rows, "1"), "data-dark": count(rows, "0") };
  const party = sight.party.join(", ") || "nobody";
  if (gm) {
    return svg(
      "g",
      { class: "sight gm", ...counts },
      svg("title", {}, `What the players' characters (${party}) see now`),
      svg("path", { class: "sight-outline", d: outline(rows, cell) }),
    );
  }
  const cover = (mark, kind) =>
    runs(rows, mark).map(([x, y, n]) => svg("rect", { class: `fog ${kind}`, x: x * cell, y: y * cell, width: n * cell, height: cell }));
  return svg("g", { class: "sight players", ...counts }, ...cover("0", "dark"), ...cover("1", "explored"));
}

/** Which squares the party has seen, now or before (what the players' picture shows), as one string. */
export function exploredKey(view) {
  return view.sight ? view.sight.rows.join("/").replace(/2/g, "1") : "";
}
