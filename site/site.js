// site.js: the serbench results explorer. Plain JavaScript, no library; it
// reads window.SERBENCH_SITE (data.js, written by serbench site) and keeps
// its state in the URL's hash so that a view can be linked.
(function () {
  "use strict";
  var D = window.SERBENCH_SITE;
  var $ = function (id) { return document.getElementById(id); };

  // REF is the run ns/op is normalised to: the newest run that recorded its
  // calibration loop (-1: none did).
  var REF = -1;
  D.runs.forEach(function (r, i) { if (r.loop_ns > 0) { REF = i; } });
  // normNs is a cell's ns/op normalised by its run's calibration loop, as
  // serbench compare does (report.CalibrationLoopNs): rescaled to the
  // machine speed of run REF. undefined when the run has no loop reading.
  function normNs(c) {
    var r = D.runs[c.r];
    if (REF < 0 || !(r.loop_ns > 0) || !c.ns) { return undefined; }
    return c.ns * D.runs[REF].loop_ns / r.loop_ns;
  }
  // Each metric: its label, how to read it from a cell, whether lower is
  // better, and whether a change of the machine's speed between runs moves
  // it (drift: true) or cancels (measured within the run or normalised).
  var METRICS = {
    ns: { label: "ns/op (raw)", get: function (c) { return c.ns; }, lower: true, drift: true },
    xn: { label: "ns/op normalised by the calibration loop", get: normNs, lower: true, drift: false },
    x: { label: "speed-up vs baseline", get: function (c) { return c.x; }, lower: false, drift: false },
    b: { label: "B/op", get: function (c) { return c.b; }, lower: true, drift: false },
    a: { label: "allocs/op", get: function (c) { return c.a; }, lower: true, drift: false },
    size: { label: "size (bytes)", get: function (c) { return c.size; }, lower: true, drift: false }
  };
  // basisText says in words what a metric is and whether drift moves it.
  function basisText(m) {
    if (m === "x") { return "speed-up over each run's baseline (" + D.runs[D.runs.length - 1].baseline + "), timed within the run: drift-proof"; }
    if (m === "xn") {
      return REF < 0 ? "ns/op normalised by the calibration loop: no run recorded the loop, so nothing to show" :
        "ns/op rescaled to the machine speed of run " + D.runs[REF].started + " by each run's calibration loop: drift-proof as far as the loop sees it";
    }
    if (m === "ns") { return "raw ns/op: moves with the machine's speed between runs as well as with the code"; }
    return METRICS[m].label + ": counted, not timed";
  }
  // Each yes/no filter: the select's id and the test on a codec and its cell.
  var YN = {
    "f-codegen": function (ci) { return ci.codegen; },
    "f-reuse": function (ci) { return ci.reuses_output; },
    "f-zerocopy": function (ci) { return ci.zero_copy; },
    "f-unsafe": function (ci) { return ci.unsafe; },
    // Measured by the alias probe; a run that did not probe the codec
    // falls back to what it states: a zero-copy view aliases its input.
    "f-aliases": function (ci) { return aliases(ci); },
    "f-fidelity": function (ci, cell) { return !!cell && cell.ok; },
    "f-maintained": function (ci) { return ci.maintained; },
    // encoding/json itself, and the codecs measured to replace it:
    // the same bytes and the same decoding of the fidelity probes.
    "f-dropin": function (ci) { return ci.id === "encoding/json" || (ci.drop_in_of === "encoding/json" && ci.drop_in === "drop-in"); }
  };
  var SAFE = { "f-reuse": "no", "f-aliases": "no", "f-fidelity": "yes" };
  function aliases(ci) {
    return (ci.aliases_input === undefined || ci.aliases_input === null) ? ci.zero_copy : ci.aliases_input;
  }
  var FIELDS = ["view", "run", "scenario", "op", "metric", "codec", "old", "new",
    "f-format", "f-kind", "f-api"].concat(Object.keys(YN));

  var state = { view: "table", run: String(D.runs.length - 1), scenario: "0", op: "0", metric: "ns",
    codec: "0", old: String(Math.max(0, D.runs.length - 2)), "new": String(D.runs.length - 1) };

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) { e.setAttribute(k, attrs[k]); }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function fill(sel, options) {
    sel.textContent = "";
    options.forEach(function (o) { sel.appendChild(el("option", { value: o[0] }, o[1])); });
  }
  function uniq(xs) { return xs.filter(function (x, i) { return x && xs.indexOf(x) === i; }).sort(); }
  function num(x) {
    if (x === undefined || x === null || isNaN(x)) { return "-"; }
    if (Math.abs(x) >= 100) { return Math.round(x).toLocaleString("en-US"); }
    return x.toPrecision(3);
  }
  function runLabel(i) {
    var r = D.runs[i];
    return r.started + " · " + r.go + (r.engine ? " (json " + r.engine + ")" : "") + " · " + r.goos + "/" + r.goarch +
      (r.emulated ? " · emulated" : "");
  }
  function envLine(r) {
    var s = r.go + (r.engine ? ", encoding/json " + r.engine : "") + ", " + r.goos + "/" + r.goarch + ", " + (r.cpu || "CPU unknown") +
      ", serbench " + (r.serbench || "unknown");
    s += r.noise_spread >= 0 ? ", noise spread " + (100 * r.noise_spread).toFixed(1) + "%" : ", no noise reading";
    if (r.emulated) { s += " · EMULATED (" + r.emulated + "): its timings measure the emulator, only its round-trip checks count"; }
    return s + " · key " + r.key;
  }

  function cellsOf(run, scenario, op) {
    return D.cells.filter(function (c) { return c.r === run && c.s === scenario && c.o === op; });
  }
  function passes(ci, cell) {
    var f = state["f-format"], k = state["f-kind"], api = state["f-api"];
    if (f && ci.format !== f) { return false; }
    if (api && ci.api !== api) { return false; }
    if (k && ci.kind !== k) { return false; }
    for (var id in YN) {
      var want = state[id];
      if (want && YN[id](ci, cell) !== (want === "yes")) { return false; }
    }
    return true;
  }
  function badges(ci) {
    var out = [ci.format, ci.kind];
    if (ci.reuses_output) { out.push("reuses output"); }
    if (ci.zero_copy) { out.push("zero-copy"); }
    if (ci.unsafe) { out.push("unsafe"); }
    if (aliases(ci)) { out.push("aliases input"); }
    if (!ci.maintained) { out.push("unmaintained"); }
    if (ci.drop_in === "drop-in") { out.push("drop-in for " + ci.drop_in_of); }
    if (ci.drop_in === "same-bytes") { out.push("same bytes as " + ci.drop_in_of + ", decodes " + ci.drop_in_probes.join(", ") + " differently"); }
    return out.filter(Boolean);
  }
  function badgeCell(td, ci) {
    badges(ci).forEach(function (b) {
      var warn = b === "reuses output" || b === "zero-copy" || b === "aliases input" || b === "unsafe" || b === "unmaintained";
      td.appendChild(el("span", { "class": warn ? "badge warn" : "badge" }, b));
    });
  }
  function codecLink(i) {
    var a = el("a", { "class": "codec", "data-codec-index": String(i) }, D.codecs[i].id);
    a.addEventListener("click", function () { state.view = "codec"; state.codec = String(i); render(); });
    return a;
  }
  function head(table, cols) {
    var tr = el("tr");
    cols.forEach(function (c) { tr.appendChild(el("th", {}, c)); });
    table.tHead.textContent = "";
    table.tHead.appendChild(tr);
    table.tBodies[0].textContent = "";
    return table.tBodies[0];
  }
  function value(cell, m) {
    if (!cell || cell.na) { return "n/a"; }
    var v = METRICS[m].get(cell);
    if (m === "ns" && cell.lo && cell.hi && cell.ns) {
      return num(v) + " ±" + (100 * Math.max(cell.hi / cell.ns - 1, 1 - cell.lo / cell.ns)).toFixed(1) + "%";
    }
    if (m === "x") {
      if (!v) { return "-"; }
      var w = cell.xl && cell.xh ? " ±" + (100 * Math.max(cell.xh / v - 1, 1 - cell.xl / v)).toFixed(1) + "%" : "";
      return v.toFixed(2) + "×" + w;
    }
    if (m === "xn" && v !== undefined && cell.lo && cell.hi && cell.ns) {
      return num(v) + " ±" + (100 * Math.max(cell.hi / cell.ns - 1, 1 - cell.lo / cell.ns)).toFixed(1) + "%";
    }
    return num(v);
  }

  function renderTable() {
    var run = +state.run, m = METRICS[state.metric];
    $("run-env").textContent = envLine(D.runs[run]);
    $("table-basis").textContent = "shown: " + basisText(state.metric);
    var rows = cellsOf(run, +state.scenario, +state.op).filter(function (c) { return passes(D.codecs[c.c], c); });
    rows.sort(function (a, b) {
      var va = m.get(a), vb = m.get(b);
      if (a.na !== b.na) { return a.na ? 1 : -1; }
      if ((va === undefined) !== (vb === undefined)) { return va === undefined ? 1 : -1; }
      return m.lower ? va - vb : vb - va;
    });
    var max = Math.max.apply(null, rows.map(function (c) { return c.na ? 0 : m.get(c) || 0; }).concat([1]));
    var body = head($("results"), ["codec", m.label, "", "round trip", "properties"]);
    rows.forEach(function (c) {
      var ci = D.codecs[c.c], tr = el("tr", { "data-codec": ci.id });
      var td = el("td"); td.appendChild(codecLink(c.c)); tr.appendChild(td);
      tr.appendChild(el("td", { "class": "num" }, value(c, state.metric)));
      var bar = el("td", { "class": "bar" }), span = el("span");
      span.style.width = (c.na ? 0 : 100 * (m.get(c) || 0) / max) + "%";
      bar.appendChild(span); tr.appendChild(bar);
      tr.appendChild(el("td", { "class": c.ok ? "" : "fail", title: c.err || "" }, c.na ? "n/a" : c.ok ? "ok" : "✗ " + (c.err || "")));
      var props = el("td"); badgeCell(props, ci); tr.appendChild(props);
      body.appendChild(tr);
    });
    if (!rows.length) {
      var tr = el("tr"); tr.appendChild(el("td", { colspan: "5", "class": "muted" }, "no codec passes the filters"));
      body.appendChild(tr);
    }
  }

  function renderCodec() {
    var ci = +state.codec, m = METRICS[state.metric];
    var points = [], prev = null;
    D.runs.forEach(function (r, i) {
      var cell = D.cells.filter(function (c) { return c.r === i && c.c === ci && c.s === +state.scenario && c.o === +state.op; })[0];
      if (!cell) { return; }
      var v = r.versions[D.codecs[ci].id] || "";
      points.push({ run: i, cell: cell, version: v, changed: prev !== null && v !== prev });
      prev = v;
    });
    var body = head($("trend"), ["run", "Go", "platform", "library version", "ns/op (raw)", "speed-up", "ns/op normalised", "round trip"]);
    $("trend-basis").textContent = "chart: " + basisText(state.metric);
    points.forEach(function (p) {
      var r = D.runs[p.run], tr = el("tr", { "data-run": String(p.run) });
      tr.appendChild(el("td", {}, r.started));
      tr.appendChild(el("td", {}, r.go + (r.engine ? " (" + r.engine + ")" : "")));
      tr.appendChild(el("td", {}, r.goos + "/" + r.goarch + " " + r.cpu));
      tr.appendChild(el("td", { "class": p.changed ? "changed" : "" }, (p.version || "?") + (p.changed ? " (changed)" : "")));
      ["ns", "x", "xn"].forEach(function (k) { tr.appendChild(el("td", { "class": "num" }, value(p.cell, k))); });
      tr.appendChild(el("td", { "class": p.cell.ok ? "" : "fail" }, p.cell.na ? "n/a" : p.cell.ok ? "ok" : "✗"));
      body.appendChild(tr);
    });
    chart(points, m);
  }

  // chart draws the trend as an SVG line with its intervals (ns/op) and a
  // dashed vertical line where the library version changed.
  function chart(points, m) {
    var box = $("trend-chart"), W = 1000, H = 220, P = 40;
    box.textContent = "";
    var vals = points.filter(function (p) { return !p.cell.na; });
    if (vals.length === 0) { box.appendChild(el("p", { "class": "muted" }, "no figures for this codec here")); return; }
    // interval returns the bounds of a point's 95% interval in the metric's
    // units, null when not recorded.
    var interval = function (c) {
      var v = m.get(c);
      if (state.metric === "ns" && c.lo && c.hi) { return [c.lo, c.hi]; }
      if (state.metric === "xn" && v && c.lo && c.hi && c.ns) { return [v * c.lo / c.ns, v * c.hi / c.ns]; }
      if (state.metric === "x" && c.xl && c.xh) { return [c.xl, c.xh]; }
      return null;
    };
    var hi = Math.max.apply(null, vals.map(function (p) { var iv = interval(p.cell); return (iv && iv[1]) || m.get(p.cell) || 0; }));
    var ns = "http://www.w3.org/2000/svg", svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    var x = function (i) { return P + (points.length === 1 ? (W - 2 * P) / 2 : i * (W - 2 * P) / (points.length - 1)); };
    var y = function (v) { return H - P - (hi > 0 ? v / hi : 0) * (H - 2 * P); };
    function add(tag, attrs) { var e = document.createElementNS(ns, tag); for (var k in attrs) { e.setAttribute(k, attrs[k]); } svg.appendChild(e); return e; }
    add("line", { x1: P, y1: H - P, x2: W - P, y2: H - P, stroke: "#999" });
    var path = [];
    points.forEach(function (p, i) {
      if (p.changed) {
        add("line", { x1: x(i), y1: P / 2, x2: x(i), y2: H - P, stroke: "#d9a441", "stroke-dasharray": "4 3" });
        add("text", { x: x(i) + 3, y: P / 2 + 10, "font-size": 12, fill: "#8a5a00" }).textContent = p.version;
      }
      if (p.cell.na) { return; }
      var v = m.get(p.cell);
      if (v === undefined) { return; }
      path.push((path.length ? "L" : "M") + x(i) + " " + y(v));
      var iv = interval(p.cell);
      if (iv) { add("line", { x1: x(i), y1: y(iv[0]), x2: x(i), y2: y(iv[1]), stroke: "#2a6fb0" }); }
      add("circle", { cx: x(i), cy: y(v), r: 4, fill: p.cell.ok ? "#2a6fb0" : "#b03030" });
    });
    add("path", { d: path.join(" "), fill: "none", stroke: "#2a6fb0", "stroke-width": 2 });
    add("text", { x: 4, y: P - 8, "font-size": 12, fill: "#666" }).textContent = m.label + " (max " + num(hi) + ")";
    box.appendChild(svg);
  }

  // diffRows returns the comparison of runs a and b (indexes). Neighbours
  // come from D.diffs, serbench compare's by speed-up, which holds each run
  // against the next with the older as old: the reverse is read by
  // inverting the change. Any other pair is compared here on demand, by
  // the same measures (speed-up over the baseline, else ns/op normalised by
  // the calibration loop, else raw ns/op) but with no significance test.
  function diffRows(a, b) {
    if (a === b) { return null; }
    var lo = Math.min(a, b), hi = Math.max(a, b);
    if (hi - lo !== 1) { return onDemand(a, b); }
    var d = D.diffs[lo];
    if (a < b) { return { tested: true, basis: d.basis, alpha: d.alpha, correction: d.correction, threshold: d.threshold, rows: d.rows }; }
    return { tested: true, basis: d.basis + " (reversed)", alpha: d.alpha, correction: d.correction, threshold: d.threshold, rows: d.rows.map(function (r) {
      var ch = r.compared && r.change !== -1 ? 1 / (1 + r.change) - 1 : 0;
      var delta = r.delta === "~" || !r.compared ? r.delta : pct(ch);
      return { c: r.c, s: r.s, o: r.o, basis: r.basis, old: r["new"], "new": r.old, compared: r.compared, change: ch, p: r.p, q: r.q,
        delta: delta, stat: r.stat, bytes: r.bytes ? "(reversed) " + r.bytes : "", allocs: r.allocs ? "(reversed) " + r.allocs : "", size_changed: r.size_changed,
        v: r.rv, rv: r.v };
    }) };
  }
  function pct(ch) { return ch === 0 ? "0.00%" : (ch > 0 ? "+" : "") + (100 * ch).toFixed(2) + "%"; }
  function onDemand(a, b) {
    var old = {}, rows = [], la = D.runs[a].loop_ns, lb = D.runs[b].loop_ns, base = D.runs[a].baseline;
    D.cells.forEach(function (c) { if (c.r === a) { old[c.c + "/" + c.s + "/" + c.o] = c; } });
    D.cells.forEach(function (n) {
      var o = n.r === b && old[n.c + "/" + n.s + "/" + n.o];
      if (!o) { return; }
      var r = { c: n.c, s: n.s, o: n.o, compared: !o.na && !n.na && o.ns > 0 && n.ns > 0 };
      if (r.compared) {
        if (D.codecs[n.c].id !== base && o.x > 0 && n.x > 0) {
          r.basis = "speed-up"; r.old = o.x; r["new"] = n.x; r.change = o.x / n.x - 1;
        } else if (la > 0 && lb > 0) {
          r.basis = "meter"; r.old = o.ns; r["new"] = n.ns * la / lb; r.change = r["new"] / r.old - 1;
        } else {
          r.basis = "ns"; r.old = o.ns; r["new"] = n.ns; r.change = n.ns / o.ns - 1;
        }
        r.delta = pct(r.change);
      }
      rows.push(r);
    });
    return { tested: false, rows: rows, basis: "compared in the page by speed-up over " + base +
      " within each run (drift-proof), the baseline's own cells by ns/op normalised by the calibration loop (raw where a run lacks it); " +
      "point estimates only: no significance test and no verdict for runs that are not neighbours" };
  }

  // compareCommand is the serbench compare command that gives the verdicts
  // of runs a and b (indexes) from an archive folder ARCHIVE, whose files
  // are named by the runs' keys, at the gate of the site's neighbour diffs
  // (there is one whenever two runs are).
  function compareCommand(a, b) {
    return "serbench compare -max-regression " + (100 * D.diffs[0].threshold) + "% ARCHIVE/" + D.runs[a].key + ".json ARCHIVE/" + D.runs[b].key + ".json";
  }

  // diffMethod says which method the verdicts of d come from: serbench
  // compare's own for neighbouring runs; none for any other pair, whose
  // rows are point estimates (the page has no test of its own, so it never
  // states a verdict serbench compare would not).
  function diffMethod(d, a, b) {
    if (d.tested) {
      return "method: serbench compare's own statistics and verdicts, computed by its code when the site was built (" + d.correction +
        " correction, alpha " + d.alpha + ", between processes for runs of run -processes; verdict at -max-regression " + (100 * d.threshold) +
        "%), the same as " + compareCommand(a, b) + " prints.";
    }
    return "method: point estimates only. These runs are not neighbours, so the site holds no comparison of them, and the page " +
      "does not test or judge them itself; for the verdicts run " + compareCommand(a, b);
  }

  function renderDiff() {
    var a = +state.old, b = +state["new"], d = diffRows(a, b);
    var body = head($("diff"), ["codec", "old ns/op", "new ns/op", "raw change", "delta", "", "verdict", "B/op", "allocs/op", "note"]);
    if (!d) { $("diff-method").textContent = ""; $("diff-summary").textContent = "choose two different runs"; return; }
    $("diff-method").textContent = diffMethod(d, a, b);
    var oldCells = {}, newCells = {};
    cellsOf(a, +state.scenario, +state.op).forEach(function (c) { oldCells[c.c] = c; });
    cellsOf(b, +state.scenario, +state.op).forEach(function (c) { newCells[c.c] = c; });
    var rows = d.rows.filter(function (r) { return r.s === +state.scenario && r.o === +state.op && passes(D.codecs[r.c], newCells[r.c]); });
    var sig = 0, verdicts = {};
    rows.forEach(function (r) {
      var oc = oldCells[r.c], nc = newCells[r.c];
      var tr = el("tr", { "data-codec": D.codecs[r.c].id });
      var td = el("td"); td.appendChild(codecLink(r.c)); tr.appendChild(td);
      tr.appendChild(el("td", { "class": "num" }, oc ? num(oc.ns) : "-"));
      tr.appendChild(el("td", { "class": "num" }, nc ? num(nc.ns) : "-"));
      tr.appendChild(el("td", { "class": "num muted raw" }, oc && nc && oc.ns > 0 && nc.ns > 0 ? pct(nc.ns / oc.ns - 1) : "-"));
      var cls = "num";
      if (d.tested && r.compared && r.delta !== "~") { sig++; cls += r.change > 0 ? " worse" : " better"; }
      tr.appendChild(el("td", { "class": cls + " delta", title: r.basis || "" }, r.compared ? r.delta : "-"));
      var stat = !r.compared ? "" : d.tested ? "(" + r.stat + ", q=" + r.q.toPrecision(2) + ")" : "(" + r.basis + ")";
      tr.appendChild(el("td", { "class": "muted" }, stat));
      // The verdict is serbench compare -max-regression's (package verdict),
      // computed when the site was written; none for pairs that are not
      // neighbours, which have no test.
      if (d.tested && r.v) { verdicts[r.v] = (verdicts[r.v] || 0) + 1; }
      tr.appendChild(el("td", { "class": "verdict" + (d.tested && r.v ? " " + r.v : "") }, d.tested ? r.v || "" : r.compared ? "none (see method)" : ""));
      tr.appendChild(el("td", {}, r.bytes || ""));
      tr.appendChild(el("td", {}, r.allocs || ""));
      tr.appendChild(el("td", {}, r.size_changed ? "size changed" : ""));
      body.appendChild(tr);
    });
    $("diff-basis").textContent = "delta: " + d.basis + ". raw change: new over old median ns/op, not tested, moves with the machine's speed.";
    $("diff-summary").textContent = rows.length + " cells in both runs pass the filters; " +
      (d.tested ? sig + " changed significantly (" + d.correction + " q ≤ " + d.alpha + "); at a gate of " + (100 * d.threshold) + "%: " +
        ["regressed", "inconclusive", "unchanged", "improved"].map(function (v) { return (verdicts[v] || 0) + " " + v; }).join(", ") + ". " : "") +
      "old: " + envLine(D.runs[a]) + " — new: " + envLine(D.runs[b]);
  }

  // allowed reports whether v is a value field f can take: a view's name,
  // or one of its control's options (a hash edited by hand, or one linking
  // a run or codec this site does not have, keeps the default instead).
  function allowed(f, v) {
    if (f === "view") { return ["table", "codec", "diff"].indexOf(v) >= 0; }
    var sel = $(f === "old" ? "diff-old" : f === "new" ? "diff-new" : f);
    return !!sel && Array.prototype.some.call(sel.options, function (o) { return o.value === v; });
  }
  function readHash() {
    var h = new URLSearchParams(location.hash.slice(1));
    FIELDS.forEach(function (f) { if (h.has(f) && allowed(f, h.get(f))) { state[f] = h.get(f); } });
  }
  function writeHash() {
    var h = new URLSearchParams();
    FIELDS.forEach(function (f) { if (state[f]) { h.set(f, state[f]); } });
    history.replaceState(null, "", "#" + h.toString());
  }
  function syncControls() {
    ["run", "scenario", "op", "metric", "codec", "f-format", "f-kind", "f-api"].concat(Object.keys(YN)).forEach(function (id) {
      $(id).value = state[id] || "";
    });
    $("diff-old").value = state.old;
    $("diff-new").value = state["new"];
  }
  function render() {
    writeHash();
    syncControls();
    ["table", "codec", "diff"].forEach(function (v) {
      $("view-" + v).hidden = state.view !== v;
      $("tab-" + v).setAttribute("aria-pressed", String(state.view === v));
    });
    $("run-label").hidden = state.view !== "table";
    $("metric-label").hidden = state.view === "diff";
    if (state.view === "table") { renderTable(); } else if (state.view === "codec") { renderCodec(); } else { renderDiff(); }
    document.body.setAttribute("data-ready", "true");
  }

  function init() {
    var idx = function (list) { return list.map(function (x, i) { return [String(i), x]; }); };
    var runs = D.runs.map(function (r, i) { return [String(i), runLabel(i)]; });
    fill($("run"), runs); fill($("diff-old"), runs); fill($("diff-new"), runs);
    fill($("scenario"), idx(D.scenarios));
    fill($("op"), idx(D.ops));
    fill($("metric"), Object.keys(METRICS).map(function (k) { return [k, METRICS[k].label]; }));
    fill($("codec"), idx(D.codecs.map(function (c) { return c.id; })));
    fill($("f-format"), [["", "any"]].concat(uniq(D.codecs.map(function (c) { return c.format; })).map(function (f) { return [f, f]; })));
    fill($("f-kind"), [["", "any"]].concat(uniq(D.codecs.map(function (c) { return c.kind; })).map(function (f) { return [f, f]; })));
    fill($("f-api"), [["", "any"]].concat(uniq(D.codecs.map(function (c) { return c.api; })).map(function (f) { return [f, f]; })));
    Object.keys(YN).forEach(function (id) { fill($(id), [["", "any"], ["yes", "yes"], ["no", "no"]]); });
    ["run", "scenario", "op", "metric", "codec", "f-format", "f-kind", "f-api"].concat(Object.keys(YN)).forEach(function (id) {
      $(id).addEventListener("change", function () { state[id] = $(id).value; render(); });
    });
    $("diff-old").addEventListener("change", function () { state.old = $("diff-old").value; render(); });
    $("diff-new").addEventListener("change", function () { state["new"] = $("diff-new").value; render(); });
    ["table", "codec", "diff"].forEach(function (v) {
      $("tab-" + v).addEventListener("click", function () { state.view = v; render(); });
    });
    $("safe").addEventListener("click", function () { for (var k in SAFE) { state[k] = SAFE[k]; } render(); });
    $("clear").addEventListener("click", function () {
      ["f-format", "f-kind", "f-api"].concat(Object.keys(YN)).forEach(function (k) { state[k] = ""; });
      render();
    });
    $("summary").textContent = D.runs.length + " runs, " + D.codecs.length + " codecs, " + D.scenarios.length +
      " scenarios; from " + D.runs[0].started + " to " + D.runs[D.runs.length - 1].started + ".";
    readHash();
    render();
  }
  init();
})();
