/* Factions pages ("Check a move", "Standings"): progressive enhancement only; the forms work
   without it.
   As a player's name is typed, every list of players (whose turn, who controls a faction, the
   target player) and the seat's heading show it instead of "Player N" (site.js moves the focus
   to an answer htmx swaps in). */
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

  /* The controller follows the choice (as the server does without this script): choosing a
     player's own faction makes them its controller, and the faction the page had given that
     seat by default is no longer in play. A controller a person chose is left alone. */
  function marker(select) {
    return document.querySelector("input[data-controller-auto='" + select.id + "']");
  }

  function automatic(select) {
    var auto = marker(select);
    return auto && auto.value === select.value;
  }

  function setAutomatic(select, seat) {
    select.value = seat;
    marker(select).value = seat;
  }

  function followOwnFaction(own) {
    var seat = own.name.match(/^p(\d+)-own$/)[1];
    document.querySelectorAll("input[data-controller-auto]").forEach(function (auto) {
      var select = document.getElementById(auto.getAttribute("data-controller-auto"));
      if (!select || !automatic(select)) {
        return;
      }
      var slug = select.id.replace(/^f-/, "").replace(/-controller$/, "");
      if (slug === own.value) {
        setAutomatic(select, seat);
      } else if (select.value === seat) {
        setAutomatic(select, "");
      }
    });
  }

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!target.matches) {
      return;
    }
    if (target.matches("select[name$='-own']") && /^p\d+-own$/.test(target.name)) {
      followOwnFaction(target);
    } else if (target.matches("select[data-seat-select]") && marker(target)) {
      marker(target).value = "chosen";  // a person's choice: no longer the page's default
    }
  });

  document.addEventListener("input", function (event) {
    var input = event.target;
    if (input.matches && input.matches("input[data-seat]")) {
      renameSeat(input);
    }
  });
})();
