// An unobtrusive line at the bottom of the screen, read out by screen readers.
export function note(text, stays = false) {
  let box = document.querySelector(".live-note");
  if (!box) {
    box = document.createElement("p");
    box.className = "live-note";
    box.setAttribute("role", "status");
    document.body.append(box);
  }
  box.textContent = text;
  box.hidden = false;
  clearTimeout(box.timer);
  if (!stays) box.timer = setTimeout(() => { box.hidden = true; }, 6000);
}
