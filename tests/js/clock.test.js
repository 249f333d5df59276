// The round clock's arithmetic (static/js/clock.js): what it shows for a time left, and the time
// left on a phone whose own clock is wrong.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Offset, format, timeLeft } from "../../static/js/clock.js";

describe("format", () => {
  /** @type {[number, string][]} */
  const cases = [
    [59_000, "00:59"],
    [60_000, "01:00"],
    [61_000, "01:01"],
    [1, "00:01"], // a part of a second left is a second: 00:00 is only ever "at zero"
    [1_001, "00:02"],
    [45 * 60_000, "45:00"],
    [3_599_000, "59:59"],
    [3_600_000, "1:00:00"],
    [2 * 3_600_000 + 5 * 60_000 + 9_000, "2:05:09"],
  ];
  for (const [ms, shown] of cases) {
    test(`${ms} ms shows ${shown}`, () => assert.equal(format(ms), shown));
  }
});

describe("timeLeft", () => {
  test("counts from the server's time, not the phone's", () => {
    // The page drawn at the server's 10:00:00, the round ending at 10:30:00, on a phone 7 minutes
    // fast: 30 minutes left at once, and 29 a minute later, whatever the phone's clock says.
    const server = Date.UTC(2026, 4, 1, 10, 0, 0);
    const ends = server + 30 * 60_000;
    const phone = server + 7 * 60_000;
    const offset = server - phone;
    assert.equal(timeLeft(ends, phone, offset), 30 * 60_000);
    assert.equal(timeLeft(ends, phone + 60_000, offset), 29 * 60_000);
  });

  test("is zero at the end and below it after", () => {
    assert.equal(timeLeft(1_000, 1_000, 0), 0);
    assert.ok(timeLeft(1_000, 1_500, 0) < 0);
  });
});

describe("Offset", () => {
  test("has no value before a fresh sample", () => {
    assert.equal(new Offset().value(), null);
  });

  test("ignores what is no server time (a missing Server-Time header)", () => {
    const offset = new Offset();
    assert.equal(offset.add(Number(null), 1_000), false);
    assert.equal(offset.add(Number("x"), 1_000), false);
    assert.equal(offset.value(), null);
  });

  test("keeps the highest sample: a slow answer never sets the clock back", () => {
    // Each sample is the server's time read before its answer left: a late answer is a low bound.
    const offset = new Offset();
    offset.add(10_000, 9_000); // +1000
    offset.add(10_500, 10_000); // +500: this answer took half a second longer on its way
    assert.equal(offset.value(), 1_000);
  });

  test("forgets a sample after `kept` newer ones (the phone's clock set again meanwhile)", () => {
    const offset = new Offset(3);
    offset.add(60_000, 1_000); // +59000, before the phone's clock was set right
    for (const phone of [2_000, 3_000, 4_000]) offset.add(phone + 10, phone);
    assert.equal(offset.value(), 10);
  });
});
