/* Star Realms Academy pages ("Check a move", "Break down a turn"): after htmx swaps in the answer
   (or the problems with the form), move the focus to its heading, so keyboard and screen-reader
   users land on it. Everything works without this script too. */
(function () {
  "use strict";

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "sra-result") {
      return;
    }
    var heading = target.querySelector("[data-focus]");
    if (heading) {
      heading.focus();
      heading.scrollIntoView({ block: "start" });
    }
  });
})();
