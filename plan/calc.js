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
    r.wire_bytes = payload + t.frame_bytes;
    var perSend = (o.marshal_ns.mid + o.compress_ns.mid) / eff(o.send_efficiency);
    var sendNs = perSend + f * (t.ns_per_msg + t.ns_per_byte * payload);
    var decode = o.unmarshal_ns.mid + o.decompress_ns.mid;
    var recvNs = decode * f / eff(o.recv_efficiency);
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
    var s1 = perSend + t.ns_per_msg + t.ns_per_byte * payload;
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
    if (a.meets) { return (a.cost - b.cost) || (a._i - b._i); }
    return (a.distance - b.distance) || (a.cost - b.cost) || (a._i - b._i);
  });
  rows.forEach(function (r) { delete r._i; });
  return rows;
}
if (typeof module !== "undefined") { module.exports = planCompute; }
