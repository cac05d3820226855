/* One score form whose requests must not overlap (the whole hand or table travels in it), shared
   by score-hand.js and score-table.js. With htmx, presses and choices made while a score is on
   its way are held and sent one by one after it, so that none is lost; the anchors of the
   buttons' formaction (#tile-…, #hand) are for the page reload without JavaScript: htmx would
   scroll that element to the top after the swap, so they are dropped from its requests.

   scoringFormQueue(options) listens on the document and returns {form, inForm, done}:
   - options.formId: the form's id;
   - options.remember(element): called with the button or select that starts a request;
   - options.skipDisabled: a held press never goes to a button that is now disabled;
   - options.failed(detail): whether an htmx:afterRequest swapped nothing (default: not
     successful); then the held presses are dropped;
   - done(): the page calls it once the swap has settled, to send the next held press. */
(function () {
  "use strict";

  window.scoringFormQueue = function (options) {
    var busy = false;
    var queue = [];
    var failed = options.failed || function (detail) {
      return !detail.successful;
    };

    function form() {
      return document.getElementById(options.formId);
    }

    function inForm(element) {
      var theForm = form();
      return Boolean(theForm && element && theForm.contains(element));
    }

    // Controls used while a request is on its way wait their turn.
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("button[type='submit']");
      if (!button || !inForm(button)) {
        return;
      }
      if (busy) {
        event.preventDefault();
        event.stopImmediatePropagation();
        // By what the button does, not its id: Remove buttons are numbered by place.
        queue.push({ name: button.name, value: button.value });
        return;
      }
      options.remember(button);
    }, true);

    document.addEventListener("change", function (event) {
      var select = event.target;
      if (!select || select.tagName !== "SELECT" || !inForm(select)) {
        return;
      }
      if (busy) {
        event.stopImmediatePropagation();
        queue.push({ id: select.id, value: select.value });
        return;
      }
      options.remember(select);
    }, true);

    function find(item) {
      if (item.id) {
        return document.getElementById(item.id);
      }
      var buttons = form() ? form().querySelectorAll("button[type='submit']") : [];
      for (var i = 0; i < buttons.length; i++) {
        if (buttons[i].name === item.name && buttons[i].value === item.value &&
            !(options.skipDisabled && buttons[i].disabled)) {
          return buttons[i];
        }
      }
      return null;
    }

    function replay() {
      var next = queue.shift();
      if (!next) {
        return;
      }
      var element = find(next);
      if (!element || !inForm(element)) {
        replay();
        return;
      }
      if (element.tagName === "SELECT") {
        element.value = next.value;
        element.dispatchEvent(new Event("change", { bubbles: true }));
      } else {
        element.click();
      }
    }

    document.addEventListener("htmx:configRequest", function (event) {
      if (inForm(event.detail.elt) || event.detail.elt === form()) {
        event.detail.path = String(event.detail.path).split("#")[0];
      }
    });

    document.addEventListener("htmx:beforeRequest", function (event) {
      if (inForm(event.detail.elt) || event.detail.elt === form()) {
        busy = true;
      }
    });

    document.addEventListener("htmx:afterRequest", function (event) {
      if (failed(event.detail)) {
        busy = false; // nothing was swapped: the page stays as it was
        queue = [];
      }
    });

    return {
      form: form,
      inForm: inForm,
      done: function () {
        busy = false;
        replay();
      },
    };
  };
})();
