// The GM's players' links, under Share: one link per combatant of the players' side (the fight's first side),
// made, shown again and revoked here (POST …/player_token, GET …/player_tokens, DELETE …/player_tokens/{name}).
// A player's link opens that player's page (player.js); making it again replaces it.
import { api, el, errorLine } from "./api.js";

const ctx = { id: null, token: null, page: null };

function q(selector) {
  return document.querySelector(selector);
}

function linkOf(token) {
  return `${location.origin}/encounters/${encodeURIComponent(ctx.id)}?token=${encodeURIComponent(token)}`;
}

/** The section under Share, and its links as they are now. */
export async function buildPlayerLinks(tracker) {
  Object.assign(ctx, tracker);
  q("#share").append(
    el(
      "div",
      { id: "player-links-box" },
      el("h3", {}, "Players' links"),
      el("ul", { id: "player-links", class: "player-links" }),
      el("label", { for: "player-link-who" }, "Player of "),
      el("select", { id: "player-link-who" }),
      el("button", { id: "make-player-link", type: "button", onclick: make }, "Make a player's link"),
      el("p", { id: "player-link-error", class: "error", role: "alert" }),
    ),
  );
  await show();
}

async function show() {
  const answer = await api("GET", `/v1/encounters/${ctx.id}/player_tokens`, undefined, ctx.token);
  if (!answer.ok) return failed(answer);
  const links = answer.data.player_tokens;
  q("#player-links").replaceChildren(
    ...links.map(({ combatant, player_token }) =>
      el(
        "li",
        { dataset: { combatant } },
        `${combatant}: `,
        el("a", { href: linkOf(player_token), target: "_blank", rel: "noopener" }, "their page"),
        " ",
        el("button", { type: "button", class: "link", onclick: () => revoke(combatant) }, "Revoke"),
      ),
    ),
  );
  const { sheet } = ctx.page;
  const players = sheet.combatants.filter((c) => c.side === sheet.sides[0]).map((c) => c.name);
  q("#player-link-who").replaceChildren(...players.map((name) => el("option", { value: name }, name)));
  return null;
}

function failed(answer) {
  q("#player-link-error").textContent = errorLine(answer.data);
}

async function make() {
  const combatant = q("#player-link-who").value;
  const answer = await api("POST", `/v1/encounters/${ctx.id}/player_token`, { combatant }, ctx.token);
  if (!answer.ok) return failed(answer);
  q("#player-link-error").textContent = "";
  return show();
}

async function revoke(combatant) {
  const answer = await api("DELETE", `/v1/encounters/${ctx.id}/player_tokens/${encodeURIComponent(combatant)}`, undefined, ctx.token);
  if (!answer.ok) return failed(answer);
  return show();
}
