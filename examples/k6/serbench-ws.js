// k6 script for serbench's WebSocket push streams (`serbench serve`,
// GET /ws): each iteration opens one stream of COUNT messages at RATE
// messages/s, parses the 34-byte header serbench puts before every payload
//
//   <seq: 16 lowercase hex digits> SP <intended send time, Unix ns: 16 hex> LF
//
// (transport/ws package doc), checks that sequence numbers arrive in order
// without gaps, and records receive time minus intended send time as the
// Trend serbench_latency (ms; the same measure as `serbench load`, from the
// server's schedule, so a late server shows up as latency). A stream with a
// count ends with close code 1000, reason "end". The payload itself is not
// decoded here: k6 has no MessagePack, CBOR or protobuf decoders, and JSON
// decoding costs k6's CPU, not the server's.
//
// Run (all settings are environment variables):
//
//   serbench serve -addr 127.0.0.1:8080 &
//   k6 run -e BASE=ws://127.0.0.1:8080 -e CODEC=msgpack -e VUS=50 examples/k6/serbench-ws.js
//
// BASE      server base URL, ws:// or wss:// (default ws://127.0.0.1:8080)
// SCENARIO  scenario ID (default ws-message)
// CODEC     codec ID (default encoding/json)
// RATE      messages per second per stream (default 10)
// COUNT     messages per stream (default 100)
// VUS       concurrent streams (default 10)
// FANOUT    WebSockets each VU opens on its one stream (default 1): the
//           server encodes each message once and sends it FANOUT times, as
//           `serbench load -fanout` does; VUS x FANOUT connections in all.
//           One VU holds many sockets (k6/websockets runs them on its event
//           loop), so 10,000 connections need 100 VUs, not 10,000.
// ITERATIONS streams per VU (default 1)
// LEAD_MS   the stream's first message is scheduled this many ms after the
//           script opens it (start=, Unix ns; default 1000; 0 leaves start=
//           out and the server sends message 0 at once). k6 v1.8.1 starts
//           reading a socket before it dispatches the open event and drops
//           any message that arrives in between (queueMessage skips it while
//           readyState is not OPEN; internal/js/modules/k6/websockets in the
//           k6 source), so without a lead a loaded machine can lose message 0
//           on the client and the run would count it lost. The server takes
//           start= at most 10 s in its past, so the k6 machine's clock must
//           not run more than about 9 s behind the server's. Give
//           thousands of sockets a lead long enough to open them all.
//           Each VU's stream starts (VU-1)/VUS of a period (1/RATE) later,
//           so that the streams' messages interleave instead of all being
//           sent at once.
//
// `k6 run --summary-export FILE` also writes the end-of-test metrics as JSON.
//
// Thresholds fail the run on any lost, out-of-order or malformed message
// and on any stream that did not end with close 1000 "end".
import { WebSocket } from "k6/websockets";
import { Counter, Trend } from "k6/metrics";
import { check } from "k6";

const BASE = __ENV.BASE || "ws://127.0.0.1:8080";
const SCENARIO = __ENV.SCENARIO || "ws-message";
const CODEC = __ENV.CODEC || "encoding/json";
const RATE = Number(__ENV.RATE || 10);
const COUNT = Number(__ENV.COUNT || 100);
const VUS = Number(__ENV.VUS || 10);
const ITERATIONS = Number(__ENV.ITERATIONS || 1);
const FANOUT = Number(__ENV.FANOUT || 1);
if (!(Number.isInteger(FANOUT) && FANOUT >= 1)) throw new Error(`FANOUT must be an integer >= 1, got "${__ENV.FANOUT}"`);
const LEAD_MS = Number(__ENV.LEAD_MS === undefined ? 1000 : __ENV.LEAD_MS);
if (!(LEAD_MS >= 0)) throw new Error(`LEAD_MS must be a number of ms >= 0, got "${__ENV.LEAD_MS}"`);

const HEADER_LEN = 34;

