// The host's view: the official MCP conformance suite (server side) against the built
// `clawtools serve --http` with the conformance fixture plugin, compared with the committed
// expected-failures list. The suite needs Node >= 22: .ci/run installs it beside its Node 24.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, cliDir, ensureBuilt, repo } from "./support/cli.js";
import {
  compareWithExpected,
  parseExpectedFailures,
  readResults,
  type ScenarioResult,
} from "./support/conformance-results.js";
import { CONFORMANCE_VERSION, findConformance, INSPECTOR_VERSION } from "./support/host-tools.js";
import { type HttpServe, serveHttp } from "./support/serve.js";

const run = promisify(execFile);
const suite = findConformance();
const skipReason = "skip" in suite ? suite.skip : undefined;
if (skipReason) console.warn(`[MCP conformance suite skipped] ${skipReason}`);

const EXPECTED = path.join(cliDir, "test", "mcp-conformance-expected-failures.txt");
/** The two runs: every scenario at its own revision, and what 2026-07-28 requires at its wire. */
const RUNS = {
  "suite all": ["--suite", "all"],
  "requirements 2026-07-28": ["--requirements", "2026-07-28"],
} as const;

describe.skipIf(skipReason !== undefined)(
  "the official MCP conformance suite against clawtools serve --http",
  () => {
    let dir: string;
    let server: HttpServe | undefined;
    const results: Record<string, ScenarioResult[]> = {};
    let listed: string[] = [];

    beforeAll(async () => {
      if ("skip" in suite) return;
      ensureBuilt([path.join(repo, "packages", "testing", "dist", "mcp-conformance", "index.js")]);
      dir = mkdtempSync(path.join(tmpdir(), "clawtools-conformance-"));
      server = await serveHttp(
        [
          "--profile",
          "full",
          "--plugin",
          "@clawtools/testing/mcp-conformance",
          "--workspace",
          dir,
          "--state-dir",
          path.join(dir, "state"),
        ],
        { cwd: dir },
      );
      // the suite runs under its own Node; vitest's NODE_OPTIONS are not for it
      const { NODE_OPTIONS: _, ...env } = process.env;
      const conformance = (args: string[]) =>
        run(suite.node, [suite.entry, ...args], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
      const url = server.url;
      await Promise.all([
        conformance(["list", "--server"]).then(({ stdout }) => {
          listed = [...stdout.matchAll(/^\s+- (\S+)/gmu)].map((m) => m[1] as string);
        }),
        ...Object.entries(RUNS).map(async ([name, args], index) => {
          const out = path.join(dir, `results-${index}`);
          // it exits 1 when any scenario fails: the results folder says which
          const outcome = await conformance(["server", "--url", url, ...args, "-o", out]).catch(
            (error: { stdout?: string; stderr?: string }) => error,
          );
          try {
            results[name] = readResults(out);
          } catch {
            throw new Error(
              `conformance ${args.join(" ")} left no results: ${JSON.stringify(outcome).slice(0, 2000)}`,
            );
          }
        }),
      ]);
      const count = (verdict: string) =>
        Object.fromEntries(
          Object.entries(results).map(([n, r]) => [n, r.filter((s) => s.verdict === verdict).length]),
        );
      console.info(
        `[MCP conformance ${CONFORMANCE_VERSION}] passed ${JSON.stringify(count("passed"))}, failed ${JSON.stringify(count("failed"))}, skipped by the suite ${JSON.stringify(count("skipped"))}`,
      );
    }, BUILD_TIMEOUT_MS);

    afterAll(() => {
      server?.child.kill("SIGTERM");
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("runs every server scenario the suite lists", () => {
      expect(listed.length).toBeGreaterThan(30);
      const ran = new Set(results["suite all"]?.map((r) => r.scenario));
      expect(listed.filter((name) => !ran.has(name))).toEqual([]);
      expect(results["requirements 2026-07-28"]?.length).toBeGreaterThan(30);
    });

    it("passes the tool scenarios the fixture plugin serves, at both wires", () => {
      for (const name of Object.keys(RUNS)) {
        const verdicts = Object.fromEntries(
          (results[name] ?? [])
            .filter((r) => r.scenario.startsWith("tools-"))
            .map((r) => [r.scenario, r.verdict]),
        );
        expect(verdicts, name).toMatchObject({
          "tools-list": "passed",
          "tools-call-simple-text": "passed",
          "tools-call-image": "passed",
          "tools-call-audio": "passed",
          "tools-call-error": "passed",
          "tools-call-with-progress": "passed",
        });
      }
    });

    it("fails exactly the scenarios the expected-failures list names", () => {
      const expected = parseExpectedFailures(readFileSync(EXPECTED, "utf8"));
      expect(compareWithExpected(results, expected)).toEqual([]);
    });
  },
);

it(".ci/run installs the versions the host-view tests look for", () => {
  const ci = readFileSync(path.join(repo, ".ci", "run"), "utf8");
  expect(ci).toContain(`CONFORMANCE_VERSION=${CONFORMANCE_VERSION}`);
  expect(ci).toContain(`INSPECTOR_VERSION=${INSPECTOR_VERSION}`);
});
