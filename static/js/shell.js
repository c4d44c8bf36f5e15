// The app as an app: the service worker, a key of its own for every form shown, the screen kept on.

// The app opens without a connection and can be put on the home screen (static/sw.js); logging out
// drops the pages this phone kept, so nothing of the account's pulkas stays behind.
export function installable() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => {});
  document.querySelectorAll("form[data-logout]").forEach((form) => form.addEventListener("submit", () => {
    if (navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage("forget-pages");
  }));
}

// Each form shown gets a key of its own, here rather than the server's: a page shown again from this phone's
// cache, or from the back/forward cache, would otherwise send its one key with two different writes (the
// second refused as a reused key). A retry of one submission keeps its key: the browser resends the body.
export function freshKeys() {
  document.querySelectorAll('input[name="idempotency_key"]').forEach((input) => {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    input.value = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  });
}

// The screen stays on while a sheet or a deal is open (the Screen Wake Lock API, where the browser has
// it); the lock is released when the page is hidden, so it is taken again when it comes back.
export function stayAwake() {
  if (!("wakeLock" in navigator)) return;
  const take = () => {
    if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(() => {});
  };
  document.addEventListener("visibilitychange", take);
  take();
}

// A share link passed on in a tap: the phone's own share sheet (the Web Share API) where there is one, else
// copied to paste in a message. Without script the address stands beside its QR code, to copy by hand.
export function passOn() {
  document.querySelectorAll("button[data-share-url]").forEach((button) => {
    const said = button.parentElement.querySelector(".share-said");
    const sharing = typeof navigator.share === "function";
    if (!sharing && !navigator.clipboard) return;
    if (!sharing) button.textContent = button.dataset.copy;
    button.addEventListener("click", async () => {
      const url = button.dataset.shareUrl;
      try {
        if (sharing) await navigator.share({ title: button.dataset.shareTitle, url });
        else await navigator.clipboard.writeText(url);
        said.textContent = sharing ? button.dataset.shared : button.dataset.copied;
      } catch (error) {
        // closed without sending, or the clipboard refused: the address is still there to copy
      }
    });
    button.parentElement.hidden = false;
  });
}
