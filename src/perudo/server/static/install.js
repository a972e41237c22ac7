// The page as an installable web app: its service worker (/sw.js, scope "/") keeps the page's
// own files, so the page opens fast and installs from the browser's menu. Registered once the
// page has loaded, so that it never slows the first paint; where there is no service worker
// (an old browser, a page not on HTTPS or localhost) the page works as before.

if ("serviceWorker" in navigator) {
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
