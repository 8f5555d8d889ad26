import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  compareWithExpected,
  parseExpectedFailures,
  readResults,
  type ScenarioResult,
} from "./support/conformance-results.js";

const result = (scenario: string, verdict: ScenarioResult["verdict"]): ScenarioResult => ({
  scenario,
  verdict,
  failures: verdict === "failed" ? ["some-check: went wrong"] : [],
});

describe("the MCP conformance baseline", () => {
  it("reads each scenario's verdict from the suite's output folder", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "conformance-results-"));
    try {
      const write = (folder: string, checks: unknown[]) => {
        mkdirSync(path.join(dir, folder));
        writeFileSync(path.join(dir, folder, "checks.json"), JSON.stringify(checks));
      };
      write("server-tools-list-2026-12-06T08-49-59-276Z", [
        { id: "a", status: "SUCCESS" },
        { id: "b", status: "WARNING" },
      ]);
      write("server-caching-2026-12-06T08-49-59-277Z", [
        { id: "c", status: "SUCCESS" },
        { id: "d", status: "FAILURE", errorMessage: "prompts/list returned -32601\nmore" },
      ]);
      write("server-tasks-status-notifications-2026-12-06T08-49-59-278Z", [{ id: "e", status: "SKIPPED" }]);
      expect(readResults(dir)).toEqual([
        { scenario: "caching", verdict: "failed", failures: ["d: prompts/list returned -32601"] },
        { scenario: "tasks-status-notifications", verdict: "skipped", failures: [] },
        { scenario: "tools-list", verdict: "passed", failures: [] },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("flags an unexpected failure, a listed scenario that passes, and a line that matches nothing", () => {
    const expected = parseExpectedFailures(
      "# comment\nprompts-*: issue 41\ncaching: needs prompts # trailing\nping: stale\nnowhere-*: gone\n",
    );
    expect(expected.map((e) => [e.pattern, e.reason, e.line])).toEqual([
      ["prompts-*", "issue 41", 2],
      ["caching", "needs prompts", 3],
      ["ping", "stale", 4],
      ["nowhere-*", "gone", 5],
    ]);
    const runs = {
      one: [result("prompts-list", "failed"), result("caching", "failed"), result("ping", "passed")],
      two: [result("prompts-get", "failed"), result("tools-list", "failed"), result("tasks-x", "skipped")],
    };
    expect(compareWithExpected(runs, expected)).toEqual([
      "ping passed (one) but line 4 (ping) expects it to fail: remove it from the list",
      "tools-list failed (two), not expected: some-check: went wrong",
      "line 5 (nowhere-*) matches no scenario the suite ran",
    ]);
  });

  it("refuses a line without a reason", () => {
    expect(() => parseExpectedFailures("caching\n")).toThrow(
      'line 1: expected "<scenario>: <reason>", got "caching"',
    );
  });
});
