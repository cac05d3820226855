/* Factions pages ("Check a move", "Standings"): progressive enhancement only; the forms work
   without it.
   - As a player's name is typed, every list of players (whose turn, who controls a faction, the
     target player) and the seat's heading show it instead of "Player N".
   - After htmx swaps in an answer, the focus moves to its heading, so keyboard and screen-reader
     users land on it. */
(function () {
  "use strict";

  function seatName(input) {
    var typed = input.value.trim();
    return typed || input.getAttribute("placeholder") || "";
  }

  function renameSeat(input) {
    var seat = input.getAttribute("data-seat");
    var name = seatName(input);
    document.querySelectorAll("select[data-seat-select] option[value='" + seat + "']")
      .forEach(function (option) { option.textContent = name; });
    document.querySelectorAll("[data-seat-name='" + seat + "']")
      .forEach(function (label) { label.textContent = name; });
  }

  document.addEventListener("input", function (event) {
    var input = event.target;
    if (input.matches && input.matches("input[data-seat]")) {
      renameSeat(input);
    }
  });

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
