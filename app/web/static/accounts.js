// The passkey ceremonies (WebAuthn) of the account pages: begin on the server, ask the
// browser's authenticator, finish on the server. No inline script (the pages' CSP).
"use strict";
(function () {
  const csrf = () => document.querySelector('meta[name="csrf-token"]').content;
  const status = document.getElementById("passkey-status");
  const say = (key) => {
    if (!status) return;
    status.textContent = status.dataset[key] || key;
    status.hidden = false;
  };
  async function post(path, body) {
    const response = await fetch("/api/v1" + path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrf-token": csrf() },
      body: JSON.stringify(body || {}),
    });
    const data = response.status === 204 ? {} : await response.json();
    if (!response.ok) throw new Error(data.detail || data.title || String(response.status));
    return data;
  }
  function supported() {
    return window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON;
  }
  async function register(name) {
    const options = await post("/accounts/passkeys/register/begin", { name: name });
    const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options.publicKey);
    const credential = await navigator.credentials.create({ publicKey: publicKey });
    return post("/accounts/passkeys/register/finish", credential.toJSON());
  }
  async function login() {
    const options = await post("/accounts/passkeys/login/begin", {});
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey);
    const credential = await navigator.credentials.get({ publicKey: publicKey });
    return post("/accounts/passkeys/login/finish", credential.toJSON());
  }
  async function run(work) {
    if (!supported()) return say("unsupported");
    say("working");
    try {
      await work();
    } catch (error) {
      say("cancelled");
      if (status) status.textContent += " " + error.message;
    }
  }
  const loginButton = document.querySelector('[data-passkey="login"]');
  if (loginButton) {
    loginButton.addEventListener("click", () =>
      run(async () => {
        await login();
        window.location.assign("/me");
      })
    );
  }
  const addButton = document.querySelector('[data-passkey="add"]');
  if (addButton) {
    addButton.addEventListener("click", () =>
      run(async () => {
        await register("");
        window.location.reload();
      })
    );
  }
  const registerForm = document.querySelector('[data-passkey="register"]');
  if (registerForm) {
    registerForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = registerForm.elements.name.value.trim();
      run(async () => {
        const done = await register(name);
        const list = document.getElementById("recovery-list");
        (done.recovery_codes || []).forEach((code) => {
          const item = document.createElement("li");
          item.textContent = code;
          list.appendChild(item);
        });
        registerForm.hidden = true;
        if (status) status.hidden = true;
        document.getElementById("recovery-once").hidden = false;
      });
    });
  }
})();
