/* The tile picker of the Star Trek: Missions score pages (games/star_trek_missions/templates/
   star_trek_missions/_picker.html): progressive enhancement only. Without JavaScript the type chips (radio
   buttons) show one group at a time and every tile is a submit button. With it:
   - "Find a card" shows, and narrows the tiles of every group as you type: a name (any case,
     without its punctuation: "kehleyr"), a number ("G27"), or the start of a type, specialty,
     lifeform or affiliation ("comm", "klingon");
   - Enter in it presses the one tile left, then empties it for the next card;
   - the table page swaps the picker with every change: what was typed in it is kept. */
(function () {
  "use strict";

  function normalise(text) {
    return String(text || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .toLowerCase().replace(/[^a-z0-9]+/g, "");
  }

  function matches(tile, words) {
    var data = tile.getAttribute("data-find") || "";
    var name = normalise((tile.querySelector(".pick-tile__name") || tile).textContent);
    var parts = data.split(/\s+/).map(normalise);
    return words.every(function (word) {
      return name.indexOf(word) !== -1 || parts.some(function (part) {
        return part.indexOf(word) === 0;
      });
    });
  }

  function filter(picker) {
    var input = picker.querySelector("#find-card");
    var count = picker.querySelector("#find-card-count");
    var text = input ? input.value : "";
    var words = text.split(/\s+/).map(normalise).filter(Boolean);
    var finding = words.length > 0;
    picker.classList.toggle("picker--finding", finding);
    var shown = 0;
    picker.querySelectorAll(".picker__panel").forEach(function (panel) {
      var inPanel = 0;
      panel.querySelectorAll(".pick-tiles > li").forEach(function (item) {
        var tile = item.querySelector(".pick-tile");
        var keep = !finding || (tile && matches(tile, words));
        item.hidden = !keep;
        if (keep) {
          inPanel += 1;
        }
      });
      panel.hidden = finding && inPanel === 0;
      shown += finding ? inPanel : 0;
    });
    if (count) {
      count.textContent = !finding ? "" : shown === 0 ? "No card matches." :
        shown === 1 ? "1 card: press Enter to pick it." : shown + " cards.";
    }
    return shown;
  }

  function only(picker) {
    var tiles = Array.prototype.filter.call(
      picker.querySelectorAll(".pick-tiles > li:not([hidden]) .pick-tile"),
      function (tile) { return !tile.disabled; });
    return tiles.length === 1 ? tiles[0] : null;
  }

  function setUp(root) {
    var pickers = [];
    if (root.matches && root.matches("[data-picker]")) {
      pickers.push(root);
    }
    if (root.querySelectorAll) {
      pickers = pickers.concat(Array.prototype.slice.call(root.querySelectorAll("[data-picker]")));
    }
    pickers.forEach(function (picker) {
      var find = picker.querySelector("[data-picker-find]");
      if (find) {
        find.hidden = false;
      }
      if (kept !== null) {
        var input = picker.querySelector("#find-card");
        if (input) {
          input.value = kept.value;
          if (kept.focused) {
            input.focus({ preventScroll: true });
          }
        }
        kept = null;
      }
      filter(picker);
    });
  }

  var kept = null; // what was typed in "Find a card" while the table page swapped the picker

  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "find-card") {
      filter(event.target.closest("[data-picker]"));
    }
  });

  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (!input || input.id !== "find-card") {
      return;
    }
    if (event.key === "Enter") {
      event.preventDefault(); // never submits the form with its first button
      var picker = input.closest("[data-picker]");
      var tile = only(picker);
      if (tile) {
        input.value = "";
        filter(picker);
        tile.click();
      }
    } else if (event.key === "Escape" && input.value) {
      event.preventDefault();
      input.value = "";
      filter(input.closest("[data-picker]"));
    }
  });

  document.addEventListener("htmx:beforeSwap", function () {
    var input = document.getElementById("find-card");
    if (input && input.value) {
      kept = { value: input.value, focused: document.activeElement === input };
    }
  });

  document.addEventListener("htmx:load", function (event) {
    setUp(event.detail.elt);
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  } else {
    setUp(document);
  }
})();
