// findings: small progressive enhancements. The site works without this file.
(function () {
  "use strict";
  // "Link to this finding": a copy button beside the selectable text.
  // Without JS (or without the Clipboard API) the button stays hidden and
  // the readonly field is there to select and copy by hand.
  document.querySelectorAll("button.copy-button[data-copy-target]").forEach(function (btn) {
    var source = document.getElementById(btn.getAttribute("data-copy-target"));
    if (!source) return;
    // A click in the field selects all of it, ready to copy.
    source.addEventListener("focus", function () { source.select(); });
    if (!navigator.clipboard || !window.isSecureContext) return;
    var label = btn.textContent;
    var timer;
    btn.setAttribute("aria-live", "polite");
    btn.hidden = false;
    btn.addEventListener("click", function () {
      navigator.clipboard.writeText(source.value).then(function () {
        btn.textContent = "Copied";
        clearTimeout(timer);
        timer = setTimeout(function () { btn.textContent = label; }, 2000);
      }, function () {
        source.focus();
        source.select();
      });
    });
  });

  // "/" jumps to the search box in the header, as on many sites.
  var search = document.getElementById("site-search-q");
  if (search) {
    document.addEventListener("keydown", function (ev) {
      if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      var t = ev.target;
      var tag = t && t.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
      ev.preventDefault();
      search.focus();
    });
  }
})();
