// The table as the Pi shows it, drawn from each full snapshot the server sends. The page keeps
// nothing of its own but the newest snapshot (its clocks tick from it) and reconnects by itself.
// It never shows a stale table as live: the server sends something at least every 5 s; after
// SILENT_S without a word the page says "Not connected", stops its clocks and disables its
// buttons. Every press is answered within ANSWER_S: received, then applied or refused with the
// table's words. A press not answered by then greys the page out at once (nothing on it is
// known to be current) and is asked after when the table is heard again: the page says what
// became of it (played, refused, never arrived) and offers to press again only when it is
// known not to have been played.
"use strict";
(function () {
  const SILENT_S = 20, ANSWER_S = 2, PLAYED_S = 10, SHOWN_S = 4, FULL_RETRY_MS = 60000;
  const STOPPED = "Sharing stopped: scan the table's new code";
  const $ = (id) => document.getElementById(id);
  let socket = null, table = null, you = null, got = 0, waited = false, heard = 0;
  let live = false, ended = null, backoff = 500, retryTimer = null, presses = 0;
  let wasEnded = null, saidAt = -Infinity;             // what Retry knew: kept unless the table says otherwise
  let boot = null, doubting = false;       // the server's run (its hello's); a press unanswered
  const pending = new Map();               // press id -> {label, timer, boot}
  const unsure = new Map();                // press id -> {label, boot}: unanswered, to be asked after
  const PAGE = Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(36)).join("");
  const UNSURE_KEPT = 16;
  const FOLD_OVER = 16, opened = new Set();  // the choices' questions folded, those opened

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function fill(parent, children) { parent.replaceChildren(...children); }
  function now() { return performance.now() / 1000; }
  function inkOn(hex) {                    // dark ink on a light seat colour, light on a dark one
    const n = parseInt(hex.slice(1), 16), c = [n >> 16, (n >> 8) & 255, n & 255].map((v) => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] > 0.18 ? "#111111" : "#ffffff";
  }
  function words(seconds) {                // 0:42, 12:03, 1:02:11
    const s = Math.max(0, Math.floor(seconds)), h = Math.floor(s / 3600);
    const m = Math.floor(s / 60) % 60, r = String(s % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${r}` : `${m}:${r}`;
  }
  function seatStyle(node, seat) {
    if (!seat) { node.style.removeProperty("--seat"); return; }
    node.style.setProperty("--seat", seat.colour);
    node.style.setProperty("--seat-ink", inkOn(seat.colour));
  }

  // -- drawing the table -------------------------------------------------------------------
  function draw() {
    const t = table;
    document.body.dataset.n = t ? t.n : "";
    $("home").hidden = !!t;
    for (const id of ["stands", "now", "seats", "log", "extra"]) $(id).hidden = !t;
    if (!t) {                              // Home on the Pi: no game, nothing to press
      document.title = "The table";
      $("title").textContent = "The table";
      $("mine").hidden = true; $("result").hidden = true;
      document.dispatchEvent(new CustomEvent("table:mine", { detail: { table: null, press, el } }));
      return;
    }
    document.title = `${t.title}: the table`;
    $("title").textContent = t.title;
    fill($("stands"), t.stands.map((s) => el("li", s)));
    const turnSeat = t.seat === null || t.seat === undefined ? null : t.seats[t.seat];
    seatStyle($("now"), turnSeat);
    $("now").hidden = t.over;
    $("turn").textContent = t.turn ? `${t.turn}'s turn` : "";
    $("asks").textContent = t.asks;
    fill($("notes"), t.notes.map((n) => el("li", n)));
    drawMine(t);
    drawResult(t);
    drawExtra(t);
    fill($("seats"), t.seats.map((s) => {
      const card = el("article", null, "seat" + (s.awaited ? " awaited" : ""));
      seatStyle(card, s);
      const who = el("div", null, "who");
      who.append(el("span", s.name, "name"), el("span", "", "time"));
      card.append(who, el("div", s.status, "status"), el("div", s.colour_name, "colour"));
      const list = el("dl");
      for (const [label, value] of s.figures) {
        if (typeof value === "number" || String(value).length <= 4) {
          list.append(el("dt", label), el("dd", value));
        } else {                           // words: the label, then a line of their own
          list.append(el("dt", label, "wide"), el("dd", value, "wide"));
        }
      }
      card.append(list);
      for (const line of s.lines || []) card.append(el("p", line, "line"));
      return card;
    }));
    fill($("log-lines"), t.log.slice().reverse().map((line) => {
      const li = el("li", line.text);
      if (line.source) li.append(" ", el("small", `(${line.source})`));
      return li;
    }));
    tick();
  }

  function drawMine(t) {
    const box = $("mine");
    const mine = t.you;
    if (!mine || t.over) {
      box.hidden = true;
      document.dispatchEvent(new CustomEvent("table:mine", { detail: { table: t, press, el } }));
      return;
    }
    const seat = t.seats[mine.seat];
    box.hidden = false;
    seatStyle(box, seat);
    box.classList.toggle("waits", mine.waits);
    $("mine-title").textContent = mine.waits ? `${seat.name}: the table waits for you` : `${seat.name}'s buttons`;
    fill($("buttons"), mine.buttons.map((b) => {
      const button = el("button", b.label);
      button.type = "button";
      if (b.hint) button.append(el("small", b.hint));
      button.addEventListener("click", () => press({ type: "press", button: b.button, seen: t.n }, b.label));
      return button;
    }));
    drawChoices(t, mine.choices || []);
    fill($("dice"), mine.dice.map((d) => {
      const row = el("div", null, "die");
      row.append(el("span", `${d.label}: what it shows`));
      for (const face of d.faces) {
        const button = el("button", face);
        button.type = "button";
        button.addEventListener("click", () => press({ type: "die", die: d.die, value: face, seen: t.n }, `${d.label} ${face}`));
        row.append(button);
      }
      return row;
    }));
    const idle = !mine.buttons.length && !mine.dice.length && !(mine.choices || []).length
      && !(mine.forms || []).length;
    if (now() - saidAt > SHOWN_S) {        // a press's answer first, then where the seat stands
      $("answer").textContent = idle ? (mine.waiting || "Nothing to press now") : "";
    }
    if (mine.waits && !waited && navigator.vibrate) navigator.vibrate([200, 100, 200]);
    waited = mine.waits;
    document.dispatchEvent(new CustomEvent("table:mine", { detail: { table: t, press, el } }));  // hand.js, forms.js
    enable();
  }

  // What the Pi's screen offers the seat, each question under its heading. Many questions of
  // many choices each (Omniscience: 6 bottles of 6 ingredients) fold up, one opened at a tap
  // and kept open across snapshots, so the seat's buttons stay in sight.
  function drawChoices(t, choices) {
    const runs = [];
    for (const c of choices) {
      const group = c.group || "";
      if (!runs.length || runs[runs.length - 1].group !== group) runs.push({ group, items: [] });
      runs[runs.length - 1].items.push(c);
    }
    const fold = choices.length > FOLD_OVER && runs.filter((r) => r.group).length > 1;
    fill($("choices"), runs.flatMap((run) => {
      const buttons = run.items.map((c) => {
        const button = el("button", c.label);
        button.type = "button";
        const said = c.group ? `${c.group}: ${c.label}` : c.label;
        button.addEventListener("click", () => press({ type: "choose", choice: c.choice, seen: t.n }, said));
        return button;
      });
      if (!run.group) return buttons;
      if (!fold) return [el("h3", run.group, "group"), ...buttons];
      const part = el("details", null, "group");
      part.open = opened.has(run.group);
      part.addEventListener("toggle", () => { if (part.open) opened.add(run.group); else opened.delete(run.group); });
      const inside = el("div", null, "folded");
      inside.append(...buttons);
      part.append(el("summary", `${run.group} (${run.items.length})`), inside);
      return [part];
    }));
  }

  function drawExtra(t) {                  // what the Pi shows beside the seats: a game's board
    const box = $("extra");
    const parts = t.board || [];
    box.hidden = !parts.length;
    fill(box, parts.map((part) => {
      const section = el("div", null, "part");
      section.append(el("h2", part.title));
      const list = el("ul");
      for (const item of part.items) {
        const li = el("li", item.text, item.done ? "done" : "");
        if (item.colour) seatStyle(li, { colour: item.colour });
        list.append(li);
      }
      section.append(list);
      return section;
    }));
  }

  function drawResult(t) {
    const box = $("result");
    box.hidden = !t.result;
    if (!t.result) return;
    $("result-text").textContent = t.result.text;
    $("result-seats").classList.toggle("team", t.cooperative);   // won or lost together: no places
    fill($("result-seats"), t.result.seats.map((s) => {
      const li = el("li", null, s.winner ? "winner" : "");
      li.append(s.score === null ? s.name : `${s.name}: ${s.score}`);
      const details = s.details.map(([k, v]) => `${k} ${v}`).join(" · ");
      if (details) li.append(el("small", details));
      return li;
    }));
    const link = $("bgstats");
    link.hidden = !t.bgstats;
    if (t.bgstats) link.href = t.bgstats;
  }

  function tick() {                        // the clocks, from the snapshot's times (live only)
    if ((live || doubting) && now() - heard > SILENT_S) lost();
    const c = table && table.clock;
    const turn = $("turn-clock");
    if (!c || table.over) { turn.textContent = ""; $("game-clock").textContent = ""; return; }
    if (!live) return;                     // stopped where they were: nothing here is current
    const spent = c.paused ? 0 : Math.max(0, now() - got);
    const at = c.turn + spent;
    turn.className = "turn-clock";
    if (c.limit) {
      if (at >= c.limit) { turn.textContent = "+" + words(at - c.limit); turn.classList.add("red"); }
      else { turn.textContent = words(c.limit - at); if (at >= c.limit * 0.8) turn.classList.add("amber"); }
    } else turn.textContent = words(at);
    if (c.paused) turn.textContent += " (paused)";
    $("game-clock").textContent = "game " + words(c.game + spent);
    document.querySelectorAll(".seat .time").forEach((node, i) => {
      node.textContent = words(c.seats[i] + (c.running === i ? spent : 0));
    });
  }

  // -- presses and their answers -----------------------------------------------------------
  function say(text) {                     // an answer stays SHOWN_S, past the table it changed
    saidAt = now();
    $("answer").textContent = text;
  }
  function enable() {
    document.querySelectorAll("#mine button").forEach((b) => { b.disabled = !live; });
  }
  function press(message, label) {
    if (!live || !socket || socket.readyState !== WebSocket.OPEN) {
      say(`Not received: ${label} was not sent (not connected). Press again once connected.`);
      return;
    }
    if (pending.size) {                    // one press in flight: a double tap sends one
      const [first] = pending.values();
      say(`Wait: ${first.label} is on its way to the table.`);
      return;
    }
    message.id = `${PAGE}.${++presses}`;   // this page's own name for it: asked after by it
    const timer = setTimeout(() => {
      remember(message.id, label);          // with the server run it was sent to
      pending.delete(message.id);
      say(`No answer yet for ${label}: the page asks the table what became of it when it hears it again.`);
      doubt();
    }, ANSWER_S * 1000);
    pending.set(message.id, { label, timer, boot });
    say(`Sent: ${label}…`);
    socket.send(JSON.stringify(message));
  }
  function remember(id, label) {           // unanswered: its fate is asked for when heard again
    const item = pending.get(id);
    unsure.set(id, { label, boot: item ? item.boot : boot });
    while (unsure.size > UNSURE_KEPT) unsure.delete(unsure.keys().next().value);
  }
  function askAfter() {                    // each press not answered: what became of it
    for (const [id, item] of unsure) {
      if (item.boot) socket.send(JSON.stringify({ type: "ask", id, boot: item.boot }));
    }
  }
  function doubt() {                       // no answer in time: nothing here is known current
    if (!live) return;
    live = false; doubting = true;
    document.body.classList.add("stale");
    enable();
    showLink("No answer from the table: checking the connection…", false);
  }
  function heardAgain() {                  // a word from the table after a doubt: live again
    doubting = false; live = true;
    document.body.classList.remove("stale");
    $("link").hidden = true;
    enable();
    askAfter();
  }
  function answered(message) {
    let item = message.id !== null ? pending.get(message.id) : null;
    if (!item && message.id !== null && unsure.has(message.id)) {
      item = unsure.get(message.id);
      unsure.delete(message.id);
    }
    const label = item ? item.label : "That press";
    if (message.received) {                // heard: now the table's own answer is awaited
      say(`Received: ${label}, the table plays it…`);
      if (item) {
        clearTimeout(item.timer);
        pending.set(message.id, item);
        item.timer = setTimeout(() => {
          pending.delete(message.id);
          say(`Received, but the table has not played ${label}: look at the table before pressing again.`);
        }, PLAYED_S * 1000);
      }
      return;
    }
    if (item) { clearTimeout(item.timer); pending.delete(message.id); }
    if (message.unknown) say(`${label}: ${message.why}.`);
    else if (message.lost) say(`Not received: ${label} ${message.why}. Press again.`);
    else say(message.applied ? `Done: ${label}` : `Refused: ${message.why}`);
  }

  // -- the connection ----------------------------------------------------------------------
  function showLink(text, retry) {
    $("link").hidden = false;
    $("link-words").textContent = text;
    $("retry").hidden = !retry;
  }
  function lost() {                        // heard nothing: nothing on the page is current now
    live = false; doubting = false;
    document.body.classList.add("stale");
    enable();
    for (const [id, item] of pending) { clearTimeout(item.timer); remember(id, item.label); }
    if (pending.size) say("No answer yet: the connection was lost; the page asks the table what became of your press when it is back.");
    pending.clear();
    if (!ended) showLink("Not connected: trying again…", true);
    if (socket) { const s = socket; socket = null; s.onclose = null; s.close(); }
    if (!ended) later();
  }
  function later(ms) {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, ms || backoff + Math.random() * 300);
    backoff = Math.min(backoff * 2, 10000);
  }
  function finish(text) {                  // the link itself ended: nothing to retry for
    ended = text;
    live = false;
    document.body.classList.add("stale");
    enable();
    clearTimeout(retryTimer);
    showLink(text, true);
  }
  async function check() {                 // the socket failed before a word: is the link alive?
    try {
      const answer = await fetch(location.pathname, { method: "HEAD", cache: "no-store" });
      if (answer.status === 404) { finish(STOPPED); return; }
    } catch (e) {                          // out of reach: no verdict, so what was known stands
      if (wasEnded) { finish(wasEnded); return; }
    }
    showLink("Not connected: trying again…", true);
    later();
  }

  function connect() {
    clearTimeout(retryTimer);
    if (socket) { socket.onclose = null; socket.close(); }
    const path = location.pathname.replace(/\/$/, "") + "/ws";
    const mine = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + path);
    let spoke = false;
    socket = mine;
    mine.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      spoke = true;
      heard = now();
      const doubted = doubting && !ended;  // any word: the table is there after all
      if (message.type === "hello") {
        you = message.seat; ended = null; wasEnded = null; backoff = 500; boot = message.boot;
        heardAgain();
      } else if (message.type === "snapshot" && (message.table === null || message.table.v === 1)) {
        table = message.table;
        got = now() - (message.age || 0);
        draw();
      } else if (message.type === "answer") {
        answered(message);
      } else if (message.type === "ended") {
        finish(message.why);
      } else if (message.type === "full") {
        showLink(message.why, true);
        later(FULL_RETRY_MS);
      }
      if (doubted && message.type !== "hello") heardAgain();   // after its own answer is said
    };
    mine.onclose = (event) => {
      if (socket !== mine) return;
      socket = null;
      if (ended) return;
      if (event.code === 1001 && event.reason === "Sharing stopped") { finish(STOPPED); return; }
      if (event.code === 4001) { finish("This seat's link was opened on another page"); return; }
      if (event.code === 1013) return;                 // full: it tries again later
      live = false;
      document.body.classList.add("stale");
      enable();
      if (!spoke) { check(); return; }
      showLink("Not connected: trying again…", true);
      later(event.code === 1012 ? 300 : undefined);    // a restart: back as soon as it is up
    };
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("retry").addEventListener("click", () => {       // tries for real and says what it found
      wasEnded = ended || wasEnded; ended = null; backoff = 500;
      showLink("Trying…", false);
      connect();
    });
    connect();
    setInterval(tick, 1000);
  });
})();
