// forumplay pages: countdowns, live updates (server-sent events), odds previews.
// No inline scripts anywhere (CSP): everything the pages do in the browser is here.
"use strict";

(function () {
  const csrf = () => (document.querySelector('meta[name="csrf-token"]') || {}).content || "";

  // --- countdowns: from the seconds the server computed (its clock, not the browser's)
  function pad(n) { return String(n).padStart(2, "0"); }
  function startCountdowns(root) {
    const started = Date.now();
    (root || document).querySelectorAll("[data-remaining]").forEach((el) => {
      el.dataset.start = String(started);
    });
  }
  setInterval(() => {
    document.querySelectorAll("[data-remaining]").forEach((el) => {
      const total = parseInt(el.dataset.remaining, 10);
      if (Number.isNaN(total)) return;
      const passed = Math.floor((Date.now() - parseInt(el.dataset.start || "0", 10)) / 1000);
      const left = Math.max(0, total - passed);
      el.textContent = pad(Math.floor(left / 3600)) + ":" + pad(Math.floor((left % 3600) / 60)) + ":" + pad(left % 60);
    });
  }, 1000);
  startCountdowns(document);

  // A notice ("order submitted") is for the moment it answers: not for reloads.
  (function forgetNotice() {
    const url = new URL(window.location.href);
    if (url.searchParams.has("ok")) {
      url.searchParams.delete("ok");
      window.history.replaceState(null, "", url.pathname + url.search + url.hash);
    }
  })();

  // --- live: any new event re-reads this page and swaps its live regions; when the
  // page's shape changed (a new phase brings other forms), its whole body is swapped.
  let refreshing = false;
  let again = false;
  function busy(region) {
    const active = document.activeElement;
    if (region.hasAttribute("data-keep") && region.querySelector("details[open]")) return true;
    return active && active !== document.body && region.contains(active) &&
      /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
  }
  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    try {
      const response = await fetch(window.location.href, { credentials: "same-origin", headers: { "X-Requested-With": "live" } });
      if (!response.ok) return;
      const doc = new DOMParser().parseFromString(await response.text(), "text/html");
      const shape = (root) => Array.from(root.querySelectorAll("[data-live][id]")).map((el) => el.id).join(" ");
      if (shape(doc) !== shape(document)) {
        const editing = Array.from(document.querySelectorAll("[data-keep]")).some(busy);
        const fresh = doc.querySelector("main");
        const old = document.querySelector("main");
        if (!editing && fresh && old) {
          // A new shape (a new phase brings other forms): the whole page body is swapped
          // in place, without a navigation, so the live stream and the reader's place
          // stay (a reload at an address with a #section would only scroll).
          old.replaceWith(fresh);
          document.title = doc.title;
          bindAll(fresh);
          return;
        }
      }
      document.querySelectorAll(".alert.notice").forEach((el) => el.remove());
      // An action's outcome stays while the game is where it was; a new phase or day
      // (the status line changed) makes it old news.
      const where = (root) => ((root.querySelector("#status .meta") || {}).textContent || "").trim();
      if (where(doc) !== where(document)) {
        document.querySelectorAll(".alert.outcome").forEach((el) => el.remove());
      }
      doc.querySelectorAll("[data-live][id]").forEach((fresh) => {
        const old = document.getElementById(fresh.id);
        if (!old) return;
        if (busy(old)) return;
        // The tab (a post's format) the reader chose stays chosen.
        old.querySelectorAll("input[type=radio]:checked").forEach((radio) => {
          const same = radio.id && fresh.querySelector("#" + CSS.escape(radio.id));
          if (same) same.checked = true;
        });
        old.replaceWith(fresh);
        bindAll(fresh);
      });
      const meta = doc.querySelector('meta[name="csrf-token"]');
      if (meta) document.querySelector('meta[name="csrf-token"]').content = meta.content;
    } catch (e) {
      // the next event tries again
    } finally {
      refreshing = false;
      if (again) { again = false; setTimeout(refresh, 100); }
      lookAgainLater();
    }
  }

  // Some changes come without a game event (a post delivered, published by its timer, a
  // reminder): the page says when to look again by itself (data-refresh-in, seconds).
  let later = null;
  function lookAgainLater() {
    clearTimeout(later);
    const el = document.querySelector("[data-refresh-in]");
    const seconds = el ? parseInt(el.dataset.refreshIn, 10) : NaN;
    if (!Number.isNaN(seconds) && seconds > 0) later = setTimeout(refresh, seconds * 1000);
  }
  lookAgainLater();
  // A burst of events makes one refresh; many watchers of one game spread theirs out.
  let timer = null;
  function soon() { clearTimeout(timer); timer = setTimeout(refresh, 150 + Math.random() * 500); }

  const url = document.body.dataset.stream;
  if (url && window.EventSource) {
    const after = document.body.dataset.after || "0";
    const source = new EventSource(url + (url.includes("?") ? "&" : "?") + "after=" + encodeURIComponent(after));
    source.onopen = () => { document.body.classList.add("live"); document.body.classList.remove("live-lost"); };
    source.onmessage = (message) => {
      document.body.dataset.lastEvent = message.lastEventId;
      soon();
    };
    source.onerror = () => { document.body.classList.remove("live"); document.body.classList.add("live-lost"); };
  }

  // --- odds preview: the form's current values, simulated on the server
  async function preview(form) {
    const out = form.querySelector(".odds-out");
    if (!out) return;
    const body = new FormData(form);
    body.set("csrf", csrf());
    out.setAttribute("aria-busy", "true");
    try {
      const response = await fetch(form.dataset.odds, { method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRF-Token": csrf() } });
      out.innerHTML = await response.text();
    } finally {
      out.removeAttribute("aria-busy");
    }
  }
  function bindOdds(root) {
    root.querySelectorAll("form[data-odds]").forEach((form) => {
      if (form.dataset.bound) return;
      form.dataset.bound = "1";
      form.querySelectorAll(".odds-button").forEach((button) => {
        button.addEventListener("click", (event) => { event.preventDefault(); preview(form); });
      });
      if (form.querySelector("input[name=type]")) {
        form.addEventListener("change", () => preview(form));
      }
    });
  }
  bindOdds(document);

  // --- copy buttons: the text of the box they name (data-copy), to the clipboard
  async function copy(button) {
    const target = document.getElementById(button.dataset.copy);
    if (!target) return;
    const text = "value" in target ? target.value : target.textContent;
    try {
      await navigator.clipboard.writeText(text);
    } catch (e) {
      // Not a secure context, or no permission: select it and copy the old way.
      if (target.select) { target.focus(); target.select(); } else {
        const range = document.createRange();
        range.selectNodeContents(target);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      }
      document.execCommand("copy");
    }
    const label = button.textContent;
    button.classList.add("done");
    button.textContent = button.dataset.done || label;
    setTimeout(() => { button.classList.remove("done"); button.textContent = label; }, 1500);
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[data-copy]");
    if (button) { event.preventDefault(); copy(button); }
  });

  // --- a select that shows the fieldset of its choice (a channel kind's config fields);
  // the others are disabled, so they are neither checked nor sent.
  function bindSwitches(root) {
    root.querySelectorAll("select[data-switch]").forEach((select) => {
      const show = () => {
        select.form.querySelectorAll("fieldset." + select.dataset.switch).forEach((set) => {
          const on = set.dataset.kind === select.value;
          set.hidden = !on;
          set.disabled = !on;
        });
      };
      select.addEventListener("change", show);
      show();
    });
  }
  bindSwitches(document);

  // What a swapped-in part of the page needs bound again.
  function bindAll(root) {
    startCountdowns(root);
    bindOdds(root);
    bindSwitches(root);
  }
})();
