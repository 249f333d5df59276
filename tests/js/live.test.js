// static/js/live.js: the stream's address, an event's reading and which elements ask again.
import assert from "node:assert/strict";
import { test } from "node:test";

import { behind, parseEvent, streamUrl, topicOf } from "../../static/js/live.js";

test("a signed topic's topic", () => {
  assert.equal(topicOf("m12:abc"), "m12");
  assert.equal(topicOf("r7"), "r7");
});

test("the stream's address names each topic once, with the version shown", () => {
  const url = streamUrl("/live/", [
    { signed: "r7:sig2", version: "100.30.0" },
    { signed: "m12:sig1", version: "57" },
    { signed: "m12:sig1", version: "58" },
  ]);
  assert.equal(url, "/live/?t=m12%3Asig1&t=r7%3Asig2&v=m12%3D57&v=r7%3D100.30.0");
  assert.ok(streamUrl("http://127.0.0.1:8001/live/?x=1", [{ signed: "c3:s", version: "" }]).startsWith("http://127.0.0.1:8001/live/?x=1&t="));
});

test("an event's data: a topic and its version, empty for an object gone", () => {
  assert.deepEqual(parseEvent("m12 57"), { topic: "m12", version: "57" });
  assert.deepEqual(parseEvent("m12 "), { topic: "m12", version: "" });
  assert.equal(parseEvent("garbage"), null);
  assert.equal(parseEvent(" 57"), null);
});

test("only the elements of the topic showing another version ask again", () => {
  const board = { dataset: { live: "m12:s", liveV: "57" } };
  const clock = { dataset: { live: "r7:s", liveV: "1.30.0" } };
  const other = { dataset: { live: "m13:s", liveV: "2" } };
  assert.deepEqual(behind([board, clock, other], { topic: "m12", version: "58" }), [board]);
  assert.deepEqual(behind([board, clock, other], { topic: "m12", version: "57" }), []);
  assert.deepEqual(behind([board, clock, other], { topic: "r7", version: "1.40.0" }), [clock]);
});
