/* Tableside pages: small progressive enhancements on top of htmx. Everything works without it. */
(function () {
  "use strict";

  // Live search sends the whole filter form; leave empty fields out so the address bar (which
  // htmx updates) shows only the filters in use, e.g. ?q=reno&value=7.
  document.addEventListener("htmx:configRequest", function (event) {
    var data = event.detail.formData;
    if (!data || typeof data.keys !== "function") {
      return;
    }
    var names = Array.from(new Set(Array.from(data.keys())));
    names.forEach(function (name) {
      var kept = data.getAll(name).filter(function (value) {
        return typeof value !== "string" || value.trim() !== "";
      });
      if (name === "ordering" && kept.length === 1 && kept[0] === "name") {
        kept = []; // the default order
      }
      data.delete(name);
      kept.forEach(function (value) { data.append(name, value); });
    });
  });

  // The plain form submit (no htmx) also drops empty fields, for the same tidy address.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.filters")) {
      return;
    }
    Array.from(form.elements).forEach(function (field) {
      if (field.name && field.value === "" && !field.disabled) {
        field.disabled = true;
      }
    });
    // Re-enable after the navigation starts, so the back button shows the form as it was.
    window.setTimeout(function () {
      Array.from(form.elements).forEach(function (field) { field.disabled = false; });
    }, 0);
  });
})();
