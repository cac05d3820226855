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

/* Name fields: a typo never spoils the next entry (every page that takes card names).
   - After a name that matched nothing, its text is selected, so typing replaces it (and the
     arrow keys still let the player mend it): after an htmx answer, and on a page load that
     focuses the field.
   - After a "Did you mean …?" button adds its card, the focus returns to the field the name was
     typed in (data-then-focus), ready for the next name: the button itself is gone.
   - A "Did you mean …?" link fills the field in and leads to it (#its-id): the page opens with
     the focus in that field. */
(function () {
  "use strict";

  var refocus = "";

  function isTextField(element) {
    return Boolean(element && element.tagName === "INPUT" &&
      /^(text|search)$/.test(element.type || "text"));
  }

  function selectIfInvalid() {
    var active = document.activeElement;
    if (isTextField(active) && active.getAttribute("aria-invalid") === "true" && active.value) {
      active.select();
      showProblem(active);
    }
  }

  // The line saying what is wrong with the field ("Did you mean …?") is in view, not under a
  // sticky bar at the foot of the screen (issue 29): scrolled to the nearest edge, which the
  // page's scroll-padding keeps clear of the bar.
  function showProblem(field) {
    (field.getAttribute("aria-describedby") || "").split(/\s+/).forEach(function (id) {
      var line = id ? document.getElementById(id) : null;
      if (line) {
        line.scrollIntoView({ block: "nearest" });
      }
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-then-focus]");
    if (button) {
      refocus = button.getAttribute("data-then-focus");
    }
  }, true);

  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful && !(event.detail.xhr && event.detail.xhr.status === 400)) {
      refocus = "";
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (refocus) {
      var field = document.getElementById(refocus);
      refocus = "";
      if (field) {
        field.focus({ preventScroll: true });
        return;
      }
    }
    selectIfInvalid();
  });

  function onLoad() {
    var id = window.location.hash ? decodeURIComponent(window.location.hash.slice(1)) : "";
    var target = id ? document.getElementById(id) : null;
    if (isTextField(target) && document.activeElement !== target) {
      target.focus();
      var end = target.value.length;
      target.setSelectionRange(end, end);
      return;
    }
    var autofocus = document.querySelector("input[autofocus]");
    if (autofocus && document.activeElement !== autofocus) {
      autofocus.focus();
    }
    selectIfInvalid();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", onLoad);
  } else {
    onLoad();
  }
})();

/* A polled part that carries its version (data-etag) asks with If-None-Match itself. Left to the
   browser's cache the server's 304 reaches htmx as a 200 with the cached copy, and the part was
   redrawn on every poll: a keyboard user's focus inside it was lost every 2 seconds. Sent by the
   page, the 304 reaches htmx, which swaps nothing (base.html's responseHandling). */
(function () {
  "use strict";

  document.addEventListener("htmx:configRequest", function (event) {
    var etag = event.detail.elt && event.detail.elt.getAttribute("data-etag");
    if (etag && event.detail.verb === "get") {
      event.detail.headers["If-None-Match"] = etag;
    }
  });
})();

/* An answer swapped in by htmx (a ruling, a score, or the problems with the form) into its box,
   marked data-result on every game's check and score pages: the focus moves to its heading
   (data-focus), so keyboard and screen-reader users land on the answer. */
(function () {
  "use strict";

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || !target.hasAttribute || !target.hasAttribute("data-result")) {
      return;
    }
    var heading = target.querySelector("[data-focus]");
    if (heading) {
      heading.focus();
      heading.scrollIntoView({ block: "start" });
    }
  });
})();

/* A part of a page that others' changes redraw (a table's polled part and its top, marked
   data-keep-focus): when a change redraws it, a keyboard user's focus stays on the same control
   (issue 29), not fallen to the page's body. htmx gives the focus back to a control with the same
   id itself; this finds the others again (a button or a link without an id) by what they are:
   their name and value, their address, their words. */
