// Home: the encounters (system, round, who is standing) and a new encounter from an example or a file.
import { api, el, errorLine, known, pageToken } from "./api.js";

const given = pageToken();
if (given) sessionStorage.setItem("tohit-admin", given);
const admin = given || sessionStorage.getItem("tohit-admin");

function link(id, token) {
  return `/encounters/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`;
}

function row(entry, token) {
  const standing = entry.standing && entry.standing.length ? entry.standing.join(", ") : "nobody";
  return el(
    "tr",
    { dataset: { encounter: entry.id } },
    el("td", {}, el("a", { href: link(entry.id, token) }, entry.name || entry.id)),
    el("td", {}, entry.system),
    el("td", {}, entry.round ?? "—"),
    el("td", {}, entry.over ? `over: ${standing}` : standing),
    el("td", {}, entry.seq),
  );
}

async function showList() {
  const body = document.querySelector("#encounters tbody");
  const note = document.getElementById("list-note");
  const rows = [];
  const mine = known.all();
  if (admin) {
    const answer = await api("GET", "/v1/encounters", undefined, admin);
    if (answer.ok) {
      for (const entry of answer.data) rows.push(row(entry, (mine[entry.id] || {}).gm || admin));
    } else {
      note.textContent = `${errorLine(answer.data)} (open the URL tohit serve printed to see every encounter)`;
    }
  }
  if (!rows.length) {
    for (const [id, entry] of Object.entries(mine)) {
      if (!entry.gm) continue;
      const answer = await api("GET", `/v1/encounters/${id}`, undefined, entry.gm);
      if (!answer.ok) continue;
      const s = answer.data;
      rows.push(row({ ...s, round: s.state.fight.round }, entry.gm));
    }
  }
  body.replaceChildren(...rows);
  if (!rows.length && !note.textContent) note.textContent = "No encounter yet: start one below.";
}

async function start(body, errorBox) {
  errorBox.textContent = "";
  const answer = await api("POST", "/v1/encounters", body);
  if (!answer.ok) {
    errorBox.textContent = errorLine(answer.data);
    return;
  }
  const made = answer.data;
  known.put(made.id, { name: body.name || body.example, gm: made.gm_token, view: made.view_token });
  location.href = link(made.id, made.gm_token);
}

async function showExamples() {
  const select = document.getElementById("example");
  const answer = await api("GET", "/v1/examples");
  if (!answer.ok) return;
  select.replaceChildren(
    ...answer.data.map((x) => el("option", { value: x.id }, `${x.system}: ${x.title} (${x.name})`)),
  );
}

document.getElementById("from-example").addEventListener("submit", (event) => {
  event.preventDefault();
  start({ example: document.getElementById("example").value }, document.getElementById("example-error"));
});

document.getElementById("from-file").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = document.getElementById("fight-file").files[0];
  const box = document.getElementById("upload-error");
  if (!file) {
    box.textContent = "error: choose a fight file first";
    return;
  }
  const body = { name: file.name, text: await file.text() };
  const map = document.getElementById("uvtt-file").files[0];
  if (map) {
    try {
      body.uvtt = JSON.parse(await map.text());
    } catch {
      box.textContent = `error: ${map.name}: uvtt: is not a Universal VTT map (not JSON)`;
      return;
    }
  }
  start(body, box);
});

showExamples();
showList();
