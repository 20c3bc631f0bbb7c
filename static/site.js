// findings: small progressive enhancements. The site works without this file.
(function () {
  "use strict";
  // "Link to this finding": a copy button beside the selectable text.
  document.querySelectorAll("button.copy-button[data-copy-target]").forEach(function (btn) {
    var source = document.getElementById(btn.getAttribute("data-copy-target"));
    if (!source || !navigator.clipboard) return;
    btn.hidden = false;
    btn.addEventListener("click", function () {
      navigator.clipboard.writeText(source.value).then(function () {
        btn.textContent = "Copied";
        setTimeout(function () { btn.textContent = "Copy"; }, 2000);
      }, function () {
        source.select();
      });
    });
  });
})();
