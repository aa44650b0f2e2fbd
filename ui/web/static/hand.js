// The seat's own hand, drawn from the seat's part of each snapshot (t.you.hand, which
// the server gives this seat alone): Witch's Brew's 5 role cards, chosen here at the start of a
// set and shown all set long with what is left; Cauldron's potion cards in hand, each with
// whether the pool can brew it now and what is missing, and the entry of a card. table.js
// tells this module of every drawing ("table:mine") and lends it its press(), so a hand is
// sent, answered and refused like any press. Nothing here is kept but the cards being picked.
"use strict";
(function () {
  const FULL = 5;
  let picked = new Set(), pickedFor = null;   // the roles being picked, and for which set
  let draft = null;                           // Cauldron: the new card being entered

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function box() {
    let section = document.getElementById("hand");
    if (!section) {
      section = el("section", null, "hand");
      section.id = "hand";
      const mine = document.getElementById("mine");
      mine.parentNode.insertBefore(section, mine.nextSibling);
    }
    return section;
  }

  // -- Witch's Brew -------------------------------------------------------------------------
  function roleCard(card, tag) {
    const item = el(tag, null, "role");
    item.append(el("strong", `The ${card.title}`), el("span", `Full action: ${card.full}`, "full"),
                el("span", `Favor: ${card.favor}`, "favor"));
    return item;
  }
  function drawBrew(section, hand, t, press) {
    if (pickedFor !== hand.set) { picked = new Set(); pickedFor = hand.set; }
    if (!hand.chosen && hand.may_choose) {
      section.append(el("h2", `Set ${hand.set}: choose your ${hand.count} role cards`));
      const count = el("p", `${picked.size} of ${hand.count} chosen`, "count");
      const send = el("button", `Choose these ${hand.count}`, "send");
      send.type = "button";
      send.disabled = picked.size !== hand.count;
      const list = el("div", null, "roles");
      for (const card of hand.cards) {
        const b = roleCard(card, "button");
        b.type = "button";
        b.dataset.role = card.role;
        b.setAttribute("aria-pressed", picked.has(card.role) ? "true" : "false");
        if (card.excluded) {
          b.disabled = true;
          b.append(el("small", "Face up in the middle this set: nobody may choose it"));
        }
        b.addEventListener("click", () => {
          if (picked.has(card.role)) picked.delete(card.role);
          else if (picked.size < hand.count) picked.add(card.role);
          b.setAttribute("aria-pressed", picked.has(card.role) ? "true" : "false");
          count.textContent = `${picked.size} of ${hand.count} chosen`;
          send.disabled = picked.size !== hand.count;
        });
        list.append(b);
      }
      send.addEventListener("click", () => {
        const roles = hand.cards.map((c) => c.role).filter((r) => picked.has(r));
        press({ type: "choose", choice: "hand:" + roles.join(","), seen: t.n }, "your hand");
      });
      section.append(count, list, send);
      return;
    }
    if (!hand.chosen) {
      section.append(el("h2", "Your hand"), el("p", hand.why_not, "why"));
      return;
    }
    const left = new Set(hand.left);
    section.append(el("h2", `Your hand, set ${hand.set}: ${left.size} card${left.size === 1 ? "" : "s"} left`));
    if (hand.asked) {
      const title = (hand.cards.find((c) => c.role === hand.role) || {}).title;
      section.append(el("p", `You hold the ${title}: claim it or say "So be it!"`, "asked"));
    }
    const list = el("ul", null, "roles");
    for (const card of hand.cards.filter((c) => c.chosen)) {
      const item = roleCard(card, "li");
      if (!left.has(card.role)) { item.classList.add("played"); item.append(el("small", "played")); }
      if (hand.asked && card.role === hand.role) item.classList.add("now");
      list.append(item);
    }
    section.append(list);
  }

  // -- Cauldron -----------------------------------------------------------------------------
  function label(key) { return key.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase()); }
  function missingWords(card) {
    const parts = Object.entries(card.missing).map(([k, n]) => `${n} ${k === "any" ? "of any kind" : label(k)}`);
    let text = parts.length ? `Missing: ${parts.join(", ")}` : card.why_not;
    if (card.after_cellar) text += " (in your Cellar: move it to the pool first)";
    return text;
  }
  function cardMessage(card) {
    return "card:" + JSON.stringify({ name: card.name, kind: card.kind, yield: card.yield,
      ingredients: card.ingredients, quick: !!card.quick, spell: !!card.spell });
  }
  function drawCauldron(section, hand, t, press) {
    section.append(el("h2", `Your potion cards: ${hand.count}`));
    const list = el("ul", null, "potions");
    for (const card of hand.cards) {
      const li = el("li", null, card.can_brew ? "ready" : "short");
      li.append(el("strong", `${card.name} (+${card.yield} Magik)`), el("span", card.recipe, "recipe"),
                el("span", card.can_brew ? "Can brew now" : missingWords(card), "state"));
      list.append(li);
    }
    section.append(list);
    if (hand.owed.length) section.append(el("p", `To enter: ${hand.owed.join(", ")} (dealt or bought)`, "owed"));
    const seen = (hand.catalogue || []).filter((c) => !hand.cards.some((h) => h.name === c.name));
    if (seen.length) {
      section.append(el("h2", "Enter a card seen before"));
      const picks = el("div", null, "seen");
      for (const card of seen) {
        const b = el("button", `${card.name} (+${card.yield})`);
        b.type = "button";
        b.addEventListener("click", () => press({ type: "choose", choice: cardMessage(card), seen: t.n }, card.name));
        picks.append(b);
      }
      section.append(picks);
    }
    section.append(newCard(t, press));
  }
  function newCard(t, press) {
    const form = el("form", null, "new-card");
    draft = draft || { name: "", kind: "basic", yield: 4, ingredients: "", quick: false, spell: false };
    const field = (text, input) => { const l = el("label", text); l.append(input); return l; };
    const name = el("input"); name.value = draft.name; name.maxLength = 80;
    const kind = el("select");
    for (const k of ["easy", "basic", "advanced"]) { const o = el("option", label(k)); o.value = k; kind.append(o); }
    kind.value = draft.kind;
    const gain = el("input"); gain.type = "number"; gain.min = 0; gain.max = 35; gain.value = draft.yield;
    const parts = el("input"); parts.value = draft.ingredients;
    parts.placeholder = "frog_legs, spider_web, any";
    form.append(el("h2", "A new card"), field("Name ", name), field("Kind ", kind),
                field("Magik ", gain), field("Ingredients ", parts));
    const send = el("button", "Enter this card");
    send.type = "submit";
    form.append(send);
    form.addEventListener("input", () => {
      Object.assign(draft, { name: name.value, kind: kind.value, yield: gain.value, ingredients: parts.value });
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const card = { name: name.value.trim(), kind: kind.value, yield: Number(gain.value),
        ingredients: parts.value.split(",").map((s) => s.trim().toLowerCase().replace(/ /g, "_")).filter(Boolean) };
      press({ type: "choose", choice: cardMessage(card), seen: t.n }, card.name || "the card");
    });
    return form;
  }

  document.addEventListener("table:mine", (event) => {
    const { table: t, press } = event.detail;
    const hand = t && !t.over && t.you ? t.you.hand : null;
    const section = box();
    section.replaceChildren();
    section.hidden = !hand;
    if (!hand) return;
    section.dataset.game = hand.game;
    if (hand.game === "witchs_brew") drawBrew(section, hand, t, press);
    else if (hand.game === "cauldron") drawCauldron(section, hand, t, press);
  });
})();
