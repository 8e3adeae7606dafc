// serbench plan: the model of package plan (plan.go, row and Compute) in
// the browser, so the HTML report's calculator re-ranks the measured
// options at other inputs without a re-run. Keep it in step with plan.go:
// plan's tests run it with node and compare with Compute.
"use strict";
function planCompute(inp, options) {
  var HOURS = 730;
  function eff(e) { return e > 0 ? e : 1; }
  function num(x) {
    if (!isFinite(x)) { return "+Inf"; }
    return Math.abs(x) >= 1000 ? Math.round(x).toFixed(0) : Number(x.toPrecision(3)).toString();
  }
  var t = inp.transport, f = inp.fanout, rows = [];
  options.forEach(function (o) {
    var r = {codec: o.codec, compressor: o.compressor, error: o.error || ""};
    if (r.error) { rows.push(r); return; }
    var payload = o.payload_bytes;
    if (t.base64 && o.binary) { payload = 4 * Math.ceil(payload / 3); }
    r.wire_bytes = payload + Math.max(t.frame_bytes - (o.framing_bytes || 0), 0);
    var perSend = (o.marshal_ns.mid + o.compress_ns.mid) / eff(o.send_efficiency);
    var handled = Math.max(payload, o.encoded_bytes || 0);
    var sendNs = perSend + f * (t.ns_per_msg + t.ns_per_byte * handled);
    var decode = o.unmarshal_ns.mid + o.decompress_ns.mid;
    var recvNs = decode * f / eff(o.recv_efficiency) + f * ((t.recv_ns_per_msg || 0) + (t.recv_ns_per_byte || 0) * payload +
      (t.recv_ns_per_alloc_byte || 0) * (o.recv_alloc_bytes || 0));
    r.send_cores = sendNs * inp.rate / 1e9;
    r.recv_cores = recvNs * inp.rate / 1e9;
    r.cores = r.send_cores + r.recv_cores;
    r.egress_bps = inp.rate * f * r.wire_bytes;
    r.cpu_cost = r.cores * HOURS * inp.cpu_price;
    r.egress_cost = r.egress_bps * HOURS * 3600 / 1e9 * inp.egress_price;
    r.cost = r.cpu_cost + r.egress_cost;
    r.binds = "cpu"; r.max_rate = sendNs > 0 ? inp.cores * 1e9 / sendNs : Infinity;
    if (inp.bandwidth_bps > 0 && r.wire_bytes > 0) {
      var bw = inp.bandwidth_bps / (f * r.wire_bytes);
      if (bw < r.max_rate) { r.binds = "bandwidth"; r.max_rate = bw; }
    }
    var s1 = perSend + t.ns_per_msg + t.ns_per_byte * handled;
    var rho = r.send_cores / inp.cores;
    r.p99_ms = rho < 1 ? t.p99_ms + (Math.log(100) * s1 / (1 - rho) + decode) / 1e6 : Infinity;
    r.misses = []; r.distance = 0;
    function need(what, got, budget, unit, scale) {
      if (!(budget > 0)) { return; }
      var d = got / budget;
      r.distance = Math.max(r.distance, d);
      if (d > 1) { r.misses.push(what + " " + num(got * scale) + unit + " > " + num(budget * scale) + unit); }
    }
    need("server cores", r.send_cores, inp.cores, "", 1);
    need("wire", r.egress_bps, inp.bandwidth_bps, " MB/s", 1e-6);
    need("p99", r.p99_ms, inp.p99_budget_ms, " ms", 1);
    need("egress", r.egress_bps, inp.egress_budget_bps, " MB/s", 1e-6);
    r.meets = r.misses.length === 0;
    rows.push(r);
  });
  function rank(r) { return r.meets ? 0 : (r.error ? 2 : 1); }
  rows.forEach(function (r, i) { r._i = i; });
  rows.sort(function (a, b) {
    var c = rank(a) - rank(b);
    if (c) { return c; }
    if (a.error) { return a._i - b._i; }
    var tie = (a.cost - b.cost) || (a.cores - b.cores) || (a.wire_bytes - b.wire_bytes) || (a._i - b._i);
    if (a.meets) { return tie; }
    return (a.distance - b.distance) || tie;
  });
  rows.forEach(function (r) { delete r._i; });
  return rows;
}
// planRender recomputes the options at the inputs of form (fields rate,
// fanout, cores, bandwidth MB/s, p99 ms, egress MB/s, cpu_price,
// egress_price, and when present ns_per_msg, ns_per_byte, frame_bytes)
// and writes the ranked rows into tbody and a sentence into status.
function planRender(form, tbody, status, options, transport) {
  function fmt(x) { return isFinite(x) ? Number(x.toPrecision(3)).toString() : "+Inf"; }
  function cell(tr, text) { var td = document.createElement("td"); td.textContent = text; tr.appendChild(td); }
  var v = function (n) { return form.elements[n] ? Number(form.elements[n].value) : NaN; };
  var t = {ns_per_msg: transport.ns_per_msg, ns_per_byte: transport.ns_per_byte, frame_bytes: transport.frame_bytes,
    base64: transport.base64, p99_ms: transport.p99_ms};
  if (form.elements.ns_per_msg) { t.ns_per_msg = v("ns_per_msg"); t.ns_per_byte = v("ns_per_byte"); t.frame_bytes = v("frame_bytes"); }
  var inp = {rate: v("rate"), fanout: Math.round(v("fanout")), cores: v("cores"), bandwidth_bps: v("bandwidth") * 1e6,
    p99_budget_ms: v("p99"), egress_budget_bps: v("egress") * 1e6, cpu_price: v("cpu_price"), egress_price: v("egress_price"),
    transport: t};
  tbody.textContent = "";
  if (!(inp.rate > 0) || !(inp.fanout >= 1) || !(inp.cores > 0)) { status.textContent = "rate and cores must be above 0, fan-out at least 1"; return; }
  var rows = planCompute(inp, options), met = rows.filter(function (r) { return r.meets; }).length;
  status.textContent = met ? met + " of " + rows.length + " options meet the budgets, cheapest first" :
    "no option meets the budgets; the closest comes first";
  rows.forEach(function (r, i) {
    var tr = document.createElement("tr");
    if (r.error) { ["-", r.codec, r.compressor, "", "", "", "", "", "", "", r.error].forEach(function (x) { cell(tr, x); }); }
    else {
      [String(i + 1), r.codec, r.compressor, fmt(r.send_cores), fmt(r.recv_cores), fmt(r.egress_bps / 1e6), r.cost.toFixed(2),
        r.binds, fmt(r.max_rate), fmt(r.p99_ms), r.meets ? "ok" : r.misses.join(", ")].forEach(function (x) { cell(tr, x); });
      if (!r.meets) { tr.className = "miss"; }
    }
    tbody.appendChild(tr);
  });
}
if (typeof module !== "undefined") { module.exports = planCompute; }
