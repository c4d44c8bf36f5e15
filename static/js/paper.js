// The paper sheet's page answers as the grid is typed: the grid is sent as a pulya-sheet/1 object to
// POST /api/v1/settle (the server settles, exactly; nothing here computes), and the balances and who pays
// whom are shown above the result, or the problem beside its field. The Settle button still shows every
// step: without this script the page is the same form.

const SEATS = 4;

// A value without the spaces around it, as the server trims it (domain/reading.trimmed): only spaces, so that
// a line break or an invisible character stays, for the server to refuse on its field.
const trimmed = (text) => text.replace(/^\p{Zs}+|\p{Zs}+$/gu, "");

function number(text) {
  // As the server's form reader takes it (domain/reading.number_text): 12, 12,5, −4, +3; ASCII digits, one
  // separator, nothing inside; anything else (١٢, １２, 1 000, 1e3) as typed, for the server to refuse.
  const found = /^([-\u2212+]?)([0-9]*)(?:[.,]([0-9]*))?$/.exec(text.replace(/^ +| +$/g, ""));
  if (!found || !(found[2] || found[3]) || found[2].length > 18 || (found[3] || "").length > 18) return trimmed(text);
  const value = Number(`${found[2] || "0"}.${found[3] || "0"}`);
  return found[1] === "-" || found[1] === "\u2212" ? -value : value;
}

function sheetOf(form) {
  const value = (name) => (form.elements[name] ? form.elements[name].value : "");
  const seats = [...Array(SEATS).keys()].filter((i) => trimmed(value(`player_${i}`)));
  const names = Object.fromEntries(seats.map((i) => [i, trimmed(value(`player_${i}`))]));
  const rules = { preset: value("preset") || "sochi" };
  for (const key of ["pulya_size", "pulya_point_whists", "gora_point_whists", "whist_price"]) {
    if (trimmed(value(key))) rules[key] = number(value(key));
  }
  const sheet = { format: "pulya-sheet/1", players: seats.map((i) => names[i]), rules };
  if (form.elements.pulya_counts_down && form.elements.pulya_counts_down.checked) sheet.pulya_counts_down = true;
  const column = (key) => Object.fromEntries(seats.filter((i) => trimmed(value(`${key}_${i}`)))
    .map((i) => [names[i], number(value(`${key}_${i}`))]));
  const pulya = column("pulya");
  if (Object.keys(pulya).length) sheet.pulya = pulya;
  sheet.gora = column("gora");
  sheet.whists = {};
  for (const i of seats) {
    const row = Object.fromEntries(seats.filter((j) => j !== i && trimmed(value(`whists_${i}_${j}`)))
      .map((j) => [names[j], number(value(`whists_${i}_${j}`))]));
    if (Object.keys(row).length) sheet.whists[names[i]] = row;
  }
  return { sheet, seats, names };
}

function fieldOf(path, names) {
  // The file's field (gora.Аня, whists.Аня.Борис) as the grid's input (gora_0, whists_0_1).
  const seat = Object.fromEntries(Object.entries(names).map(([i, name]) => [name, i]));
  const [column, ...rest] = path.split(".");
  if ((column === "pulya" || column === "gora") && rest.join(".") in seat) return `${column}_${seat[rest.join(".")]}`;
  if (column === "whists" && rest.length === 2 && rest[0] in seat && rest[1] in seat) {
    return `whists_${seat[rest[0]]}_${seat[rest[1]]}`;
  }
  if (column === "rules") return rest[0] === "preset" || !rest.length ? "preset" : rest[0];
  return "player_0";
}

export function paperForm(form) {
  const out = document.getElementById("paper-live");
  if (!out) return;
  const language = document.documentElement.lang || "en";
  const money = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const whists = new Intl.NumberFormat(language, { signDisplay: "exceptZero", maximumFractionDigits: 2 });
  const currency = () => (form.elements.currency ? trimmed(form.elements.currency.value) : "");
  let timer = null;
  let asked = 0;
  const show = async () => {
    const { sheet, seats, names } = sheetOf(form);
    form.querySelectorAll("[aria-invalid]").forEach((input) => input.removeAttribute("aria-invalid"));
    if (seats.length < 3 || Object.keys(sheet.gora).length < seats.length) {
      out.textContent = out.dataset.waiting;
      return;
    }
    const ask = ++asked;
    const token = form.elements.csrf_token ? form.elements.csrf_token.value : "";
    let response;
    try {
      response = await fetch(form.dataset.settle, {
        method: "POST", body: JSON.stringify(sheet),
        headers: { "Content-Type": "application/json", "Accept-Language": language, "X-CSRFToken": token },
      });
    } catch {
      return; // offline: the Settle button still works when the connection is back
    }
    if (ask !== asked) return; // a later keystroke asked again
    const body = await response.json();
    out.replaceChildren();
    if (!response.ok) {
      for (const fault of body.problems || [body.error]) {  // every field to mend, not only the first
        const problem = document.createElement("p");
        problem.className = "error";
        problem.textContent = fault.message;
        out.append(problem);
        const input = form.elements[fieldOf(fault.field || "", names)];
        if (input && input.setAttribute) input.setAttribute("aria-invalid", "true");
      }
      return;
    }
    const list = document.createElement("ul");
    const unit = currency() ? `\u00a0${currency()}` : "";
    for (const name of body.players) {
      const item = document.createElement("li");
      item.textContent = `${name}: ${whists.format(body.settlement.balance[name])} · ` +
        `${money.format(body.settlement.money[name])}${unit}`;
      list.append(item);
    }
    for (const t of body.settlement.transfers) {
      const item = document.createElement("li");
      item.textContent = `${t.from} → ${t.to}: ${money.format(t.amount)}${unit}`;
      list.append(item);
    }
    out.append(list);
  };
  const size = form.elements.pulya_size;
  let preset = form.elements.preset ? form.elements.preset.value : "";
  form.addEventListener("change", (event) => {
    // Another preset shows its own pulya size, unless the table typed one of its own.
    if (event.target.name !== "preset" || !size) return;
    const sizes = JSON.parse(size.dataset.sizes || "{}");
    if (!size.value.trim() || size.value.trim() === String(sizes[preset])) size.value = String(sizes[event.target.value] ?? "");
    preset = event.target.value;  // the grid's input event, just before, asks for the balances again
  });
  form.addEventListener("input", (event) => {
    const seat = /^player_(\d)$/.exec(event.target.name || "");
    if (seat) {  // the grid's headers name the player as he is typed
      form.querySelectorAll(`[data-name="${seat[1]}"]`).forEach((head) => {
        head.textContent = event.target.value.trim() || head.dataset.unnamed;
      });
    }
    clearTimeout(timer);
    timer = setTimeout(show, 300);
  });
}
