// The director's console (issue 16): a nicety over what works without JavaScript. An
// irreversible action's button stays disabled until its confirmation box is ticked (the
// server requires the box either way), and the box is cleared when the form is sent.
(function () {
  "use strict";
  function bind(root) {
    root.querySelectorAll("form.confirm-form").forEach(function (form) {
      if (form.dataset.confirmBound) return;
      form.dataset.confirmBound = "1";
      var box = form.querySelector("input[name=confirm]");
      var button = form.querySelector("button[type=submit]");
      if (!box || !button) return;
      var sync = function () { button.disabled = !box.checked; };
      box.addEventListener("change", sync);
      sync();
    });
  }
  bind(document);
  // The live refresh replaces sections: bind the forms it brings.
  new MutationObserver(function () { bind(document); }).observe(document.body, { childList: true, subtree: true });
})();
