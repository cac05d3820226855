/* Calm when the network is not (issue 23).
   - Registers the service worker (/sw.js, web/offline.py), which serves the pages, static files
     and catalog from the browser's cache when offline; the site is installable (its manifest).
   - A score or ruling sent while offline is kept in the page, with a visible "Offline: will score
     when back", and sent as soon as the connection returns. On a game's pages that build a hand
     (forms marked data-offline-hand) a tile, an Add or a Remove pressed offline changes
     the hand in the page at once (the card shows "not scored yet"); the whole hand is scored when
     the connection is back. Other forms (check a move, score a round…) keep what was entered as it
     is and are sent again.
   - A table's own form (marked data-offline-queue: a hand, a round's end at /t/<code>) posts and
     the page comes back, without htmx: sent offline, the browser would show its own error page and
     the entry would be lost. It is kept in the page instead, marked "Kept on this phone", and sent
     once when the connection returns; its entry key (the form's entry_key, the table's
     Idempotency-Key) makes any second sending the same entry, never a second one. A game's page
     opened from a table (its form carries the entry key) keeps its entry the same way: every
     answer of such a form is a table entry, except on a page that builds a hand, whose tiles
     score it in the page and whose "Enter this hand at the table" (at_table) alone enters it.
   Without JavaScript none of this runs, and the pages work as before online. */
