// serbench demo page: streams every codec the browser can decode over SSE
// and WebSocket from this server, decodes each message, checks sequence
// numbers and measures the decode cost in the browser.
//
// Framing read here (transport/sse and transport/ws package docs):
//   SSE: one event per message, "id:" the sequence number, "event:" the
//        scenario ID, "data:" the payload (base64 for binary codecs); a
//        stream with a count ends with an "end" event.
//   WS:  one message per message, a 34-byte ASCII header
//        "<seq: 16 hex> <intended send time, Unix ns: 16 hex>\n", then the
//        payload; a stream with a count ends with close code 1000 "end".
//
// Results are kept in window.serbenchResults for tests (transport/server
// browser_test.go): {done, error, scenario, count, rate, rows: [...]}, one
// row per (transport, codec) with the fields of newRow below.
"use strict";

const vendorVersions = {
  "@msgpack/msgpack": "3.1.3", "cbor-x": "1.6.9", "protobufjs": "8.8.1", "long": "5.3.2",
};

const params = new URLSearchParams(location.search);
const cfg = {
  scenario: params.get("scenario") || "sse-event",
  transports: (params.get("transports") || "sse,ws").split(",").filter(Boolean),
  count: Number(params.get("count") || 100),
  rate: Number(params.get("rate") || 100),
  codecs: (params.get("codecs") || "").split(",").filter(Boolean),
  benchMs: Number(params.get("bench_ms") || 100),
  // EventSource uses HTTP/1.1: browsers allow 6 connections per host.
  parallel: Number(params.get("parallel") || 4),
  autorun: params.get("autorun") === "1",
};

const results = {
  done: false, error: "", scenario: cfg.scenario, count: cfg.count, rate: cfg.rate,
  vendor: vendorVersions, isolated: window.crossOriginIsolated === true, rows: [],
};
window.serbenchResults = results;

const $ = (id) => document.getElementById(id);
const textEncoder = new TextEncoder();

// ---- decoders: payload (string for text codecs, Uint8Array for binary) -> value

function makeDecoders(protoRoot) {
  const cbor = new CBOR.Decoder({ mapsAsObjects: true, useRecords: false });
  const protoTypes = new Map();
  return {
    json: () => (text) => JSON.parse(text),
    msgpack: () => (bytes) => MessagePack.decode(bytes, { useBigInt64: true }),
    cbor: () => (bytes) => cbor.decode(bytes),
    protobuf: (c) => {
      let t = protoTypes.get(c.proto_type);
      if (!t) {
        t = protoRoot.lookupType(c.proto_type);
        protoTypes.set(c.proto_type, t);
      }
      const opts = { longs: String, bytes: String, defaults: false };
      return (bytes) => t.toObject(t.decode(bytes), opts);
    },
  };
}

// canonical turns a decoded value into plain JSON data for comparison:
// BigInt and Long as decimal strings, Date as an ISO 8601 string, bytes as
// base64, Maps as objects, msgpack extensions as {ext, data}.
function canonical(v) {
  if (typeof v === "bigint") return v.toString();
  if (v === null || typeof v !== "object") return v;
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return toBase64(v);
  if (Array.isArray(v)) return v.map(canonical);
  if (v instanceof Map) {
    const o = {};
    for (const [k, x] of v) o[String(k)] = canonical(x);
    return o;
  }
  if (typeof MessagePack !== "undefined" && v instanceof MessagePack.ExtData) {
    return { ext: v.type, data: toBase64(v.data) };
  }
  if (typeof Long !== "undefined" && Long.isLong(v)) return v.toString();
  const o = {};
  for (const k of Object.keys(v).sort()) o[k] = canonical(v[k]);
  return o;
}

function toBase64(u8) {
  let s = "";
  for (let i = 0; i < u8.length; i++) s += String.fromCharCode(u8[i]);
  return btoa(s);
}

function fromBase64(s) {
  const bin = atob(s);
  const u8 = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
  return u8;
}

// ---- one row: the counters of one (transport, codec) stream

function newRow(transport, c) {
  return {
    transport, codec: c.id, format: c.format, decoder: c.decoder,
    expected: cfg.count, messages: 0, payload_bytes: 0,
    lost: 0, out_of_order: 0, decode_errors: 0, errors: 0, reconnects: 0,
    decode_us_live: 0,   // mean, from performance.now() around each decode
    decode_ns: 0,        // repeated decodes of the last payload: fastest round (benchAll)
    decode_ns_median: 0, // ... median round
    base64_ns: 0,        // SSE binary: base64 to bytes, per message: fastest round
    base64_ns_median: 0,
    latency_p50_ms: null, // WebSocket: receive time minus intended send time
    canonical: "",       // JSON of canonical(first decoded value)
    first_error: "",
    // internal
    _next: 0, _decodeMs: 0, _lat: [], _last: null,
  };
}

// seen applies sequence number seq to row: in order, a gap (lost) or
// out of order (at or before one already received).
function seen(row, seq) {
  if (seq < row._next) {
    row.out_of_order++;
    return false;
  }
  if (seq > row._next) row.lost += seq - row._next;
  row._next = seq + 1;
  return true;
}

