/* The share button of a saved score or ruling (templates/results/_share.html): the Web Share API
   where the browser has it (phones), otherwise the clipboard. Without JavaScript the button stays
   hidden and the link above it is there to copy by hand. */
(function () {
  "use strict";

  var canShare = typeof navigator.share === "function";

  function reveal(root) {
    if (!root || typeof root.querySelectorAll !== "function") {
      return;
    }
    var buttons = Array.from(root.querySelectorAll(".share__button"));
    if (root.matches && root.matches(".share__button")) {
      buttons.push(root);
    }
    buttons.forEach(function (button) {
      button.textContent = canShare ? "Share link" : "Copy link";
      button.hidden = false;
    });
  }

  function say(button, message) {
    var status = button.parentNode.querySelector(".share__status");
    if (status) {
      status.textContent = message;
    }
  }

  function copyBySelection(button, url) {
    // Browsers without navigator.clipboard (pages served over plain HTTP): select the link and
    // copy the selection.
    var link = button.closest(".share").querySelector(".share__url");
    var range = document.createRange();
    range.selectNodeContents(link);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    say(button, copied ? "Link copied." : "The link is selected: copy it to share " + url + ".");
  }

  function copy(button, url) {
    if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
      navigator.clipboard.writeText(url).then(
        function () { say(button, "Link copied."); },
        function () { copyBySelection(button, url); }
      );
    } else {
      copyBySelection(button, url);
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".share__button") : null;
    if (!button) {
      return;
    }
    var url = button.getAttribute("data-share-url");
    if (canShare) {
      navigator.share({ title: button.getAttribute("data-share-title") || document.title, url: url })
        .then(function () { say(button, "Shared."); })
        .catch(function (error) {
          // Closing the share sheet is not a failure; anything else falls back to the clipboard.
          if (!error || error.name !== "AbortError") {
            copy(button, url);
          }
        });
    } else {
      copy(button, url);
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  } else {
    reveal(document);
  }
  // Results swapped in by htmx carry their own button.
  document.addEventListener("htmx:load", function (event) { reveal(event.detail && event.detail.elt); });
}());