(function () {
  "use strict";

  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js").catch(function () { /* the site works without */ });
    });
  }

  var pending = []; // forms waiting for the connection
  var lastButton = null;
  var backTimer = null;

  function status() {
    return document.getElementById("offline-status");
  }

  function say(text) {
    var line = status();
    if (!line) {
      return;
    }
    window.clearTimeout(backTimer);
    line.textContent = text;
    line.hidden = !text;
    line.classList.toggle("offline-status--back", /^Back online/.test(text));
  }

  function verb(form) {
    return form && form.hasAttribute("data-offline-hand") ? "score" : "check";
  }

  var entries = []; // table forms kept while offline: {form, submitter}

  // Whether pressing `submitter` in `form` sends an entry to a table (see above).
  function tableEntry(form, submitter) {
    if (!form || !form.hasAttribute) {
      return false;
    }
    if (form.hasAttribute("data-offline-queue")) {
      return true;
    }
    if (!form.querySelector("input[name='entry_key']")) {
      return false;
    }
    return !form.hasAttribute("data-offline-hand") || Boolean(submitter && submitter.name === "at_table");
  }

  function refresh() {
    if (entries.length) {
      say("Offline: your entry is kept on this phone and sent when back.");
    } else if (pending.length) {
      say("Offline: will " + verb(pending[0]) + " when back.");
    } else if (!navigator.onLine) {
      say("You are offline. The pages you have opened still work.");
    } else {
      say("");
    }
  }

  function hold(form) {
    if (form && pending.indexOf(form) === -1) {
      pending.push(form);
    }
    refresh();
  }

  // --- A hand changed in the page while offline ---------------------------------------------------

  function normalise(text) {
    return String(text || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .toLowerCase().replace(/[^a-z0-9]+/g, "");
  }

  // The card names the page offers: the list (a datalist) of the hand's "add a card" field.
  function cardNames(box) {
    var field = box.querySelector("input[list]");
    var list = field && field.list;
    var options = list ? list.querySelectorAll("option") : [];
    return Array.prototype.map.call(options, function (option) {
      return { name: option.value, label: option.textContent || "" };
    });
  }

  // The card a typed name means, as far as the page can tell without the server: the name in
  // any case and punctuation, or the one name containing it. Anything else waits for the server.
  function resolve(box, typed) {
    var key = normalise(typed);
    if (!key) {
      return null;
    }
    var cards = cardNames(box);
    var exact = cards.filter(function (card) { return normalise(card.name) === key; });
    if (exact.length === 1) {
      return exact[0];
    }
    var containing = cards.filter(function (card) { return normalise(card.name).indexOf(key) !== -1; });
    return containing.length === 1 ? containing[0] : null;
  }

  function handBox(form) {
    return form.querySelector("[data-hand-field]");
  }

  function handInput(box, name) {
    var field = box.getAttribute("data-hand-field");
    var inputs = box.querySelectorAll("input[type='hidden']");
    for (var i = 0; i < inputs.length; i++) {
      if (inputs[i].name === field && inputs[i].value === name) {
        return inputs[i];
      }
    }
    return null;
  }

  function tileOf(form, name) {
    var tiles = form.querySelectorAll(".pick-tile[name='toggle']");
    for (var i = 0; i < tiles.length; i++) {
      if (tiles[i].value === name) {
        return tiles[i];
      }
    }
    return null;
  }

  function addLocally(form, box, name) {
    if (handInput(box, name)) {
      return;
    }
    var list = box.querySelector(".hand-list");
    if (!list) {
      list = document.createElement("ol");
      list.className = "hand-list";
      var addCard = box.querySelector(".add-card");
      addCard.parentNode.insertBefore(list, addCard.nextSibling);
      var empty = box.querySelector(":scope > .empty");
      if (empty) {
        empty.hidden = true;
      }
    }
    var card = cardNames(box).filter(function (c) { return c.name === name; })[0];
    var item = document.createElement("li");
    item.className = "hand-card hand-card--scored hand-card--pending";
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = box.getAttribute("data-hand-field");
    input.value = name;
    var number = document.createElement("span");
    number.className = "hand-card__number";
    number.textContent = card ? card.label.split(" ").pop() : "?";
    var label = document.createElement("span");
    label.className = "hand-card__name";
    label.textContent = name;
    var note = document.createElement("span");
    note.className = "hand-card__points";
    note.textContent = "not scored yet";
    var remove = document.createElement("button");
    remove.type = "submit";
    remove.className = "button button--quiet hand-card__remove";
    remove.name = "remove";
    remove.value = name;
    remove.setAttribute("aria-label", "Remove " + name);
    remove.textContent = "Remove";
    item.append(input, number, label, note, remove);
    list.appendChild(item);
    var tile = tileOf(form, name);
    if (tile) {
      tile.setAttribute("aria-pressed", "true");
    }
  }

  function removeLocally(form, box, name) {
    var input = handInput(box, name);
    if (input) {
      input.closest("li").remove();
    }
    var tile = tileOf(form, name);
    if (tile) {
      tile.setAttribute("aria-pressed", "false");
    }
  }

  // What a button of the hand's form does, done in the page; false when it cannot be.
  function changeLocally(form, button) {
    var box = handBox(form);
    if (!box || !button) {
      return false;
    }
    if (button.name === "toggle") {
      if (handInput(box, button.value)) {
        removeLocally(form, box, button.value);
      } else {
        addLocally(form, box, button.value);
      }
      return true;
    }
    if (button.name === "remove") {
      removeLocally(form, box, button.value);
      return true;
    }
    if (button.name === "pick" || (button.name === "action" &&
        (button.value === "add" || button.value === "enter"))) {
      var field = form.querySelector("#add-card");
      var typed = button.name === "pick" ? button.value : field ? field.value : "";
      var card = resolve(box, typed);
      if (card) {
        addLocally(form, box, card.name);
        if (field) {
          field.value = "";
        }
      }
      return true; // a name the page cannot read is sent when the connection is back
    }
    return false;
  }

  // The score bar counts the cards in the hand now.
  function recount(form) {
    var box = handBox(form);
    var count = form.querySelector(".score-bar__count");
    if (!box) {
      return;
    }
    var cards = box.querySelectorAll(".hand-list input[type='hidden']").length;
    var words = cards + " card" + (cards === 1 ? "" : "s");
    if (count) {
      count.textContent = "· " + words;
    }
    var line = box.querySelector(".hand-count");
    if (line) {
      line.textContent = words + " in the hand, not scored yet: Tableside scores them when the " +
        "connection is back.";
    }
  }

  // Offline, a button of a hand's form changes the hand in the page instead of asking the server
  // (listening on window: before htmx and the score pages' own listeners on the document).
  window.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[type='submit']");
    var form = button && button.form;
    if (!form) {
      return;
    }
    lastButton = button;
    if (!navigator.onLine && form.hasAttribute("data-offline-hand") && changeLocally(form, button)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      recount(form);
      hold(form);
    }
  }, true);

  // --- A table's form sent offline ---------------------------------------------------------------

  function keptNote(form) {
    return form.querySelector(".offline-kept");
  }

  function keepEntry(form, submitter) {
    var kept = entries.filter(function (entry) { return entry.form === form; })[0];
    if (kept) {
      kept.submitter = submitter;
    } else {
      entries.push({ form: form, submitter: submitter });
    }
    if (!keptNote(form)) {
      var note = document.createElement("p");
      note.className = "offline-kept";
      note.setAttribute("role", "status");
      note.textContent = "Kept on this phone: you are offline. It is sent to the table when " +
        "the connection returns.";
      // Next to the button pressed: the line before the button's own.
      var line = submitter && submitter.closest("p, div");
      if (line && form.contains(line)) {
        line.parentNode.insertBefore(note, line);
      } else {
        form.appendChild(note);
      }
    }
    refresh();
  }

  // Offline, a table's form is kept instead of sent (a preview of a hand's choices enters
  // nothing: it is not kept). Capturing: before the browser leaves the page.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var submitter = event.submitter || null;
    if (navigator.onLine || !tableEntry(form, submitter)) {
      return;
    }
    event.preventDefault();
    // Nor does htmx send it (a game's page posts its form through htmx, on the form itself).
    event.stopImmediatePropagation();
    if (submitter && submitter.name === "preview") {
      refresh();
      return;
    }
    keepEntry(form, submitter);
  }, true);

  function sendEntries() {
    var kept = entries;
    entries = [];
    kept.forEach(function (entry) {
      if (!document.body.contains(entry.form)) {
        return;
      }
      var note = keptNote(entry.form);
      if (note) {
        note.textContent = "Back online: sending it to the table…";
      }
      // Online now: the form goes as if its button were pressed, with the same entry key (a
      // click: htmx reads the button pressed, and its formaction, from the click).
      if (entry.submitter && entry.submitter.form === entry.form) {
        entry.submitter.click();
      } else {
        entry.form.requestSubmit();
      }
    });
  }

  // A request that could not be sent (offline, or the connection dropped on the way).
  document.addEventListener("htmx:sendError", function (event) {
    var element = event.detail && event.detail.elt;
    var form = element && (element.form || (element.closest && element.closest("form")));
    if (!form || form.hasAttribute("data-offline-queue")) {
      // A table's form is kept by its submit (above); what htmx sends of it (a hand's choices
      // shown as it is typed) enters nothing and is not sent again.
      return;
    }
    var pressed = lastButton && lastButton.form === form ? lastButton : null;
    if (tableEntry(form, pressed)) {
      // An entry of a game's page at a table that left as the connection dropped: kept, and
      // sent again with its key (recorded once if the first one arrived after all).
      keepEntry(form, pressed);
      lastButton = null;
      return;
    }
    if (form.hasAttribute("data-offline-hand") && lastButton && lastButton.form === form) {
      changeLocally(form, lastButton);
      recount(form);
    }
    lastButton = null;
    hold(form);
  });

  function resend() {
    if (navigator.onLine && entries.length) {
      sendEntries();
    }
    if (!navigator.onLine || !pending.length) {
      refresh();
      return;
    }
    var forms = pending;
    pending = [];
    forms.forEach(function (form) {
      if (!document.body.contains(form)) {
        return;
      }
      var field = form.querySelector("#add-card");
      var add = form.querySelector("#add-button");
      if (field && field.value && add) {
        add.click(); // the name typed offline is read by the server now
      } else {
        form.requestSubmit();
      }
    });
    say("Back online: " + (verb(forms[0]) === "score" ? "scoring" : "checking") + " what you entered…");
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var line = status();
    if (line && !line.hidden && /^Back online/.test(line.textContent) && event.detail.successful) {
      say("Back online: done.");
      backTimer = window.setTimeout(function () { say(""); }, 4000);
    }
  });

  window.addEventListener("online", resend);
  window.addEventListener("offline", refresh);
  // A weak connection may come back without an "online" event: try again now and then.
  window.setInterval(function () {
    if ((pending.length || entries.length) && navigator.onLine) {
      resend();
    }
  }, 5000);

  if (!navigator.onLine) {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", refresh);
    } else {
      refresh();
    }
  }
})();
