import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileSessionStore } from "@clawtools/sessions";
import { CronExecutor, type ExecutorOptions } from "../src/cron/executor.js";
import type { AgentTurnOutcome, AgentTurnRunner, Clock } from "../src/cron/interfaces.js";
import { CronService, type CronServiceOptions } from "../src/cron/service.js";
import { FileCronStore } from "../src/store/file-store.js";
import { FakeClock } from "../src/testing.js";

export const tempDir = () => mkdtempSync(path.join(tmpdir(), "clawtools-automation-"));

type Step = AgentTurnOutcome | (() => Promise<AgentTurnOutcome>);

/** An AgentRunner that answers from a script (or `ok` with "done"). */
export class ScriptedRunner implements AgentTurnRunner {
  readonly calls: Array<{ sessionKey: string; message: string; model?: string; timeoutMs?: number }> = [];
  private readonly runs = new Map<string, Step>();
  constructor(readonly script: Step[] = []) {}
  async start(request: { sessionKey: string; message: string; model?: string; timeoutMs?: number }) {
    this.calls.push(request);
    const runId = `run-${this.calls.length}`;
    this.runs.set(runId, this.script.shift() ?? { status: "ok", reply: "done" });
    return { runId };
  }
  async wait(runId: string): Promise<AgentTurnOutcome> {
    const step = this.runs.get(runId);
    if (!step) return { status: "error", error: `unknown run ${runId}` };
    return typeof step === "function" ? step() : step;
  }
}

/** A promise with its resolver, for runs held open by a test. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

export interface Harness {
  dir: string;
  clock: FakeClock;
  store: FileCronStore;
  sessions: FileSessionStore;
  runner: ScriptedRunner;
  service: CronService;
  advance(ms: number): Promise<void>;
  fireTimes(jobId: string): Promise<number[]>;
}

export async function harness(
  options: {
    dir?: string;
    nowMs?: number;
    clock?: FakeClock;
    runner?: ScriptedRunner;
    service?: Partial<Omit<CronServiceOptions, "store" | "executor" | "clock">>;
    executor?: Partial<ExecutorOptions>;
    start?: boolean;
  } = {},
): Promise<Harness> {
  const dir = options.dir ?? tempDir();
  const clock = options.clock ?? new FakeClock(options.nowMs ?? Date.parse("2026-01-05T00:00:00Z"));
  const store = new FileCronStore(path.join(dir, "cron"));
  const sessions = new FileSessionStore(path.join(dir, "sessions"));
  const runner = options.runner ?? new ScriptedRunner();
  const executor = new CronExecutor({
    sessions,
    runner,
    defaultAgentId: "main",
    clock: clock as Clock,
    webhookRetryDelayMs: 5,
    ...options.executor,
  });
  const service = new CronService({ store, executor, clock, ...options.service });
  if (options.start !== false) await service.start();
  return {
    dir,
    clock,
    store,
    sessions,
    runner,
    service,
    advance: (ms) => clock.advance(ms, () => service.idle()),
    fireTimes: async (jobId) =>
      (await store.readRuns(jobId, { limit: 200 })).entries.map((e) => e.runAtMs ?? -1).reverse(),
  };
}

/** The pid of a process that has exited (for claims left by a process that is gone). */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid as number;
}

/**
 * Makes every claim in `<dir>/cron` (jobs.json and its journal) a claim of a process that is gone,
 * as a `kill -9` of the process that made them would: for tests that stand a crash in for a
 * second process in this one (the real thing, with child processes, is in test/processes.test.ts).
 * The generation moves on, so every store on the directory reads it again.
 */
export function orphanClaims(dir: string): void {
  const file = path.join(dir, "cron", "jobs.json");
  const doc = JSON.parse(readFileSync(file, "utf8"));
  const pid = deadPid();
  for (const lease of Object.values(doc.leases ?? {})) (lease as { pid: number }).pid = pid;
  const journal = (g: number) => path.join(dir, "cron", `jobs.journal.${g}.jsonl`);
  if (existsSync(journal(doc.generation))) {
    const lines = readFileSync(journal(doc.generation), "utf8").split("\n").filter(Boolean);
    const moved = lines.map((line) => {
      const record = JSON.parse(line);
      if (record.lease) record.lease.pid = pid;
      return JSON.stringify({ ...record, g: doc.generation + 1 });
    });
    writeFileSync(journal(doc.generation + 1), moved.map((line) => `${line}\n`).join(""));
    rmSync(journal(doc.generation));
  }
  doc.generation += 1;
  writeFileSync(file, JSON.stringify(doc, null, 2));
}
