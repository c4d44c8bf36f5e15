// Progressive enhancement: every form works without these scripts. They hide what a deal does not
// need, fill in the tricks that one tap tells (10 − the rest), preview the deal through the API, and
// keep the sheet, history and settlement of every watching phone up to date.
// The entry (templates/base.html loads it as a module, deferred like every module): it finds what the page
// has and starts each part; each part is a module of its own here.
import { dealForm } from "./deal.js";
import { live } from "./live.js";
import { outbox } from "./outbox.js";
import { paperForm } from "./paper.js";
import { pulkaForm } from "./pulka.js";
import { freshKeys, installable, passOn, stayAwake } from "./shell.js";

document.addEventListener("DOMContentLoaded", () => {
  const deal = document.querySelector("form.deal-form");
  if (deal) dealForm(deal);
  const pulka = document.querySelector("form.pulka-form");
  if (pulka) pulkaForm(pulka);
  const paper = document.querySelector("form.paper[data-settle]");
  if (paper) paperForm(paper);
  const main = document.querySelector("main[data-live]");
  if (main) live(main);
  if (main || deal) stayAwake();
  installable();
  freshKeys();
  passOn();
  window.addEventListener("pageshow", (event) => { if (event.persisted) freshKeys(); });
  outbox();
  // What a write said travels in the address it led to (?said=…): shown once, it leaves the address, so a
  // reload or a live refresh of the page does not say it again.
  const address = new URL(location.href);
  if (address.searchParams.has("said")) {
    address.searchParams.delete("said");
    history.replaceState(history.state, "", address.pathname + address.search + address.hash);
  }
  // A refused save: its problems are listed at the top; focused, they are in view and read out.
  const problems = document.querySelector(".error-summary");
  if (problems) problems.focus();
});
