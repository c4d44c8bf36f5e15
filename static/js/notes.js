// An unobtrusive line at the bottom of the screen, read out by screen readers; `link` (an <a> of the page), if
// given, is offered in it.
export function note(text, stays = false, link = null) {
  let box = document.querySelector(".live-note");
  if (!box) {
    box = document.createElement("p");
    box.className = "live-note";
    box.setAttribute("role", "status");
    document.body.append(box);
  }
  box.textContent = text;
  if (link) {
    const offered = link.cloneNode(true);
    offered.classList.add("small");
    box.append(" ", offered);
  }
  box.hidden = false;
  clearTimeout(box.timer);
  if (!stays) box.timer = setTimeout(() => { box.hidden = true; }, 6000);
}
