/* Score the table: small enhancements on top of htmx. The form works without any of it (a plain
   POST renders the whole page); with htmx each change swaps the form's content (#table-live).
   This file
   - keeps the control that was used where it was on the screen (the lines above it grow and
     shrink as cards and players are added);
   - keeps what is being typed in a text field while another change is scored;
   - holds presses and choices made while a score is on its way, and sends them one by one after
     it, so that none is lost (the whole table travels in the form: requests must not overlap):
     that part is form-queue.js, shared with the hand page;
   - after a player is added or another is chosen, brings their hand into view. */
(function () {
  "use strict";

  var LIVE_ID = "table-live";
  var trigger = null; // {id, top, name, value} of the control that started the request
  var before = null;

  function remember(element) {
    trigger = element && element.id
      ? { id: element.id, top: element.getBoundingClientRect().top, name: element.name }
      : { name: element ? element.name : "" };
  }

  var requests = window.scoringFormQueue({
    formId: "table-form",
    remember: remember,
    skipDisabled: true,
    failed: function (detail) {
      // A 400 is swapped in (the form with what is wrong).
      return !detail.successful && detail.xhr && detail.xhr.status !== 400;
    },
  });
  var inForm = requests.inForm;

  // Enter in a text field presses that field's own button (without JavaScript, the form's first
  // button decides: a card typed is added, else a player).
  document.addEventListener("keydown", function (event) {
    var buttons = { "add-card": "add-button", "new-player": "add-player-button" };
    var target = event.target;
    if (event.key !== "Enter" || !target || !buttons[target.id] || !inForm(target)) {
      return;
    }
    var button = document.getElementById(buttons[target.id]);
    if (button) {
      event.preventDefault();
      button.click();
    }
  });

  // Which player is current, and how many there are: when that changes, their hand comes into view.
  function seat() {
    var current = document.querySelector("#" + LIVE_ID + " input[name='current']");
    var players = document.querySelector("#" + LIVE_ID + " input[name='players']");
    return (current ? current.value : "") + "/" + (players ? players.value : "");
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target !== document.getElementById(LIVE_ID)) {
      return;
    }
    var active = document.activeElement;
    var typed = {};
    ["add-card", "new-player"].forEach(function (id) {
      var field = document.getElementById(id);
      if (field && field === active) {
        typed[id] = field.value;
      }
    });
    var state = { trigger: trigger, typed: typed, seat: seat() };
    if (trigger && trigger.id) {
      var element = document.getElementById(trigger.id);
      // Only if laid out: a control without a box reads top 0 (as in score-hand.js).
      if (element && element.getClientRects().length) {
        state.trigger.top = element.getBoundingClientRect().top;
      }
    }
    before = state;
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target !== document.getElementById(LIVE_ID)) {
      return;
    }
    var state = before || {};
    before = null;
    var used = state.trigger || {};
    trigger = null;
    var current = document.getElementById("table-current");
    if (state.seat !== undefined && state.seat !== seat()) {
      // A player added, chosen or gone: the current hand comes into view, ready for a card.
      if (current) {
        current.scrollIntoView({ block: "start" });
      }
      var add = document.getElementById("add-card");
      if (add && used.name !== "remove_player") {
        add.focus({ preventScroll: true });
      }
    } else if (used.id) {
      // A tile, a Remove button or a choice: it stays where it was on the screen.
      var moved = document.getElementById(used.id);
      if (moved && moved.getClientRects().length) {
        var delta = moved.getBoundingClientRect().top - used.top;
        if (Math.abs(delta) > 1) {
          window.scrollBy(0, delta);
        }
        if (!document.activeElement || document.activeElement === document.body) {
          moved.focus({ preventScroll: true });
        }
      }
    }
    // Typing in progress is kept while a tile or choice is scored (not when it was just added).
    Object.keys(used.name === "action" ? {} : state.typed || {}).forEach(function (id) {
      var field = document.getElementById(id);
      if (field && !field.value) {
        field.value = state.typed[id];
      }
    });
    requests.done();
  });
})();
