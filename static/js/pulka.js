// The new pulka form: the advanced fields filled in from the preset chosen, the players' names on the
// dealer chips.

export function pulkaForm(form) {
  const presets = JSON.parse(form.dataset.presets || "{}");
  const shown = form.querySelector('input[name="shown_preset"]');
  // The players' own offset, so that a pulka started at 0:30 is dated by their calendar, not the server's.
  const offset = form.querySelector('input[name="utc_offset"]');
  if (offset) offset.value = String(-new Date().getTimezoneOffset());

  function fill(preset) {
    const values = presets[preset];
    if (!values) return;
    form.querySelectorAll(".advanced [data-param]").forEach((input) => {
      const value = values[input.dataset.param];
      if (input.type === "checkbox") {
        input.checked = Array.isArray(value) ? value.includes(Number(input.value)) : Boolean(value);
      } else {
        input.value = Array.isArray(value) ? value.join(", ") : String(value);
      }
    });
    if (shown) shown.value = preset;
  }

  function names() {
    for (let i = 0; i < 4; i++) {
      const input = form.querySelector(`input[name="player${i}"]`);
      const label = form.querySelector(`[data-player="${i}"]`);
      if (!input || !label) continue;
      label.textContent = input.value.trim() || label.dataset.unnamed;
      if (i === 3) label.closest(".chip").hidden = !input.value.trim();
    }
  }

  form.addEventListener("change", (event) => {
    if (event.target.name === "preset") fill(event.target.value);
  });
  form.addEventListener("input", (event) => {
    if (/^player\d$/.test(event.target.name)) names();
  });
  names();
}