const latency = new Trend("serbench_latency", true);
const messages = new Counter("serbench_messages");
const lost = new Counter("serbench_lost");
const outOfOrder = new Counter("serbench_out_of_order");
const badHeader = new Counter("serbench_bad_header");
const badEnd = new Counter("serbench_bad_end");
const payloadBytes = new Counter("serbench_payload_bytes");

export const options = {
  scenarios: {
    streams: {
      executor: "per-vu-iterations",
      vus: VUS,
      iterations: ITERATIONS,
      maxDuration: Math.ceil(COUNT / RATE + LEAD_MS / 1000 + 60) + "s",
    },
  },
  // p(99) and p(99.9) are what serbench load reports; k6's default stops at p(95).
  summaryTrendStats: ["avg", "min", "med", "max", "p(90)", "p(95)", "p(99)", "p(99.9)"],
  thresholds: {
    serbench_lost: ["count==0"],
    serbench_out_of_order: ["count==0"],
    serbench_bad_header: ["count==0"],
    serbench_bad_end: ["count==0"],
    checks: ["rate==1"],
  },
};

// headerOf returns the 34 header characters of a text or binary message.
function headerOf(data) {
  if (typeof data === "string") return [data.slice(0, HEADER_LEN), data.length - HEADER_LEN];
  const u8 = new Uint8Array(data);
  let s = "";
  for (let i = 0; i < HEADER_LEN && i < u8.length; i++) s += String.fromCharCode(u8[i]);
  return [s, u8.length - HEADER_LEN];
}

const HEX16 = /^[0-9a-f]{16}$/;

export default function () {
  const q = [
    "scenario=" + encodeURIComponent(SCENARIO),
    "codec=" + encodeURIComponent(CODEC),
    "rate=" + RATE,
    "count=" + COUNT,
    // A stream of its own, shared by this VU's FANOUT sockets: __VU
    // repeats across k6 instances in a distributed run, the random part
    // does not.
    "stream=" + encodeURIComponent(`k6-${__VU}-${__ITER}-${Math.random().toString(36).slice(2, 10)}`),
  ];
  if (LEAD_MS > 0) {
    // Unix ns; BigInt keeps the digits a float64 would round. Every socket
    // of the stream names the same start, so they all join one stream.
    const stagger = Math.floor(((__VU - 1) % VUS) / VUS * 1000 / RATE);
    q.push("start=" + (BigInt(Date.now() + LEAD_MS + stagger) * 1000000n).toString());
  }
  const url = `${BASE}/ws?${q.join("&")}`;
  for (let i = 0; i < FANOUT; i++) subscribe(url);
}

// subscribe opens one WebSocket on url and checks its messages.
function subscribe(url) {
  const ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  let next = 0;

  ws.onmessage = (e) => {
    const now = Date.now();
    const [h, n] = headerOf(e.data);
    const seqHex = h.slice(0, 16);
    const tHex = h.slice(17, 33);
    if (h.length !== HEADER_LEN || h[16] !== " " || h[33] !== "\n" || !HEX16.test(seqHex) || !HEX16.test(tHex)) {
      badHeader.add(1);
      return;
    }
    // Sequence numbers stay far below 2^53; the time needs 64 bits.
    const seq = parseInt(seqHex, 16);
    const intendedMs = Number(BigInt.asIntN(64, BigInt("0x" + tHex)) / 1000000n);
    if (seq < next) {
      outOfOrder.add(1);
      return;
    }
    if (seq > next) lost.add(seq - next);
    next = seq + 1;
    messages.add(1);
    payloadBytes.add(n);
    latency.add(now - intendedMs);
  };

  ws.onclose = (e) => {
    if (next < COUNT) lost.add(COUNT - next);
    const ended = e.code === 1000 && e.reason === "end";
    if (!ended) badEnd.add(1);
    check(next, { "stream delivered every message": (v) => v === COUNT });
  };

  ws.onerror = (e) => {
    badEnd.add(1);
    console.error("serbench-ws: " + (e && e.error ? e.error : "websocket error"));
  };
}
