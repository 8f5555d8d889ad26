import { describe, expect, it } from "vitest";
import {
  backoffMs,
  DEFAULT_TOP_OF_HOUR_STAGGER_MS,
  hostTimeZone,
  isTopOfHour,
  nextRunAfter,
  parseAt,
  staggerOffsetMs,
  validateCron,
} from "./schedule.js";

const job = { id: "job-1", createdAtMs: Date.parse("2026-01-01T00:00:00Z") };
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const T = (s: string) => Date.parse(s);

describe("at", () => {
  it("reads a time without a zone as UTC and never recurs", () => {
    expect(parseAt("2026-03-01T10:00:00")).toBe(T("2026-03-01T10:00:00Z"));
    expect(parseAt("2026-03-01T10:00:00+02:00")).toBe(T("2026-03-01T08:00:00Z"));
    expect(parseAt("tomorrow")).toBeUndefined();
    const at = { kind: "at" as const, at: "2026-03-01T10:00:00" };
    expect(iso(nextRunAfter(at, T("2026-03-01T09:00:00Z"), job))).toBe("2026-03-01T10:00:00.000Z");
    expect(nextRunAfter(at, T("2026-03-01T10:00:00Z"), job)).toBeUndefined();
  });
});

describe("every", () => {
  it("counts whole intervals from the anchor (default: creation)", () => {
    const every = { kind: "every" as const, everyMs: 60_000 };
    expect(nextRunAfter(every, job.createdAtMs, job)).toBe(job.createdAtMs + 60_000);
    expect(nextRunAfter(every, job.createdAtMs + 125_000, job)).toBe(job.createdAtMs + 180_000);
    const anchored = { kind: "every" as const, everyMs: 60_000, anchorMs: job.createdAtMs + 15_000 };
    expect(nextRunAfter(anchored, job.createdAtMs, job)).toBe(job.createdAtMs + 15_000);
    expect(nextRunAfter(anchored, job.createdAtMs + 15_000, job)).toBe(job.createdAtMs + 75_000);
  });
});

describe("cron", () => {
  it("runs in the given zone, and in the host's zone without one", () => {
    const berlin = { kind: "cron" as const, expr: "0 9 * * *", tz: "Europe/Berlin", staggerMs: 0 };
    expect(iso(nextRunAfter(berlin, T("2026-01-10T00:00:00Z"), job))).toBe("2026-01-10T08:00:00.000Z");
    expect(iso(nextRunAfter(berlin, T("2026-07-10T00:00:00Z"), job))).toBe("2026-07-10T07:00:00.000Z");
    const local = { kind: "cron" as const, expr: "0 9 * * *", staggerMs: 0 };
    expect(nextRunAfter(local, T("2026-01-10T00:00:00Z"), job)).toBe(
      nextRunAfter({ ...local, tz: hostTimeZone() }, T("2026-01-10T00:00:00Z"), job),
    );
  });

  it("DST gap (spring forward): a wall time that does not exist runs shifted by the gap, once", () => {
    // New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT, so 02:30 does not exist that day
    const daily = { kind: "cron" as const, expr: "30 2 * * *", tz: "America/New_York" };
    const first = nextRunAfter(daily, T("2026-03-08T05:00:00Z"), job);
    expect(iso(first)).toBe("2026-03-08T07:30:00.000Z"); // 03:30 EDT
    expect(iso(nextRunAfter(daily, first!, job))).toBe("2026-03-09T06:30:00.000Z"); // 02:30 EDT
    expect(iso(nextRunAfter(daily, T("2026-03-07T00:00:00Z"), job))).toBe("2026-03-07T07:30:00.000Z"); // 02:30 EST
  });

  it("DST overlap (fall back): a wall time that occurs twice runs once, at its first occurrence", () => {
    // New York, 2026-11-01: 02:00 EDT falls back to 01:00 EST, so 01:30 happens twice
    const daily = { kind: "cron" as const, expr: "30 1 * * *", tz: "America/New_York" };
    const first = nextRunAfter(daily, T("2026-11-01T04:00:00Z"), job);
    expect(iso(first)).toBe("2026-11-01T05:30:00.000Z"); // 01:30 EDT
    expect(iso(nextRunAfter(daily, first!, job))).toBe("2026-11-02T06:30:00.000Z"); // next day, 01:30 EST
    // an every-30-minutes pattern does not repeat the hour either
    const halfHourly = { kind: "cron" as const, expr: "*/30 * * * *", tz: "America/New_York" };
    const times: string[] = [];
    let t = T("2026-11-01T04:50:00Z");
    for (let i = 0; i < 4; i++) {
      t = nextRunAfter(halfHourly, t, job)!;
      times.push(iso(t)!);
    }
    expect(times).toEqual([
      "2026-11-01T05:00:00.000Z",
      "2026-11-01T05:30:00.000Z",
      "2026-11-01T07:00:00.000Z",
      "2026-11-01T07:30:00.000Z",
    ]);
  });

  it("staggers: a fixed per-job offset inside the window; top-of-hour gets 5 minutes by default", () => {
    expect(isTopOfHour("0 * * * *")).toBe(true);
    expect(isTopOfHour("0 */2 * * *")).toBe(true);
    expect(isTopOfHour("0 9 * * *")).toBe(false);
    expect(isTopOfHour("0 0 * * * *")).toBe(true);
    const offset = staggerOffsetMs("job-1", DEFAULT_TOP_OF_HOUR_STAGGER_MS);
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThan(DEFAULT_TOP_OF_HOUR_STAGGER_MS);
    expect(staggerOffsetMs("job-1", DEFAULT_TOP_OF_HOUR_STAGGER_MS)).toBe(offset);
    expect(staggerOffsetMs("job-2", DEFAULT_TOP_OF_HOUR_STAGGER_MS)).not.toBe(offset);
    const hourly = { kind: "cron" as const, expr: "0 * * * *", tz: "UTC" };
    expect(nextRunAfter(hourly, T("2026-01-10T10:00:00Z"), job)).toBe(T("2026-01-10T10:00:00Z") + offset);
    expect(nextRunAfter(hourly, T("2026-01-10T10:00:00Z") + offset, job)).toBe(
      T("2026-01-10T11:00:00Z") + offset,
    );
    const exact = { ...hourly, staggerMs: 0 };
    expect(nextRunAfter(exact, T("2026-01-10T10:00:00Z"), job)).toBe(T("2026-01-10T11:00:00Z"));
    const custom = { ...hourly, staggerMs: 30_000 };
    expect(nextRunAfter(custom, T("2026-01-10T10:30:00Z"), job)).toBe(
      T("2026-01-10T11:00:00Z") + staggerOffsetMs("job-1", 30_000),
    );
  });

  it("reports croner's error for a bad expression and names a bad zone", () => {
    expect(() => validateCron("61 * * * *")).toThrow("CronPattern: Invalid value for minute: 61");
    expect(() => validateCron("0 9 * * *", "Mars/Olympus")).toThrow("Invalid time zone: Mars/Olympus");
  });
});

describe("error backoff", () => {
  it("is 30 s, 1 min, 5 min, 15 min, then 60 min", () => {
    expect([1, 2, 3, 4, 5, 6, 9].map(backoffMs)).toEqual([
      30_000, 60_000, 300_000, 900_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });
});
