// The deal form: what this deal does not need hidden, the tricks one tap tells filled in, the deal previewed
// through the API.
import { fillTricks } from "./tricks.js";

const RETRY_MS = 5000; // without an answer, the preview is asked again this often (as the outbox is sent)

export function dealForm(form) {
  // Who plays is read when needed: the form may be seated for a later deal (follow, below).
  const defenders = () => JSON.parse(form.dataset.defenders || "{}");
  const hands = () => (form.dataset.hands || "").split(",").filter(Boolean); // first hand … last hand
  const half = (form.dataset.half || "").split(",").filter(Boolean).map(Number);
  const tenChecked = form.dataset.tenChecked === "true";
  const least = Number(form.dataset.least || 6);
  const loneTotal = form.dataset.loneTotal === "true";
  const box = form.querySelector(".preview");
  const words = form.querySelector(".word-rows");
  const value = (name) => {
    const input = form.querySelector(`input[name="${name}"]:checked`);
    return input ? input.value : "";
  };
  const part = (name) => form.querySelector(`[data-part="${name}"]`);
  const show = (el, on) => { if (el) el.hidden = !on; };
  // The count rows by their last tap, the latest last: a count that no longer adds up is made up on the row
  // tapped longest ago.
  const tapped = [];
  let timer = null;
  let ready = false;
  let contractMissing = false; // a game with its declarer but not yet its level and suit
  let asking = 0;
  let retry = null;
  let lastTapped = null;

  function update(changed) {
    const type = value("type") || "game";
    const declarer = value("declarer");
    const level = Number(value("level")) || 0;
    const checkedTen = tenChecked && level === 10;
    const defs = (defenders()[declarer] || []).map(String);
    form.querySelectorAll("[data-for]").forEach((el) => show(el, el.dataset.for.split(" ").includes(type)));
    form.querySelectorAll('input[name="level"]').forEach((input) => {
      input.disabled = type === "game" && Number(input.value) < least;
    });

    show(part("whist"), type === "game" && !checkedTen && declarer !== "");
    show(part("ten"), type === "game" && checkedTen);  // the words are not asked: said why
    // The two defenders in speaking order: first the one on the declarer's left.
    defs.forEach((seat) => words.append(words.querySelector(`.word-row[data-seat="${seat}"]`)));
    form.querySelectorAll(".word-row").forEach((row) => {
      const seat = row.dataset.seat;
      show(row, defs.includes(seat));
      const halfChip = row.querySelector(".chip.half");
      const halfOk = seat === defs[1] && half.includes(level) && value(`w${defs[0]}`) === "pass";
      show(halfChip, halfOk);
      if (!halfOk && value(`w${seat}`) === "half") row.querySelector('input[value="pass"]').checked = true;
    });
    const whisters = defs.filter((seat) => value(`w${seat}`) === "whist").length;
    show(part("open"), whisters === 1);
    const played = type !== "game" || checkedTen || whisters > 0;
    // One whister where only the defence's total counts (forms.lone_whist_total): the declarer's count is all
    // the form asks, as on misère.
    const lone = type === "game" && !checkedTen && whisters === 1 && loneTotal;
    const declarerOnly = type === "misere" || lone;
    show(part("lone"), lone);

    form.querySelectorAll(".tricks-row").forEach((row) => {
      let on = true;
      if (row.hasAttribute("data-talon")) on = type === "raspasy";
      else if (declarerOnly) on = row.dataset.seat === declarer;
      show(row, on);
    });
    show(part("tricks"), type !== "game" || (played && declarer !== ""));
    if (!declarerOnly && !part("tricks").hidden) balance(changed, declarer);
    else noteTap(changed);
    ready = type === "raspasy" || (declarer !== "" && (type === "misere" || (level && value("strain"))));
    contractMissing = type === "game" && declarer !== "" && !(level && value("strain"));
    if (changed) lastTapped = changed.closest("label, .row, fieldset") || changed;
    clearTimeout(timer);
    timer = setTimeout(preview, 120);
  }

  // The sticky footer (what will be written, and Save) never covers what was just tapped: the page moves it
  // up above the footer.
  function keepInView() {
    const footer = box && box.closest(".sticky");
    if (!footer || !lastTapped || !lastTapped.isConnected) return;
    const covered = lastTapped.getBoundingClientRect().bottom - footer.getBoundingClientRect().top;
    if (covered > 0) window.scrollBy({ top: covered + 8 });
  }

  // A tap on the heading folds what will be written away (the heading stays, with Save), and back.
  const toggle = box && box.querySelector(".preview-toggle");
  if (toggle) {
    toggle.addEventListener("click", () => {
      const folded = box.classList.toggle("folded");
      toggle.setAttribute("aria-expanded", String(!folded));
    });
  }

  function say(heading, lines, bad) {
    (toggle || box.querySelector("h2")).textContent = heading;
    box.querySelector("ul").replaceChildren(...lines.map((line) => {
      const li = document.createElement("li");
      const what = document.createElement("span");
      what.className = "what";
      what.textContent = line.what;
      li.append(what);
      if (line.why) {
        const why = document.createElement("span");
        why.className = "why";
        why.textContent = line.why;
        li.append(" ", why);
      }
      return li;
    }));
    box.classList.toggle("bad", bad);
    box.hidden = false;
    keepInView();
  }

  // A tapped count is the player's own: it is never filled in again, and it goes last in `tapped`.
  function noteTap(changed) {
    const row = changed && /^t\d$/.test(changed.name || "") ? changed.closest(".tricks-row") : null;
    if (!row) return null;
    mark(row, false);
    const at = tapped.indexOf(row.dataset.seat);
    if (at >= 0) tapped.splice(at, 1);
    tapped.push(row.dataset.seat);
    return row;
  }

  // The counts add up to 10 (the talon's included) wherever one tap tells the rest:
  // - one hand left without a count (or with one filled in here) gets 10 − the others;
  // - a hand given all 10 leaves 0 to every hand without a count;
  // - when every hand has a count and one is changed (an edit, a correction), the hand tapped longest ago
  //   makes up the difference: a defender rather than the declarer, the last hand first among those untouched.
  function balance(changed, declarer) {
    const tappedRow = noteTap(changed);
    const rows = [...form.querySelectorAll(".tricks-row:not([data-talon])")].filter((r) => !r.hidden);
    const count = (r) => Number(value(`t${r.dataset.seat}`) || 0);
    let open = rows.filter((r) => r !== tappedRow && (value(`t${r.dataset.seat}`) === "" || r.dataset.auto));
    const talonRow = form.querySelector(".tricks-row[data-talon]");
    const talon = talonRow && !talonRow.hidden ? Number(value(`t${talonRow.dataset.seat}`) || 0) : 0;
    const total = rows.reduce((sum, r) => sum + count(r), talon);
    if (open.length === 0 && tappedRow && rows.length > 1 && total !== 10) {
      open = [longestAgo(rows.filter((r) => r !== tappedRow), declarer)];  // blanked, it is filled in below
    }
    // The rest is the pure rule (tricks.js): the open rows are the blanks it fills in, or clears.
    const filled = fillTricks(rows.map((r) => (open.includes(r) ? null : count(r))), talon);
    open.forEach((r) => fill(r, filled[rows.indexOf(r)]));
  }

  function longestAgo(rows, declarer) {
    const order = (r) => (r.dataset.seat === declarer ? 1000 : 0) +
      (tapped.includes(r.dataset.seat) ? 100 + tapped.indexOf(r.dataset.seat) : -hands().indexOf(r.dataset.seat));
    return rows.reduce((best, r) => (order(r) < order(best) ? r : best));
  }

  // Check `count` on the row, marked as filled in here (dashed); null or a count out of 0-10 clears it.
  function fill(row, count) {
    row.querySelectorAll("input").forEach((input) => { input.checked = Number(input.value) === count; });
    mark(row, count !== null && count >= 0 && count <= 10);
  }

  function mark(row, auto) {
    if (auto) row.dataset.auto = "1";
    else delete row.dataset.auto;
    row.querySelectorAll("input").forEach((input) => {
      input.nextElementSibling.classList.toggle("auto", auto && input.checked);
    });
  }

  async function preview() {
    if (!box) return;
    if (!ready) {
      // Said before Save, not only after it: the game still wants its level and suit.
      if (contractMissing) say(box.dataset.bad, [{ what: box.dataset.contract }], true);
      else box.hidden = true;
      keepInView();
      return;
    }
    const body = new FormData(form);
    const asked = ++asking;
    try {
      const response = await fetch(form.dataset.preview, { method: "POST", body, headers: { Accept: "application/json" } });
      const data = await response.json();
      if (asked !== asking) return; // a later tap has asked again: its answer counts
      // Each line with its reason ("Anna helps Boris …"), so that help or consolation does not look like a mistake.
      const lines = response.ok ? data.lines : (data.problems || [data.error]).map((p) => ({ what: p.message }));
      say(response.ok ? box.dataset.ok : box.dataset.bad, lines, !response.ok);
    } catch (error) {
      // No answer (no connection, or the server out of reach): said so, and asked again until one comes; the
      // server still checks on save, and a save without a connection is kept on this phone.
      if (asked !== asking) return;
      say(box.dataset.offline, [{ what: box.dataset.offlineWhy }], false);
      clearTimeout(retry);
      retry = setTimeout(() => { if (asked === asking) preview(); }, RETRY_MS);
    }
  }
  window.addEventListener("online", () => { if (ready) preview(); });

  // Deals kept on this phone without a connection come before this one (static/js/outbox.js counts them, `by`):
  // the form is for the deal after them, numbered and seated as the server rendered that round (`ahead`).
  form.addEventListener("kept-deals", (event) => {
    const number = Number(form.dataset.nextDeal) + event.detail;
    const round = form.querySelectorAll("template[data-ahead]");
    const seating = round[event.detail % round.length];
    if (!seating) return;
    ["defenders", "talon", "hands"].forEach((key) => { form.dataset[key] = seating.dataset[key]; });
    seating.content.querySelectorAll("[data-seated]").forEach((part) => {
      const here = document.querySelector(`[data-seated="${part.dataset.seated}"]`);
      if (here) here.replaceChildren(...part.cloneNode(true).childNodes);
    });
    form.querySelector('input[name="number"]').value = String(number);
    tapped.length = 0;
    update(null);
  });
  form.addEventListener("change", (event) => update(event.target));
  update(null);
}