function decodeOne(row, decode, payload) {
  const t0 = performance.now();
  let v;
  try {
    v = decode(payload);
  } catch (e) {
    row.decode_errors++;
    if (!row.first_error) row.first_error = "decode: " + e;
    return;
  }
  row._decodeMs += performance.now() - t0;
  if (row.messages === 0) row.canonical = JSON.stringify(canonical(v));
  row.messages++;
  row._last = payload;
}

// finish fills in the derived figures once a stream has ended.
function finish(row) {
  if (row._next < cfg.count) row.lost += cfg.count - row._next;
  if (row.messages > 0) row.decode_us_live = (row._decodeMs * 1000) / row.messages;
  if (row._lat.length > 0) {
    row._lat.sort((a, b) => a - b);
    row.latency_p50_ms = row._lat[Math.floor(row._lat.length / 2)];
  }
  delete row._lat;
}

// benchAll times repeated decodes of each row's last payload (and, for
// binary payloads over SSE, its base64 decoding) after every stream has
// ended, so that timing neither delays messages nor is delayed by them.
// The rows take turns: 100 rounds, each timing every row for about
// cfg.benchMs/100, so a burst of load from other processes hits every row
// alike. decode_ns is the fastest round (the least disturbed: another
// process only ever adds time, and a short round often runs undisturbed),
// decode_ns_median the median round. The page is cross-origin isolated
// (server.go sets COOP and COEP), which gives performance.now() a
// resolution of 5µs instead of 100µs in Chromium.
async function benchAll(jobs) {
  const rounds = 100;
  const tasks = [];
  for (const [row, decode, binarySSE] of jobs) {
    if (row._last === null || cfg.benchMs <= 0) continue;
    const payload = row._last;
    tasks.push({ row, key: "decode_ns", f: () => decode(payload), ns: [] });
    if (binarySSE) {
      const b64 = toBase64(payload);
      tasks.push({ row, key: "base64_ns", f: () => fromBase64(b64), ns: [] });
    }
  }
  for (let r = 0; r < rounds; r++) {
    for (const t of tasks) t.ns.push(timeCalls(t.f, cfg.benchMs / rounds));
    if (r % 10 === 9) await new Promise((res) => setTimeout(res, 0)); // let the page repaint
  }
  for (const t of tasks) {
    t.ns.sort((a, b) => a - b);
    t.row[t.key] = t.ns[0];
    t.row[t.key + "_median"] = t.ns[Math.floor(t.ns.length / 2)];
  }
  for (const [row] of jobs) delete row._last;
}

// timeCalls calls f for about ms milliseconds (at least 10 times) and
// returns the mean ns per call.
function timeCalls(f, ms) {
  let n = 0;
  let batch = 1;
  const t0 = performance.now();
  let t = t0;
  while (n < 10 || t - t0 < ms) {
    for (let i = 0; i < batch; i++) f();
    n += batch;
    batch = Math.min(batch * 2, 256);
    t = performance.now();
  }
  return ((t - t0) * 1e6) / n;
}


// ---- transports

function streamQuery(c) {
  const q = new URLSearchParams({
    scenario: cfg.scenario, codec: c.id, rate: String(cfg.rate), count: String(cfg.count),
    stream: "page-" + Math.random().toString(36).slice(2),
  });
  return q.toString();
}

function timeoutMs() {
  return (cfg.count / cfg.rate) * 1000 + 15000;
}

function runSSE(c, decode) {
  const row = newRow("sse", c);
  return new Promise((resolve) => {
    const es = new EventSource("/sse?" + streamQuery(c));
    let opened = false;
    const timer = setTimeout(() => end("timeout"), timeoutMs());
    function end(err) {
      clearTimeout(timer);
      es.close();
      if (err) {
        row.errors++;
        if (!row.first_error) row.first_error = err;
      }
      finish(row);
      resolve(row);
    }
    es.onopen = () => {
      if (opened) row.reconnects++;
      opened = true;
    };
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED) end("sse: connection failed");
    };
    es.addEventListener(cfg.scenario, (e) => {
      if (!seen(row, Number(e.lastEventId))) return;
      if (c.binary) {
        const t0 = performance.now();
        const bytes = fromBase64(e.data);
        row._decodeMs += performance.now() - t0; // base64 is part of the SSE cost
        row.payload_bytes += bytes.length;
        decodeOne(row, decode, bytes);
      } else {
        row.payload_bytes += textEncoder.encode(e.data).length;
        decodeOne(row, decode, e.data);
      }
    });
    es.addEventListener("end", () => end(""));
  });
}

const headerLen = 34;

