/* Check a turn: after htmx swaps in a ruling (or the problems with the form), move the focus to
   its heading, so keyboard and screen-reader users land on the answer. Works without it too. */
(function () {
  "use strict";

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "turn-result") {
      return;
    }
    var heading = target.querySelector("[data-focus]");
    if (heading) {
      heading.focus();
      heading.scrollIntoView({ block: "start" });
    }
  });
})();
