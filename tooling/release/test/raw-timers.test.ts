/**
 * Every timer in production code goes through core's clock (issue 36), which a test can fake
 * and which chains a delay longer than Node's limit instead of firing it after 1 ms. The global
 * timer functions are called in core's clock itself and in the places listed here, each with
 * its reason.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sources } from "../src/sources.js";
import { publishablePackages, root } from "../src/workspace.js";

const ALLOWED: Record<string, string> = {
  "packages/core/src/time/clock.ts": "the clock: the one place core calls the global timers",
  "packages/core/src/lifecycle/group-reaper.ts":
    "a process-wide unref'd poll of OS process groups (an interval, which the clock does not offer)",
  "plugins/sessions/src/liveness-host.ts":
    "the text is a child process's script, not a timer of this process",
  "packages/core/src/testing/fake-clock.ts": "the fake clock's own setTimeout method",
  "packages/code-sandbox/src/quickjs-sandbox.ts":
    "the watchdog that terminates a sandbox worker past its step's deadline (at most a minute): the sandbox depends on nothing of core, so not on its clock",
};

/** A call of the global function: not a method (`clock.setTimeout`). */
const RAW = /(?<![.\w])(setTimeout|setInterval)\s*\(/;

describe("raw timers", () => {
  it("are found where they are (the scan sees a global call, not a method call)", () => {
    expect(RAW.test("const t = setTimeout(done, 5);")).toBe(true);
    expect(RAW.test("systemClock.setTimeout(done, 5); clock.setInterval?.(x)")).toBe(false);
  });

  it("appear in production code only where listed", () => {
    const found: string[] = [];
    for (const { dir } of publishablePackages())
      for (const file of sources(path.join(root, dir, "src"))) {
        const rel = path.relative(root, file);
        if (ALLOWED[rel]) continue;
        const text = readFileSync(file, "utf8");
        for (const [i, line] of text.split("\n").entries())
          if (RAW.test(line) && !/^\s*(\/\/|\*)/.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
      }
    expect(found).toEqual([]);
  });
});
