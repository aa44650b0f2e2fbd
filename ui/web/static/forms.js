// Entries the seat fills in (companion/view/forms.py): Witch's Brew's brew (the potion card and
// the drops paid) and a card read aloud (what changed for each seat, a card won); Cauldron's
// purchase with a discount from a card (what is bought, the Magik off). Each form comes
// in the seat's part of the snapshot (t.you.forms) with its fields: a pick among options or a
// whole number within bounds. Picking a stack sets the least the card may be worth and the ravens
// it may show, as the rules say; a brew offers the cards of earlier games that fit, one tap each.
// table.js tells this module of every drawing ("table:mine") and lends it its press() and el():
// the entry is sent as a choice, answered and refused like any press. Nothing is kept but the
// values being entered, and only while the same form is open.
"use strict";
(function () {
  let draft = {}, draftFor = null;
  let el = null;                           // table.js's own, lent with each drawing

  function box() {
    let section = document.getElementById("forms");
    if (!section) {
      section = el("div", null, "forms");
      section.id = "forms";
      const dice = document.getElementById("dice");
      dice.parentNode.insertBefore(section, dice);
    }
    return section;
  }
  function stackOf(form, field) {          // the option picked in the stack field beside it
    if (!/(points|raven)$/.test(field.name)) return null;
    const name = field.name.replace(/points$|raven$/, "stack");
    const stack = form.fields.find((f) => f.name === name);
    return stack && stack.options.find((o) => o.value === draft[name]);
  }
  function bounds(form, field) {
    const stack = stackOf(form, field);
    return { min: stack && field.name.endsWith("points") ? stack.least : field.min, max: field.max };
  }
  function settle(form) {                  // the values the picked stacks allow
    for (const field of form.fields) {
      const stack = stackOf(form, field);
      if (!stack || field.name.endsWith("stack")) continue;
      if (field.name.endsWith("points")) draft[field.name] = Math.max(draft[field.name], stack.least);
      if (field.name.endsWith("raven") && !stack.ravens.includes(draft[field.name])) {
        draft[field.name] = stack.ravens[0];
      }
    }
  }

  function drawField(form, field, redraw) {
    const row = el("div", null, "field");
    row.append(el("span", field.label, "label"));
    if (field.options) {
      row.classList.add("pick");
      const stack = field.name.endsWith("raven") ? stackOf(form, field) : null;
      const picks = el("div", null, "picks");
      for (const option of field.options) {
        const b = el("button", option.label);
        b.type = "button";
        if (option.note) b.append(el("small", option.note));
        b.setAttribute("aria-pressed", draft[field.name] === option.value ? "true" : "false");
        b.dataset.value = String(option.value);
        if (stack && !stack.ravens.includes(option.value)) b.dataset.blocked = "1";
        b.addEventListener("click", () => { draft[field.name] = option.value; settle(form); redraw(); });
        picks.append(b);
      }
      row.append(picks);
      return row;
    }
    const { min, max } = bounds(form, field);
    const step = el("div", null, "stepper");
    const less = el("button", "−"), more = el("button", "+");
    less.type = more.type = "button";
    less.dataset.blocked = draft[field.name] <= min ? "1" : "";
    more.dataset.blocked = draft[field.name] >= max ? "1" : "";
    less.addEventListener("click", () => { draft[field.name] = Math.max(min, draft[field.name] - 1); redraw(); });
    more.addEventListener("click", () => { draft[field.name] = Math.min(max, draft[field.name] + 1); redraw(); });
    const value = el("output", draft[field.name] > 0 && field.min < 0 ? `+${draft[field.name]}` : draft[field.name]);
    value.dataset.name = field.name;
    step.append(less, value, more);
    row.append(step);
    return row;
  }

  function drawCards(form, redraw) {      // the brew's cards of earlier games: one tap fills it
    const holder = el("fieldset", null, "cards");
    holder.append(el("legend", "Cards from earlier games"));
    const picks = el("div", null, "picks");
    for (const card of form.cards) {
      const cost = Object.entries(card.pay).map(([d, n]) => `${n} ${d}`).join(", ") || "no drops";
      const b = el("button", `${card.stack[0].toUpperCase()}${card.stack.slice(1)} ${card.points} pts${card.raven ? " raven" : ""}`);
      b.type = "button";
      b.append(el("small", cost));
      b.addEventListener("click", () => {
        Object.assign(draft, { stack: card.stack, points: card.points, raven: card.raven });
        for (const field of form.fields) {
          if (field.name.startsWith("pay.")) draft[field.name] = card.pay[field.name.slice(4)] || 0;
        }
        redraw();
      });
      picks.append(b);
    }
    holder.append(picks);
    return holder;
  }

  function drawForm(section, form, t, press) {
    const key = `${t.you.seat}:${form.form}:${form.title}`;
    if (draftFor !== key) {                // a new entry: its starting values
      draft = {};
      for (const field of form.fields) draft[field.name] = field.value;
      draftFor = key;
      settle(form);
    }
    const part = el("form", null, "entry");
    part.dataset.form = form.form;
    const redraw = () => part.replaceWith(drawForm(section, form, t, press));
    part.append(el("h3", form.title));
    if ((form.cards || []).length) part.append(drawCards(form, redraw));
    let group = null, holder = part;
    for (const field of form.fields) {
      if (field.group !== group) {
        group = field.group;
        holder = el("fieldset");
        holder.append(el("legend", group));
        part.append(holder);
      }
      holder.append(drawField(form, field, redraw));
    }
    const send = el("button", form.submit, "send");
    send.type = "button";
    send.addEventListener("click", () => press(
      { type: "choose", choice: `${form.form}:${JSON.stringify(draft)}`, seen: t.n }, form.submit));
    part.append(send);
    return part;
  }

  document.addEventListener("table:mine", (event) => {
    const { table: t, press } = event.detail;
    el = event.detail.el;
    const forms = (t && t.you && !t.over && t.you.forms) || [];
    const section = box();
    section.replaceChildren(...forms.map((form) => drawForm(section, form, t, press)));
    if (!forms.length) draftFor = null;
  });
})();
