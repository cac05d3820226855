/* Academy Credits pages ("Check a play", "Score a round"): progressive enhancement only.
   The seat pickers (target, starter) name each seat after the cadet typed in it, as they type
   (site.js moves the focus to an answer htmx swaps in).
   Without JavaScript the forms work the same; the pickers then show the names after a submit. */
(function () {
  "use strict";

  function seatNumber(input) {
    var match = /^player-(\d+)-name$/.exec(input.id || "");
    return match ? match[1] : null;
  }

  function relabel(number, name) {
    var label = name.trim() || "Seat " + number;
    var selects = document.querySelectorAll("select[data-seat-names]");
    Array.prototype.forEach.call(selects, function (select) {
      Array.prototype.forEach.call(select.options, function (option) {
        if (option.value === number) {
          option.textContent = label;
        }
      });
    });
  }

  document.addEventListener("input", function (event) {
    var number = seatNumber(event.target);
    if (number) {
      relabel(number, event.target.value);
    }
  });
})();
