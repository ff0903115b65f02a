// The page's own script, loaded by every page (index.html) as a module: it
// runs once the page is parsed, never blocking the first paint. What must
// act before anything is painted (the theme, the language redirect) stays
// inline in index.html. The wasm calls the `window.ih*` helpers below;
// e2e tests call `ihWhenNeeded.all`.

// What the page's own scripts say, in the page's language: the `page_*`
// strings of app/locales/<lang>.json, which the build puts in the page's head
// (#ih-words, xtask/src/render.rs). `%{n}` takes `n`.
window.ihSay = (function () {
  var words = {};
  try { words = JSON.parse(document.getElementById("ih-words").textContent); } catch (e) {}
  return function (key, n) { return (words[key] || key).replace("%{n}", n); };
})();
// Charts: plotly.js (cartesian bundle) is loaded on the first chart only.
(function () {
  var loading = null;
  function loadPlotly() {
    if (window.Plotly) return Promise.resolve();
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = "/plotly.min.js";
        s.onload = function () {
          resolve();
        };
        s.onerror = function () { loading = null; reject(new Error(ihSay("plotly_failed"))); };
        document.head.appendChild(s);
      });
    }
    return loading;
  }
  function colours() {
    var css = getComputedStyle(document.documentElement);
    return { fg: css.getPropertyValue("--fg").trim() || "#222", grid: css.getPropertyValue("--rule").trim() || "#ddd" };
  }
  // A title broken into lines of at most `max` characters (plotly does not wrap).
  function wrap(text, max) {
    var lines = [], line = "";
    String(text).split(" ").forEach(function (w) {
      if (line && (line + " " + w).length > max) { lines.push(line); line = w; } else { line = line ? line + " " + w : w; }
    });
    if (line) lines.push(line);
    return lines;
  }
  // What depends on the moment of drawing: the theme's colours and the chart's width.
  function fit(el, fig) {
    var c = colours(), L = fig.layout, width = el.clientWidth || 600;
    if (!L.title._text) L.title._text = L.title.text;
    var lines = wrap(L.title._text, Math.max(24, Math.floor(width / 8.5)));
    L.title.text = lines.join("<br>");
    L.title.font = { size: width < 500 ? 13 : 14 };
    L.paper_bgcolor = "rgba(0,0,0,0)";
    L.plot_bgcolor = "rgba(0,0,0,0)";
    L.font = { color: c.fg, family: "system-ui, sans-serif", size: width < 500 ? 11 : 12 };
    L.xaxis.gridcolor = c.grid;
    L.yaxis.gridcolor = c.grid;
    var top = 24 + 18 * lines.length, bottom = 50;
    if (L.legend) {
      // The legend goes under the x-axis title: estimate its rows at this width.
      // plotly lines entries up in columns as wide as the widest entry.
      var widest = 0, n = fig.data.length;
      fig.data.forEach(function (t) { widest = Math.max(widest, 44 + 7 * String(t.name || "").length); });
      var perRow = Math.max(1, Math.floor((width - 20) / widest));
      var rows = Math.ceil(n / perRow);
      var legendHeight = 22 * rows;
      bottom = 66 + legendHeight;
      // Rows of legend past the first make the chart taller, not the plot smaller.
      if (!fig._height) fig._height = L.height;
      L.height = fig._height + Math.max(0, legendHeight - 22);
      el.style.height = L.height + "px";
      var plotHeight = L.height - top - bottom;
      L.legend.y = -64 / plotHeight;
      L.legend.yanchor = "top";
    }
    var left = width < 500 ? 52 : 60;
    if (fig.data[0] && fig.data[0].type === "heatmap") {
      // Row labels are words: make room for the longest, and its axis title.
      var longest = 0;
      (fig.data[0].y || []).forEach(function (y) { longest = Math.max(longest, String(y).length); });
      var narrow = width < 500;
      if (!L.yaxis.title._text) L.yaxis.title._text = L.yaxis.title.text;
      // On a phone the row labels say enough; the axis title would take a fifth of the width.
      var dropTitle = narrow && longest > 8;
      L.yaxis.title.text = dropTitle ? "" : L.yaxis.title._text;
      left = (dropTitle ? 10 : 30) + Math.ceil(longest * (narrow ? 6 : 6.6));
      var cols = (fig.data[0].x || []).length;
      if (cols > 24) L.xaxis.nticks = Math.max(4, Math.floor((width - left - 80) / 45));
      fig.data[0].colorbar = fig.data[0].colorbar || {};
      fig.data[0].colorbar.thickness = narrow ? 12 : 20;
    }
    L.margin = { l: left, r: 10, t: top, b: bottom };
    L.xaxis.automargin = false;
    L.yaxis.automargin = false;
  }
  function draw(el) {
    var fig = el._ihFigure;
    return loadPlotly()
      .then(function () { fit(el, fig); return window.Plotly.react(el, fig.data, fig.layout, fig.config); })
      .then(function () { el.dataset.drawn = "true"; el._ihWidth = el.clientWidth; })
      .catch(function (e) { el.textContent = ihSay("chart_unavailable") + e.message; });
  }
  window.ihRestyle = function () {
    document.querySelectorAll(".chart[data-drawn]").forEach(function (el) { draw(el); });
  };
  window.ihPlot = function (el, json) {
    el._ihFigure = JSON.parse(json);
    // Draw when the chart comes near the screen: plotly.js (and its main-thread
    // cost) stays off the critical path until a reader scrolls to a chart.
    if (el.dataset.drawn || !("IntersectionObserver" in window)) return draw(el);
    if (el._ihObserver) el._ihObserver.disconnect();
    var io = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) { io.disconnect(); el._ihObserver = null; draw(el); }
    }, { rootMargin: "400px 0px" });
    el._ihObserver = io;
    io.observe(el);
  };
  // A new width (phone turned, window resized) re-fits titles and legends.
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () {
      document.querySelectorAll(".chart[data-drawn]").forEach(function (el) {
        if (el.clientWidth !== el._ihWidth) draw(el);
      });
    }, 200);
  });
  // Print keeps everything: every chart drawn, every fold open, then folds restored.
  var opened = [];
  window.addEventListener("beforeprint", function () {
    // With plotly.js loaded, plotly draws a chart synchronously, before the print
    // is laid out. Without it (no chart seen yet) the drawing would miss this
    // print: a chart not drawn prints its data table instead.
    document.querySelectorAll(".chart").forEach(function (el) {
      if (!el._ihFigure || el.dataset.drawn) return;
      if (el._ihObserver) { el._ihObserver.disconnect(); el._ihObserver = null; }
      if (window.Plotly) {
        var fig = el._ihFigure;
        fit(el, fig);
        el.dataset.drawn = "true";
        window.Plotly.react(el, fig.data, fig.layout, fig.config);
      } else {
        draw(el);
      }
    });
    document.querySelectorAll(".selftest details, .chart-figure").forEach(function (f) {
      var d = f.tagName === "DETAILS" ? f : f.querySelector(".chart:not([data-drawn]) ~ details.chart-data");
      if (d && !d.open) { d.open = true; opened.push(d); }
    });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
})();
// Cells arrive with the output of their defaults (computed at build
// time), so a cell with the defaults runs in the page only when it is
// needed (app/src/cell.rs): when it comes within a screen of the view.
// Until a cell runs or code is graded, the workers' module is not fetched.
(function () {
  var pending = new Map(), io = null;
  function go(id) {
    var cb = pending.get(id);
    if (!cb) return;
    pending.delete(id);
    var el = document.getElementById(id);
    if (io && el) io.unobserve(el);
    cb();
  }
  if ("IntersectionObserver" in window) io = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) { if (e.isIntersecting) go(e.target.id); });
  }, { rootMargin: "100% 0px" });
  window.ihWhenNeeded = function (id, cb) {
    var el = document.getElementById(id);
    if (!el || !io) return cb();
    pending.set(id, cb);
    io.observe(el);
  };
  // Runs every cell still waiting, wherever it is (the e2e tests use it).
  window.ihWhenNeeded.all = function () { Array.from(pending.keys()).forEach(go); };
})();
// The workers' wasm module (app/worker: demos, judge, Rhai), fetched and
// compiled once, off the main thread, when the page starts its first
// worker (app/src/worker.rs), then handed to every worker it starts.
(function () {
  var compiled = null, url = "/pkg/app_worker_bg.wasm";
  window.ihWorkerModule = function () {
    if (!compiled) {
      compiled = fetch(url).then(function (r) {
        if (!r.ok) throw new Error(url + ": HTTP " + r.status);
        var wasm = /^application\/wasm\b/.test(r.headers.get("content-type") || "");
        return wasm && WebAssembly.compileStreaming ? WebAssembly.compileStreaming(r)
          : r.arrayBuffer().then(function (b) { return WebAssembly.compile(b); });
      });
      // A failed download is tried again by the next worker.
      compiled.catch(function () { compiled = null; });
    }
    return compiled;
  };
})();
// Code editors: CodeMirror (dist/editor.js) is loaded when the first editor
// comes near the screen, then every editor on the page gets one. Until then
// (and without it) the plain textarea works.
(function () {
  var waiting = [], loaded = null, io = null;
  function load() {
    if (!loaded) {
      loaded = import("/editor.js").then(function (m) {
        waiting.forEach(function (el) { m.mount(el); });
        waiting = [];
        return m;
      });
      loaded.catch(function () { loaded = null; });
    }
    return loaded;
  }
  window.ihEditor = function (el) {
    if (loaded) { loaded.then(function (m) { m.mount(el); }); return; }
    waiting.push(el);
    if (!("IntersectionObserver" in window)) { load(); return; }
    if (!io) io = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) { io.disconnect(); load(); }
    }, { rootMargin: "600px 0px" });
    io.observe(el);
  };
  window.ihEditorMark = function (el, message) {
    if (loaded) loaded.then(function (m) { m.mark(el, message); });
  };
})();
// A link to a place on this page (the contents, a cross-reference): lay
// the whole page out before the browser scrolls, so that it lands where
// the link points (style/book.css skips blocks off screen until then).
document.addEventListener("click", function (e) {
  var a = e.target.closest && e.target.closest("a[href^='#']");
  if (a) document.documentElement.setAttribute("data-settled", "true");
}, true);
// Contents: mark the section being read.
(function () {
  var pending = false;
  function mark() {
    pending = false;
    var current = null;
    document.querySelectorAll(".chapter h2[id]").forEach(function (h) {
      if (h.getBoundingClientRect().top < 120) current = h.id;
    });
    document.querySelectorAll(".toc a").forEach(function (a) {
      var on = current !== null && a.getAttribute("href") === "#" + current;
      a.classList.toggle("active", on);
      if (on) a.setAttribute("aria-current", "location"); else a.removeAttribute("aria-current");
    });
  }
  document.addEventListener("scroll", function () {
    if (!pending) { pending = true; requestAnimationFrame(mark); }
  }, { passive: true });
})();
// Shared links (app/src/share.rs): JSON ⇄ deflate-raw (the browser's own
// CompressionStream) ⇄ base64url, and the clipboard. Callbacks get (error, value).
window.ihShare = (function () {
  var MAX = 200000; // bytes a payload may inflate to
  function b64(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function unb64(text) {
    var t = text.replace(/-/g, "+").replace(/_/g, "/");
    while (t.length % 4) t += "=";
    var s = atob(t), b = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
    return b;
  }
  function through(bytes, stream) {
    return new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer()
      .then(function (b) { return new Uint8Array(b); });
  }
  function settle(p, cb) {
    p.then(function (v) { cb(null, v); }, function (e) { cb(String(e && e.message || e)); });
  }
  return {
    encode: function (text, cb) {
      var bytes = new TextEncoder().encode(text);
      settle(typeof CompressionStream === "function"
        ? through(bytes, new CompressionStream("deflate-raw")).then(function (b) { return "z" + b64(b); })
        : Promise.resolve("u" + b64(bytes)), cb);
    },
    decode: function (payload, cb) {
      settle(Promise.resolve().then(function () {
        var kind = payload.charAt(0), bytes;
        try { bytes = unb64(decodeURIComponent(payload.slice(1))); } catch (e) { throw new Error(ihSay("link_cut")); }
        if (kind === "u") return bytes;
        if (kind !== "z") throw new Error(ihSay("link_other_version"));
        if (typeof DecompressionStream !== "function") throw new Error(ihSay("link_no_decompress"));
        return through(bytes, new DecompressionStream("deflate-raw"))
          .catch(function () { throw new Error(ihSay("link_damaged_cut")); });
      }).then(function (b) {
        if (b.length > MAX) throw new Error(ihSay("link_too_big", MAX));
        try { return new TextDecoder("utf-8", { fatal: true }).decode(b); } catch (e) { throw new Error(ihSay("link_damaged")); }
      }), cb);
    },
    copy: function (text, cb) {
      // A clipboard that does not answer in 3 s counts as refused: the
      // link is on screen to copy by hand either way.
      settle(navigator.clipboard && navigator.clipboard.writeText
        ? Promise.race([
            navigator.clipboard.writeText(text).then(function () { return "copied"; }),
            new Promise(function (_, no) { setTimeout(function () { no(new Error(ihSay("clipboard_silent"))); }, 3000); })
          ])
        : Promise.reject(new Error(ihSay("no_clipboard"))), cb);
    }
  };
})();
// Search: the dialog (search.js) and Pagefind's index load on the first
// `/`, Ctrl/Cmd+K or click on the header's Search button, never before.
(function () {
  var loading = null;
  function open() {
    if (!loading) {
      loading = import("/search.js");
      loading.catch(function () { loading = null; });
    }
    loading.then(function (m) { m.open(); }, function (e) {
      var b = document.querySelector(".search-open");
      if (b) b.title = ihSay("search_failed") + e.message;
    });
  }
  window.ihSearch = open;
  document.addEventListener("keydown", function (e) {
    var t = e.target, typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
    if ((e.key === "k" || e.key === "K") && (e.ctrlKey || e.metaKey) && !e.altKey) {
      e.preventDefault();
      open();
    } else if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      open();
    }
  });
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest(".search-open")) open();
  });
})();
// Download notebook (#11 §2): web/notebook.js, loaded on the first click, fills the
// chapter's notebook with the values in the cells' inputs (pre-rendered, so this
// works before the wasm mounts). Without JavaScript the link downloads the defaults.
document.addEventListener("click", function (e) {
  var link = e.target.closest && e.target.closest("a[data-notebook]");
  if (!link || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  import("/notebook.js").then(function (m) { return m.download(link); }).catch(function (err) {
    var box = document.createElement("span");
    box.className = "notebook-status error";
    box.setAttribute("role", "alert");
    box.textContent = ihSay("notebook_failed") + String(err && err.message || err);
    link.parentElement.appendChild(box);
  });
});
// The page's wasm (320 KB brotli) starts after the text's first paint, so
// on a slow network the text and its largest paint never share the link
// with it (#24). A module script runs once the page is parsed; the frame
// after that paints what the build rendered.
function start() {
  import("/pkg/app.js").then(function (m) { return m.default(); }).catch(function (e) {
    // The text is already on the page: say what does not work, keep the rest.
    var p = document.createElement("p");
    p.className = "error start-error";
    p.setAttribute("role", "alert");
    p.textContent = ihSay("cannot_start") + String(e);
    document.body.insertBefore(p, document.body.firstChild);
  });
}
requestAnimationFrame(function () { setTimeout(start, 0); });
// Offline: the service worker (dist/sw.js, see web/sw.js) caches the whole
// book. It registers once the page is up (loaded and mounted), so its
// download never competes with the first paint or the mount. A new
// build's worker installs in the background and waits; the reader is
// told, and "Reload" switches.
(function () {
  if (!("serviceWorker" in navigator)) return;
  var sw = navigator.serviceWorker, asked = false, controlled = !!sw.controller;
  function notice(waiting) {
    if (document.querySelector('.notice[data-topic="update"]')) return;
    var box = document.createElement("div"), text = document.createElement("span");
    var reload = document.createElement("button"), dismiss = document.createElement("button");
    box.className = "notice update-notice";
    box.setAttribute("role", "status");
    box.dataset.topic = "update";
    text.textContent = ihSay("new_version");
    reload.type = dismiss.type = "button";
    reload.className = "run";
    reload.textContent = ihSay("reload");
    dismiss.className = "secondary";
    dismiss.textContent = ihSay("dismiss");
    var keep = null;
    reload.addEventListener("click", function () {
      reload.disabled = true;
      // The page reloads when the new worker has taken over (controllerchange).
      if (waiting && waiting.state === "installed") { asked = true; waiting.postMessage({ type: "skip-waiting" }); }
      else location.reload();
    });
    dismiss.addEventListener("click", function () { if (keep) keep.disconnect(); box.remove(); });
    var actions = document.createElement("div");
    actions.className = "notice-actions";
    actions.append(reload, dismiss);
    box.append(text, actions);
    var host = document.querySelector(".notices");
    if (!host) { document.body.insertBefore(box, document.body.firstChild); return; }
    host.appendChild(box);
    // The page's wasm empties the notices' container when it mounts: put the notice back.
    keep = new MutationObserver(function () { if (!box.isConnected) host.appendChild(box); });
    keep.observe(host, { childList: true });
  }
  sw.addEventListener("controllerchange", function () {
    if (asked) { location.reload(); return; }
    // Another tab switched to the new version: this page is still the old one.
    if (controlled) notice(null);
    controlled = true;
  });
  function register() {
    sw.register("/sw.js").then(function (reg) {
      function track(w) {
        if (w) w.addEventListener("statechange", function () {
          if (w.state === "installed" && reg.active) notice(w);
        });
      }
      if (reg.waiting && reg.active) notice(reg.waiting);
      track(reg.installing);
      reg.addEventListener("updatefound", function () { track(reg.installing); });
    }).catch(function () {});
  }
  // `load` fires before the wasm has mounted: wait for that too
  // (html[data-ready]), at most 15 s.
  function whenUp() {
    var since = Date.now();
    (function check() {
      var up = document.documentElement.hasAttribute("data-ready");
      if (up || Date.now() - since > 15000) {
        if ("requestIdleCallback" in window) requestIdleCallback(register); else setTimeout(register);
      } else setTimeout(check, 250);
    })();
  }
  if (document.readyState === "complete") whenUp(); else window.addEventListener("load", whenUp);
})();
// Glossary previews (#30): a term's definition shows beside its link while the
// link is hovered or focused (style/book.css); here it is kept inside the
// window, and Esc hides it until the pointer or the focus leaves the term.
(function () {
  function place(term) {
    var def = term.querySelector(".term-def");
    if (!def) return;
    def.style.left = "";
    var r = def.getBoundingClientRect(), over = r.right - (document.documentElement.clientWidth - 8);
    if (over > 0) def.style.left = -Math.min(over, r.left - 8) + "px";
  }
  function show(e) {
    var term = e.target.closest && e.target.closest(".term");
    if (term) requestAnimationFrame(function () { place(term); });
  }
  document.addEventListener("mouseover", show);
  document.addEventListener("focusin", show);
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    var open = document.querySelectorAll(".term:hover, .term:focus-within");
    for (var i = 0; i < open.length; i++) open[i].classList.add("dismissed");
  });
  function undismiss(e) {
    var term = e.target.closest && e.target.closest(".term.dismissed");
    if (term && !(e.relatedTarget && term.contains(e.relatedTarget))) term.classList.remove("dismissed");
  }
  document.addEventListener("mouseout", undismiss);
  document.addEventListener("focusout", undismiss);
})();
