// Reading the official MCP conformance suite's results (`server … -o <dir>`: one folder per
// scenario, `server-<scenario>-<timestamp>/checks.json`) and holding them against the committed
// expected-failures list.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export type Verdict = "passed" | "failed" | "skipped";

export interface ScenarioResult {
  scenario: string;
  verdict: Verdict;
  /** `check-id: message` of each failed check. */
  failures: string[];
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/**
 * A scenario fails when any check fails (warnings are the suite's SHOULDs and do not); it is
 * skipped when every check was skipped (the suite itself could not run it), else it passes.
 */
export function verdictOf(checks: readonly Check[]): Omit<ScenarioResult, "scenario"> {
  const failures = checks
    .filter((c) => c.status === "FAILURE")
    .map((c) => `${c.id}: ${(c.errorMessage ?? "").split("\n")[0]}`);
  if (failures.length > 0) return { verdict: "failed", failures };
  const skipped = checks.length > 0 && checks.every((c) => c.status === "SKIPPED");
  return { verdict: skipped ? "skipped" : "passed", failures };
}

/** Every scenario's result in an output folder of `conformance server -o <dir>`. */
export function readResults(dir: string): ScenarioResult[] {
  return readdirSync(dir)
    .map((folder) => /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/u.exec(folder))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([folder, scenario]) => {
      const checks = JSON.parse(readFileSync(path.join(dir, folder, "checks.json"), "utf8")) as Check[];
      return { scenario: scenario as string, ...verdictOf(checks) };
    })
    .sort((a, b) => a.scenario.localeCompare(b.scenario));
}

export interface ExpectedFailure {
  /** A scenario name; `*` matches any characters. */
  pattern: string;
  reason: string;
  line: number;
}

/** `scenario: reason` per line; `#` starts a comment. A line without a reason is an error. */
export function parseExpectedFailures(text: string): ExpectedFailure[] {
  return text.split("\n").flatMap((raw, index) => {
    const line = raw.replace(/#.*/u, "").trim();
    if (!line) return [];
    const match = /^([a-z0-9*][a-z0-9*/_-]*):\s*(\S.*)$/u.exec(line);
    if (!match) throw new Error(`line ${index + 1}: expected "<scenario>: <reason>", got "${raw}"`);
    return [{ pattern: match[1] as string, reason: match[2] as string, line: index + 1 }];
  });
}

const matcher = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split("*")
      .map((p) => p.replace(/[.+?^${}()|[\]\\/]/gu, "\\$&"))
      .join(".*")}$`,
    "u",
  );

/**
 * What disagrees with the list, one line each: a scenario that failed and is not listed, a
 * listed scenario that passed (the list must stay honest), and a line that matches no scenario.
 * `runs` are the suite's runs by name (a wire, say), each scenario's result in each.
 */
export function compareWithExpected(
  runs: Readonly<Record<string, readonly ScenarioResult[]>>,
  expected: readonly ExpectedFailure[],
): string[] {
  const problems: string[] = [];
  const listed = (scenario: string) => expected.find((e) => matcher(e.pattern).test(scenario));
  const used = new Set<ExpectedFailure>();
  for (const [run, results] of Object.entries(runs))
    for (const result of results) {
      const entry = listed(result.scenario);
      if (entry) used.add(entry);
      if (result.verdict === "failed" && !entry)
        problems.push(`${result.scenario} failed (${run}), not expected: ${result.failures.join("; ")}`);
      if (result.verdict === "passed" && entry)
        problems.push(
          `${result.scenario} passed (${run}) but line ${entry.line} (${entry.pattern}) expects it to fail: remove it from the list`,
        );
    }
  for (const entry of expected)
    if (!used.has(entry))
      problems.push(`line ${entry.line} (${entry.pattern}) matches no scenario the suite ran`);
  return problems;
}