function runWS(c, decode) {
  const row = newRow("ws", c);
  return new Promise((resolve) => {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?" + streamQuery(c);
    const sock = new WebSocket(url);
    sock.binaryType = "arraybuffer";
    const timer = setTimeout(() => { sock.close(); done("timeout"); }, timeoutMs());
    let finished = false;
    function done(err) {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (err) {
        row.errors++;
        if (!row.first_error) row.first_error = err;
      }
      finish(row);
      resolve(row);
    }
    sock.onmessage = (e) => {
      const now = Date.now();
      let header, payload;
      if (typeof e.data === "string") {
        header = e.data.slice(0, headerLen);
        payload = e.data.slice(headerLen);
        row.payload_bytes += textEncoder.encode(payload).length;
      } else {
        const u8 = new Uint8Array(e.data);
        header = String.fromCharCode(...u8.subarray(0, headerLen));
        payload = u8.subarray(headerLen);
        row.payload_bytes += payload.length;
      }
      if (header.length !== headerLen || header[16] !== " " || header[33] !== "\n") {
        row.decode_errors++;
        if (!row.first_error) row.first_error = "ws: bad header " + JSON.stringify(header);
        return;
      }
      const seq = Number(BigInt("0x" + header.slice(0, 16)));
      const intendedMs = Number(BigInt.asIntN(64, BigInt("0x" + header.slice(17, 33))) / 1000000n);
      if (!seen(row, seq)) return;
      row._lat.push(now - intendedMs);
      decodeOne(row, decode, payload);
    };
    sock.onerror = () => {};
    sock.onclose = (e) => done(e.code === 1000 && e.reason === "end" ? "" : "ws: closed " + e.code + " " + e.reason);
  });
}

// ---- page

function fmt(x, digits) {
  return x === null || x === undefined ? "" : Number(x).toFixed(digits);
}

function show(row) {
  const tr = document.createElement("tr");
  const bad = row.lost || row.out_of_order || row.decode_errors || row.errors || row.messages !== row.expected;
  if (bad) tr.className = "bad";
  const cells = [
    [row.transport], [row.codec], [row.format],
    [row.messages + "/" + row.expected, 1], [fmt(row.messages ? row.payload_bytes / row.messages : 0, 1), 1],
    [fmt(row.decode_us_live, 2), 1], [fmt(row.decode_ns, 0), 1], [row.base64_ns ? fmt(row.base64_ns, 0) : "", 1],
    [fmt(row.latency_p50_ms, 1), 1], [row.lost, 1], [row.out_of_order, 1],
    [row.decode_errors + row.errors ? (row.decode_errors + row.errors) + " " + row.first_error : "0", 1],
  ];
  for (const [text, num] of cells) {
    const td = document.createElement("td");
    td.textContent = String(text);
    if (num) td.className = "n";
    tr.appendChild(td);
  }
  $("rows").appendChild(tr);
}

async function getJSON(url) {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(url + ": " + resp.status + " " + (await resp.text()).trim());
  return resp.json();
}

async function main() {
  const info = await getJSON("/browser/codecs?scenario=" + encodeURIComponent(cfg.scenario));
  const sel = $("scenario");
  for (const id of info.scenarios) {
    const o = document.createElement("option");
    o.value = o.textContent = id;
    o.selected = id === info.scenario;
    sel.appendChild(o);
  }
  $("transports").value = cfg.transports.join(",");
  $("count").value = cfg.count;
  $("rate").value = cfg.rate;

  let codecs = info.codecs.filter((c) => c.decoder);
  if (cfg.codecs.length) codecs = codecs.filter((c) => cfg.codecs.includes(c.id));
  const skipped = info.codecs.filter((c) => !c.decoder);
  results.skipped = skipped.map((c) => ({ codec: c.id, reason: c.reason }));
  $("skipped").textContent = skipped.length ? "Not decoded here: " + skipped.map((c) => c.id + " (" + c.reason + ")").join("; ") : "";
  if (!cfg.autorun) {
    $("status").textContent = "ready: press Run";
    return;
  }

  let protoRoot = null;
  if (codecs.some((c) => c.decoder === "protobuf")) {
    protoRoot = protobuf.Root.fromJSON(await getJSON("/browser/proto.json"));
  }
  const decoders = makeDecoders(protoRoot);
  const jobs = [];
  for (const t of cfg.transports) {
    for (const c of codecs) jobs.push([t, c]);
  }
  let next = 0;
  $("status").textContent = "running " + jobs.length + " streams";
  async function worker() {
    while (next < jobs.length) {
      const [t, c] = jobs[next++];
      const decode = decoders[c.decoder](c);
      const row = t === "ws" ? await runWS(c, decode) : await runSSE(c, decode);
      done.push([row, decode, t === "sse" && c.binary]);
      $("status").textContent = "running: " + done.length + " of " + jobs.length + " streams done";
    }
  }
  const done = [];
  await Promise.all(Array.from({ length: Math.max(1, cfg.parallel) }, worker));
  $("status").textContent = "timing repeated decodes";
  await benchAll(done);
  for (const [row] of done) {
    results.rows.push(row);
    show(row);
  }
  $("status").textContent = "done: " + results.rows.length + " streams of " + cfg.count + " messages";
}

main().catch((e) => {
  results.error = String(e && e.stack ? e.stack : e);
  $("status").textContent = "error: " + e;
}).finally(() => { results.done = true; });