(function () {
  "use strict";

  var kept = null;
  var CONTROLS = "a[href], button, input, select, textarea, summary, [tabindex]";

  function keyOf(element) {
    return {
      id: element.id,
      tag: element.tagName,
      name: element.getAttribute("name") || "",
      value: element.getAttribute("value") || "",
      href: element.getAttribute("href") || "",
      text: (element.textContent || "").trim(),
    };
  }

  function same(element, key) {
    if (key.id) {
      return element.id === key.id;
    }
    return element.tagName === key.tag && (element.getAttribute("name") || "") === key.name &&
      (element.getAttribute("value") || "") === key.value &&
      (element.getAttribute("href") || "") === key.href &&
      (element.textContent || "").trim() === key.text;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    kept = null;
    var active = document.activeElement;
    var region = active && active !== document.body && active.closest &&
      active.closest("[data-keep-focus]");
    if (!region || !region.id) {
      return;
    }
    kept = { xhr: event.detail.xhr, region: region.id, key: keyOf(active) };
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName) && active.type !== "checkbox" &&
        active.type !== "radio") {
      kept.value = active.value; // a choice made or text typed, not yet sent
    }
    if (typeof active.selectionStart === "number") {
      kept.start = active.selectionStart;
      kept.end = active.selectionEnd;
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (!kept || event.detail.xhr !== kept.xhr) {
      return;
    }
    var state = kept;
    kept = null;
    var found = document.activeElement;
    if (!found || found === document.body || !same(found, state.key)) {
      // htmx finds a control again by its id; any other is looked for here.
      var region = document.getElementById(state.region);
      found = region && Array.from(region.querySelectorAll(CONTROLS)).filter(function (element) {
        return same(element, state.key);
      })[0];
      if (!found) {
        return;
      }
      found.focus({ preventScroll: true });
    }
    if (typeof state.value === "string" && found.value !== state.value) {
      var offered = found.tagName !== "SELECT" || Array.from(found.options).some(
        function (option) { return option.value === state.value; });
      if (offered) {
        found.value = state.value;
      }
    }
    if (typeof state.start === "number" && typeof found.setSelectionRange === "function") {
      try {
        found.setSelectionRange(state.start, state.end);
      } catch (error) {
        // a field that has no selection (a number field): the focus is enough
      }
    }
  });
})();

/* A table's own form (/t/<code>: a seat's hand, a round's end) names the table version it was
   filled in from, so that an entry made for a game or round that has since ended is refused
   (409) instead of landing in the next one. The page's polled part (#table-live) follows the
   table; the form sits outside it. While a form is untouched (nothing typed or changed in it,
   no conflict or offline note in it, the focus elsewhere), each newer version the poll brings
   replaces the form's section with the table page's own as it is now: after the host starts
   the next game, the form is the next game's (empty, on the table now) and takes the hand in
   one tap, as it did the first time. A form being filled in keeps its version and what is in
   it: sent once the table has moved on, it gets the conflict saying what changed. */
(function () {
  "use strict";

  var touched = typeof WeakSet === "function" ? new WeakSet() : null;
  var fetching = false;

  function mark(event) {
    var form = event.target && event.target.form;
    if (touched && form) {
      touched.add(form);
    }
  }
  document.addEventListener("input", mark, true);
  document.addEventListener("change", mark, true);

  function liveVersion() {
    var live = document.getElementById("table-live");
    var match = live && /^"p(\d+)"$/.exec(live.getAttribute("data-etag") || "");
    return match ? parseInt(match[1], 10) : null;
  }

  function untouched(form) {
    return touched && !touched.has(form) && !form.contains(document.activeElement) &&
      !form.querySelector("#form-conflict, .offline-kept") &&
      !document.getElementById("table-error");
  }

  /* The table's forms that name an older version than the table's now, and are untouched. */
  function staleForms(now) {
    var live = document.getElementById("table-live");
    return Array.prototype.filter.call(
      document.querySelectorAll("form[data-offline-queue]"), function (form) {
        var version = form.querySelector("input[name=version]");
        return !live.contains(form) && version && parseInt(version.value, 10) < now &&
          untouched(form) && form.closest("section[aria-labelledby]");
      });
  }

  function tablePage() {
    var live = document.getElementById("table-live");
    var path = (live.getAttribute("hx-get") || "").replace(/\/live(\?.*)?$/, "");
    // The host's page shows the seat it acted for (?seat=): kept.
    return path + (window.location.pathname === path ? window.location.search : "");
  }

  function refresh() {
    var now = liveVersion();
    if (now === null || fetching || !staleForms(now).length || !window.fetch) {
      return;
    }
    fetching = true;
    window.fetch(tablePage(), { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) {
        if (!html) {
          return;
        }
        var page = new DOMParser().parseFromString(html, "text/html");
        staleForms(now).forEach(function (form) {
          var section = form.closest("section[aria-labelledby]");
          var fresh = page.querySelector('section[aria-labelledby="' +
            section.getAttribute("aria-labelledby") + '"]');
          if (!fresh) {
            return;
          }
          var adopted = document.importNode(fresh, true);
          section.replaceWith(adopted);
          if (window.htmx) {
            window.htmx.process(adopted);
          }
        });
      })
      .catch(function () { /* offline: the next poll that brings a change tries again */ })
      .then(function () { fetching = false; });
  }

  document.addEventListener("htmx:afterSettle", refresh);
})();
