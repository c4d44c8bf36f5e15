// Loaded before the page is drawn (not deferred): the "js" class hides what only pages without
// JavaScript need, with no flash of it. A file, not inline: the Content-Security-Policy allows no inline script.
document.documentElement.classList.add("js");
