// The club's wall, drawn from each whole snapshot the server pushes (Server-Sent Events; the
// browser reconnects by itself). The page keeps nothing but the newest snapshot; a minute
// tick rewrites only the "since" words from it. A list longer than its section is shown a
// page at a time, turning by itself every TURN_MS, with "page 1 of 3" on it: nothing is ever
// cut without a sign.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const TURN_MS = 8000;
  let board = null, turn = 0, away = false;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function ago(iso) {                       // "12 min", "2 h 5 min", from an ISO time
    if (!iso) return "";
    const m = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 60000));
    if (m < 60) return `${m} min`;
    if (m < 24 * 60) return `${Math.floor(m / 60)} h ${m % 60} min`;
    const d = Math.floor(m / 1440);
    return `${d} day${d === 1 ? "" : "s"}`;
  }
  function seatWords(seats) {
    const line = el("div", null, "seats");
    for (const s of seats || []) {
      const score = s.score === null || s.score === undefined ? "" : ` ${s.score}`;
      line.append(el("span", `${s.name}${score}`, s.winner ? "won" : ""));
    }
    return line;
  }

  function drawTable(t) {
    // the server away: what a table does now is not known (its last status shown, greyed)
    const st = t.status || {};
    const item = el("li", null, away ? "unknown" : t.online ? "" : "offline");
    const head = el("div", null, "head");
    let state;
    if (away) state = "not known";
    else if (!t.online) state = t.device ? "offline" : "not joined";
    else if (st.state === "playing") state = `playing · ${ago(st.since)}`;
    else if (st.state === "over") state = "game over";
    else state = "free";
    head.append(el("span", t.name), el("span", state, "state"));
    item.append(head);
    if (t.online && st.title && !away) {
      item.append(el("div", [st.title, ...(st.stands || [])].join(" · "), "what"));
      item.append(seatWords(st.seats));
    }
    return item;
  }

  function drawTitle(s, minGames) {
    const box = el("div");
    const title = el("div", null, "title");
    const players = s.players.length + s.more;
    title.append(el("span", s.title), el("span", `${players} player${players === 1 ? "" : "s"}`
      + ` · ${s.games} game${s.games === 1 ? "" : "s"}`, "count"));
    box.append(title);
    if (!s.players.length) { box.append(el("p", "No games yet", "none")); return box; }
    const table = el("table"), head = el("tr");
    for (const h of ["", "Player", "Games", "Wins", s.team ? "Won" : "Rating"]) {
      head.append(el("th", h));
    }
    table.append(head);
    let rank = 0;
    for (const p of s.players) {
      const row = el("tr", null, p.ranked || s.team ? "" : "unranked");
      rank += 1;
      const figure = s.team ? `${Math.round(p.win_rate * 100)}%` :
        p.ranked ? p.rating.toFixed(1) : p.games < minGames ? `${p.games}/${minGames}` : "…";
      row.append(el("td", p.ranked || s.team ? rank : ""), el("td", p.name),
        el("td", p.games), el("td", p.wins), el("td", figure, "rating"));
      table.append(row);
    }
    box.append(table);
    return box;
  }

  function drawGame(g) {
    const item = el("li");
    item.append(el("div", g.title, "head"),
      el("div", `${g.table ? g.table + " · " : ""}${ago(g.finished_at)} ago`, "when"),
      seatWords(g.seats));
    return item;
  }

  // Split a list's items into pages that fit its box (each page starts at a row of items);
  // show page ``turn`` of them, and say which page it is in ``sign``.
  function paged(list, sign, what) {
    const items = [...list.children];
    for (const item of items) item.hidden = false;
    const box = list.clientHeight, pages = [];
    let start = null;
    for (const item of items) {
      const top = item.offsetTop, bottom = top + item.offsetHeight;
      if (start === null || bottom - start > box + 1) { pages.push([]); start = top; }
      pages[pages.length - 1].push(item);
    }
    const shown = pages.length ? turn % pages.length : 0;
    pages.forEach((page, i) => page.forEach((item) => {
      item.hidden = i !== shown;
      item.dataset.page = i + 1;
    }));
    list.dataset.pages = pages.length;
    sign.textContent = pages.length > 1 ?
      `${what} · page ${shown + 1} of ${pages.length}` : "";
  }

  function draw() {
    const b = board, waiting = "Waiting for the club's server";
    away = Boolean(b.unreachable);
    document.body.dataset.n = b.n;
    const name = b.club || "The club";
    $("club").textContent = name;
    document.title = name;
    $("season").textContent = b.season ?
      `${b.season.name} · ${b.season.starts} to ${b.season.ends}` :
      away ? "" : "No season yet";
    $("link").textContent = away ? "The club's server cannot be reached" : "Live";
    $("link").className = "link" + (away ? " away" : "");
    // Table 2 before Table 10: the names in the order a person counts them
    const tables = [...(b.tables || [])].sort(
      (x, y) => x.name.localeCompare(y.name, undefined, {numeric: true}));
    document.body.classList.toggle("many", tables.length > 8);
    $("tables").replaceChildren(...(tables.length ? tables.map(drawTable) :
      [el("li", away ? waiting : "No tables yet", "none")]));
    const online = tables.filter((t) => t.online).length;
    $("tables-count").textContent = !tables.length ? "" : away ? `${tables.length} · not known` :
      `${online} of ${tables.length} on`;
    $("standings-title").textContent = b.season ? `Standings · ${b.season.name}` : "Standings";
    $("rule").textContent = `Rated by every place; ranked from ${b.min_games} games.`;
    $("standings").replaceChildren(...(b.standings.length ?
      b.standings.map((s) => drawTitle(s, b.min_games)) :
      [el("p", away ? waiting : "No games this season yet", "none")]));
    $("recent").replaceChildren(...(b.recent.length ? b.recent.map(drawGame) :
      [el("li", away ? waiting : "No games yet", "none")]));
    paged($("tables"), $("tables-page"), `${tables.length} tables`);
    paged($("standings"), $("standings-page"), "standings");
    paged($("recent"), $("recent-page"), "latest games");
  }

  const events = new EventSource("/events");
  events.onmessage = (message) => { board = JSON.parse(message.data); draw(); };
  events.onerror = () => {
    $("link").textContent = "Reconnecting…";
    $("link").className = "link away";
  };
  setInterval(() => { if (board) draw(); }, 60000);
  setInterval(() => { turn += 1; if (board) draw(); }, TURN_MS);
}());
