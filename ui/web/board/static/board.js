// The club's wall, drawn from each whole snapshot the server pushes (Server-Sent Events; the
// browser reconnects by itself). The page keeps nothing but the newest snapshot; a minute
// tick rewrites only the "since" words from it.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let board = null;

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
    const st = t.status || {}, item = el("li", null, t.online ? "" : "offline");
    const head = el("div", null, "head");
    let state;
    if (!t.online) state = t.device ? "offline" : "not joined";
    else if (st.state === "playing") state = `playing · ${ago(st.since)}`;
    else if (st.state === "over") state = "game over";
    else state = "free";
    head.append(el("span", t.name), el("span", state, "state"));
    item.append(head);
    if (t.online && st.title) {
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
    for (const h of ["", "Player", s.team ? "Won" : "Rating", "Games", "Wins"]) {
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
        el("td", figure, "rating"), el("td", p.games), el("td", p.wins));
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

  function draw() {
    const b = board, away = "Waiting for the club's server";
    document.body.dataset.n = b.n;
    $("club").textContent = b.club ? `Club ${b.club}` : "The club";
    $("season").textContent = b.season ?
      `${b.season.name} · ${b.season.starts} to ${b.season.ends}` :
      b.unreachable ? "" : "No season yet";
    $("link").textContent = b.unreachable ? "The club's server cannot be reached" : "Live";
    $("link").className = "link" + (b.unreachable ? " away" : "");
    $("tables").replaceChildren(...(b.tables.length ? b.tables.map(drawTable) :
      [el("li", b.unreachable ? away : "No tables yet", "none")]));
    $("standings-title").textContent = b.season ? `Standings · ${b.season.name}` : "Standings";
    $("standings").replaceChildren(...(b.standings.length ?
      b.standings.map((s) => drawTitle(s, b.min_games)) :
      [el("p", b.unreachable ? away : "No games this season yet", "none")]));
    $("recent").replaceChildren(...(b.recent.length ? b.recent.map(drawGame) :
      [el("li", b.unreachable ? away : "No games yet", "none")]));
  }

  const events = new EventSource("/events");
  events.onmessage = (message) => { board = JSON.parse(message.data); draw(); };
  events.onerror = () => {
    $("link").textContent = "Reconnecting…";
    $("link").className = "link away";
  };
  setInterval(() => { if (board) draw(); }, 60000);
}());
