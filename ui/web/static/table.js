// The table as the Pi shows it, drawn from each full snapshot the server sends. The page keeps
// nothing of its own but the newest snapshot (its clocks tick from it) and reconnects by itself.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let socket = null, table = null, you = null, got = 0, waited = false;
  let backoff = 500, retryTimer = null;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function fill(parent, children) { parent.replaceChildren(...children); }
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

  function draw() {
    const t = table;
    document.body.dataset.n = t.n;         // the snapshot shown (what a press says it saw)
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
      return card;
    }));
    fill($("log"), t.log.slice().reverse().map((line) => {
      const li = el("li", line.text);
      if (line.source) li.append(" ", el("small", `(${line.source})`));
      return li;
    }));
    tick();
  }

  function drawMine(t) {
    const box = $("mine");
    if (you === null || !t.controls[you] || t.over) { box.hidden = true; return; }
    const mine = t.controls[you], seat = t.seats[you];
    box.hidden = false;
    seatStyle(box, seat);
    box.classList.toggle("waits", mine.waits);
    $("mine-title").textContent = mine.waits ? `${seat.name}: the table waits for you` : `${seat.name}'s buttons`;
    fill($("buttons"), mine.buttons.map((b) => {
      const button = el("button", b.label);
      button.type = "button";
      button.addEventListener("click", () => send({ type: "press", button: b.button, seen: t.n }));
      return button;
    }));
    fill($("dice"), mine.dice.map((d) => {
      const row = el("div", null, "die");
      row.append(el("span", `${d.label}: what it shows`));
      for (const face of d.faces) {
        const button = el("button", face);
        button.type = "button";
        button.addEventListener("click", () => send({ type: "die", die: d.die, value: face, seen: t.n }));
        row.append(button);
      }
      return row;
    }));
    if (!mine.buttons.length && !mine.dice.length) $("answer").textContent = "Nothing to press now";
    else if ($("answer").dataset.n !== String(t.n)) $("answer").textContent = "";
    if (mine.waits && !waited && navigator.vibrate) navigator.vibrate([200, 100, 200]);
    waited = mine.waits;
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

  function tick() {                        // the clocks, from the snapshot's times
    const c = table && table.clock;
    const turn = $("turn-clock");
    if (!c || table.over) { turn.textContent = ""; $("game-clock").textContent = ""; return; }
    const spent = c.paused ? 0 : Math.max(0, performance.now() / 1000 - got);
    const now = c.turn + spent;
    turn.className = "turn-clock";
    if (c.limit) {
      if (now >= c.limit) { turn.textContent = "+" + words(now - c.limit); turn.classList.add("red"); }
      else { turn.textContent = words(c.limit - now); if (now >= c.limit * 0.8) turn.classList.add("amber"); }
    } else turn.textContent = words(now);
    if (c.paused) turn.textContent += " (paused)";
    $("game-clock").textContent = "game " + words(c.game + spent);
    document.querySelectorAll(".seat .time").forEach((node, i) => {
      node.textContent = words(c.seats[i] + (c.running === i ? spent : 0));
    });
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    else showLink("Reconnecting…");
  }
  function showLink(text) { $("link").hidden = false; $("link-words").textContent = text; }

  function connect() {
    clearTimeout(retryTimer);
    if (socket) { socket.onclose = null; socket.close(); }
    const path = location.pathname.replace(/\/$/, "") + "/ws";
    socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + path);
    socket.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "hello") { you = message.seat; return; }
      if (message.type === "snapshot" && message.table && message.table.v === 1) {
        table = message.table;
        got = performance.now() / 1000 - (message.age || 0);
        backoff = 500;
        $("link").hidden = true;
        draw();
      } else if (message.type === "refused") {
        $("answer").textContent = message.why;
        $("answer").dataset.n = table ? String(table.n) : "";
      }
    };
    socket.onclose = (event) => {
      socket = null;
      if (event.code === 1001 && event.reason === "Sharing stopped") {
        showLink("The table stopped sharing: scan its new code");
        return;
      }
      showLink("Reconnecting…");
      retryTimer = setTimeout(connect, backoff + Math.random() * 300);
      backoff = Math.min(backoff * 2, 10000);
    };
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("retry").addEventListener("click", () => { backoff = 500; connect(); });
    connect();
    setInterval(tick, 1000);
  });
})();
