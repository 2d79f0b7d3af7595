// The one way the pages talk to `tohit serve`: JSON over the /v1 routes, with the page's token.
// The pages hold no rules; everything they show comes from these answers.

/** The token of this page (from ?token=...), or null. */
export function pageToken() {
  return new URLSearchParams(location.search).get("token");
}

/** An error body as the CLI prints it: `error: <source>: <field>: <message>`. */
export function errorLine(body) {
  const e = (body && body.error) || { message: String(body) };
  return "error: " + [e.source, e.field, e.message].filter(Boolean).join(": ");
}

/** Call a /v1 route; answers {ok, status, data}. A network failure is an error body too. */
export async function api(method, path, body, token) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    return { ok: false, status: 0, data: { error: { message: `the server cannot be reached (${err})` } } };
  }
  const type = response.headers.get("content-type") || "";
  const data = response.status === 204 ? null : type.includes("json") ? await response.json() : await response.text();
  return { ok: response.ok, status: response.status, data };
}

/** Build an element: el("p", {class: "x", onclick: f}, "text", child...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Encounters this browser started: id -> {name, gm, view} (tokens are shown once by the server). */
export const known = {
  all() {
    try {
      return JSON.parse(localStorage.getItem("tohit-encounters") || "{}");
    } catch {
      return {};
    }
  },
  get(id) {
    return this.all()[id] || null;
  },
  put(id, entry) {
    const all = this.all();
    all[id] = { ...(all[id] || {}), ...entry };
    localStorage.setItem("tohit-encounters", JSON.stringify(all));
  },
};

/** A probability as the CLI shows it: {fraction, float} -> "62.5%" (exact fraction in the title). */
export function percent(p) {
  const value = typeof p === "object" && p !== null ? p.float : Number(p);
  return `${(100 * value).toFixed(1)}%`;
}

/** Follow an encounter's event stream (Server-Sent Events read through fetch, so the token goes in a header).
 *  Calls onEvent(event) for each; reconnects after a drop, or the stream's end (its lifetime is bounded), from
 *  the last seq seen. Returns a stop function. */
export function follow(id, token, after, onEvent) {
  let stopped = false;
  let seen = after;
  let controller = null;
  async function run() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const response = await fetch(`/v1/encounters/${id}/stream?after=${seen}`, {
          headers: { Authorization: `Bearer ${token}` },
          signal: controller.signal,
        });
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const data = block
              .split("\n")
              .filter((line) => line.startsWith("data: "))
              .map((line) => line.slice(6))
              .join("\n");
            if (!data) continue;
            const event = JSON.parse(data);
            // The stream's own end (its lifetime over, a token replaced) is no event of the fight: the loop
            // reconnects from the last event seen.
            if (typeof event.n !== "number") continue;
            seen = Math.max(seen, event.n);
            onEvent(event);
          }
        }
      } catch (err) {
        if (stopped) return;
      }
      if (!stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  }
  run();
  return () => {
    stopped = true;
    if (controller) controller.abort();
  };
}
