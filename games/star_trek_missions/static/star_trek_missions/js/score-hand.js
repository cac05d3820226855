/* Score a hand: small enhancements on top of htmx. The form works without any of it (a plain
   POST renders the whole page); with htmx each change swaps the hand and choices (#score-live)
   and, out of band, the breakdown and the tiles that changed; this file
   - keeps the control that was used where it was on the screen (the hand above it grows and
     shrinks as cards are added; the anchors of the buttons' formaction are for the page reload
     without JavaScript, not for htmx), and keeps the focus when that control is gone (htmx
     gives it back by id; Remove buttons are numbered by place, so the next card's takes over;
     after the last card, the one before it, else the hand's heading);
   - keeps what is being typed in the "add a card" field while another change is scored;
   - holds taps and choices made while a score is on its way, and sends them one by one after it,
     so that none is lost (the hand travels in the form, so requests must not overlap): that part
     is form-queue.js, shared with the table page. */
(function () {
  "use strict";

  var LIVE_ID = "score-live"; // the main target of the swaps (the rest comes out of band)
  var trigger = null; // {id, top} of the control that started the request
  var before = null; // what to restore after the swap
  var addAction = false;
  var settling = false; // htmx sends afterSwap and afterSettle once per element swapped in

  function live() {
    return document.getElementById(LIVE_ID);
  }

  function remember(element) {
    if (element && element.id) {
      trigger = { id: element.id, top: element.getBoundingClientRect().top };
    }
  }

  var requests = window.scoringFormQueue({ formId: "score-form", remember: remember });
  var form = requests.form;
  var inForm = requests.inForm;

  document.addEventListener("htmx:configRequest", function (event) {
    var data = event.detail.formData;
    // A name added by typing it or by its "Did you mean …?" button: the field is emptied for the next.
    addAction = Boolean(data && typeof data.get === "function" &&
      (data.get("action") === "add" || data.get("pick")));
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target !== live()) {
      return;
    }
    settling = true;
    var active = document.activeElement;
    var removes = Array.prototype.slice.call(form().querySelectorAll(".hand-card__remove"));
    var typed = document.getElementById("add-card");
    before = {
      activeId: inForm(active) ? active.id : "",
      removeIndex: removes.indexOf(active),
      typed: typed ? typed.value : "",
      trigger: trigger,
    };
    // Where the control is now (the page may have scrolled since the press), if it is laid out: a
    // control without a box reads top 0, and the correction would scroll it to the screen's top.
    if (before.trigger) {
      var element = document.getElementById(before.trigger.id);
      if (element && element.getClientRects().length) {
        before.trigger.top = element.getBoundingClientRect().top;
      }
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target !== live() || !before) {
      return;
    }
    var state = before;
    before = null;
    trigger = null;
    // The control used stays where it was on the screen.
    if (state.trigger) {
      var moved = document.getElementById(state.trigger.id);
      if (moved && moved.getClientRects().length) {
        var delta = moved.getBoundingClientRect().top - state.trigger.top;
        if (Math.abs(delta) > 1) {
          window.scrollBy(0, delta);
        }
      }
    }
    // Typing in progress is kept, unless that text was just added to the hand.
    var typed = document.getElementById("add-card");
    if (typed && !addAction && state.typed && typed.value !== state.typed) {
      typed.value = state.typed;
    }
    // htmx gives the focus back to the control with the same id; when there is none (the last
    // card was taken out), the focus goes to the card now last, or the hand's heading.
    if (state.activeId && (!document.activeElement || document.activeElement === document.body)) {
      var removes = form().querySelectorAll(".hand-card__remove");
      var next = null;
      if (state.removeIndex >= 0 && removes.length) {
        next = removes[Math.min(state.removeIndex, removes.length - 1)];
      }
      next = next || document.getElementById("hand-heading");
      if (next) {
        next.focus({ preventScroll: false });
      }
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!settling) {
      return;
    }
    settling = false;
    requests.done();
  });
})();
