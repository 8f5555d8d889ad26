import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type BackgroundProcess,
  createExecTool,
  createProcessTool,
  type ProcessHost,
  ProcessRegistry,
  pollView,
  logView,
  resultView,
  type SessionExit,
  SessionOutput,
  type SpawnOptions,
} from "../src/index.js";
import { text } from "./helpers.js";

/**
 * A host written only against the seam, as a remote backend would be: its own ids, its own
 * transport (here a plain child process standing in for a connection), output kept with
 * SessionOutput and answered with the shared views.
 */
class RemoteProcess implements BackgroundProcess {
  static count = 0;
  readonly id = `remote-${++RemoteProcess.count}`;
  readonly startedAt = Date.now();
  readonly scopeKey: string;
  readonly command: string;
  readonly cwd: string;
  readonly output: SessionOutput;
  readonly exited: Promise<SessionExit>;
  readonly applicationCursor = false;
  readonly spawnError = undefined;
  backgrounded = false;
  exit: SessionExit | undefined;
  endedAt: number | undefined;
  killed = false;
  private readonly child: ChildProcess;
  private readonly listeners = new Set<(chunk: string) => void>();

  constructor(readonly options: SpawnOptions) {
    this.scopeKey = options.scopeKey;
    this.command = options.command;
    this.cwd = options.cwd;
    this.output = new SessionOutput({
      sessionId: this.id,
      maxOutputChars: options.maxOutputChars ?? 200_000,
      pendingMaxOutputChars: options.pendingMaxOutputChars ?? 30_000,
      spillDir: options.spillDir,
    });
    this.child = spawn("/bin/sh", ["-c", `exec 2>&1; ${options.toRun ?? options.command}`], {
      cwd: options.cwd,
      env: { ...options.env, PATH: process.env.PATH ?? "/usr/bin:/bin", ON_HOST: "remote" },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    this.child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      this.output.append(d);
      for (const l of this.listeners) l(d);
    });
    this.exited = new Promise((resolve) =>
      this.child.once("close", (exitCode, exitSignal) => {
        this.exit = { exitCode, exitSignal };
        this.endedAt = Date.now();
        this.output.finish();
        resolve(this.exit);
      }),
    );
  }
  get pid() {
    return this.child.pid;
  }
  get running() {
    return this.exit === undefined;
  }
  get status() {
    if (this.running) return "running" as const;
    if (this.killed) return "killed" as const;
    return this.exit?.exitCode === 0 ? ("completed" as const) : ("failed" as const);
  }
  get tail() {
    return this.output.tail.tail(2_000);
  }
  get hasUnread() {
    return !this.output.pending.isEmpty;
  }
  onData(listener: (chunk: string) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  poll() {
    return pollView(this.output, this.id);
  }
  log(offset: number | undefined, limit: number | undefined) {
    return logView(this.output, offset, limit);
  }
  result() {
    return resultView(this.output, this.id);
  }
  outputInfo() {
    return {
      totalChars: this.output.total,
      totalLines: this.output.totalLines,
      truncated: this.output.overflowed,
    };
  }
  write(data: string) {
    this.child.stdin!.write(data);
  }
  closeStdin() {
    this.child.stdin!.end();
  }
  kill(signal: NodeJS.Signals = "SIGTERM") {
    if (!this.running) return;
    this.killed = true;
    process.kill(-this.child.pid!, signal);
  }
  dispose() {
    this.output.dispose();
  }
}

const spawned: SpawnOptions[] = [];
const remoteHost: ProcessHost = {
  spawn(options) {
    spawned.push(options);
    return new RemoteProcess(options);
  },
};

const registry = new ProcessRegistry();
afterAll(() => registry.dispose());
const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-host-"));
const ctx = { workspaceDir, sessionKey: "h" };
const exec = createExecTool(ctx, {
  registry,
  hosts: {
    sandbox: {
      processes: remoteHost,
      run: () => Promise.reject(new Error("run is not used when the host offers processes")),
    },
  },
});
const proc = createProcessTool(ctx, { registry });
const sessionOf = (r: { details: unknown }) => (r.details as { sessionId: string }).sessionId;

describe("a process host behind the seam backs exec and process", () => {
  it("runs foreground calls on the host, with only the call's variables", async () => {
    const r = await exec.execute("c", { command: "echo on $ON_HOST; exit 4", env: { GREETING: "hi" } });
    expect(text(r)).toBe("on remote\n\n(Command exited with code 4)");
    expect(sessionOf(r)).toMatch(/^remote-\d+$/);
    expect(spawned.at(-1)!.env).toEqual({ GREETING: "hi" });
  });

  it("backgrounds on the host; process list, write, poll, log and kill work through the handle", async () => {
    const r = await exec.execute("c", {
      command: "echo ready; read line; echo got $line; sleep 300",
      background: true,
    });
    const id = sessionOf(r);
    expect(text(r)).toMatch(new RegExp(`^Command still running \\(session ${id}, pid \\d+\\)\\.`));
    expect(text(await proc.execute("p", { action: "list" }))).toContain(`${id} running`);
    expect(text(await proc.execute("p", { action: "poll", sessionId: id, timeout: 20_000 }))).toBe(
      "ready\n\nProcess still running.",
    );
    await proc.execute("p", { action: "write", sessionId: id, data: "abc\n" });
    expect(text(await proc.execute("p", { action: "poll", sessionId: id, timeout: 20_000 }))).toBe(
      "got abc\n\nProcess still running.",
    );
    expect(text(await proc.execute("p", { action: "log", sessionId: id }))).toBe("ready\ngot abc");
    expect(text(await proc.execute("p", { action: "kill", sessionId: id }))).toBe(`Killed session ${id}.`);
  });

  it("keeps the head and tail of output past the limit on the host too", async () => {
    const r = await exec.execute("c", { command: "seq 1 100000" });
    const out = text(r);
    expect(out.startsWith("1\n2\n")).toBe(true);
    expect(out.endsWith("99999\n100000")).toBe(true);
    expect(out).toMatch(
      /\n\[\.\.\. \d+ characters \(\d+ lines\) left out here; the whole output \(588895 characters, 100000 lines\) is in \S+; read the missing lines with process action=log sessionId=remote-\d+ offset=\d+ limit=\d+\]\n/,
    );
  });

  it("a run-only host keeps the head, the tail and the exit line of output past the limit", async () => {
    const runOnly = createExecTool(ctx, {
      registry,
      hosts: {
        node: {
          async run(_command, o) {
            for (let i = 1; i <= 30_000; i++) o.onData(`row ${String(i).padStart(5, "0")}\n`);
            o.onData("END-MARKER\n");
            return { exitCode: 3 };
          },
        },
      },
    });
    const out = text(await runOnly.execute("c", { command: "anything", host: "node" }));
    expect(out.startsWith("row 00001\n")).toBe(true);
    expect(out.endsWith("row 30000\nEND-MARKER\n\n(Command exited with code 3)")).toBe(true);
    expect(out).toMatch(
      /\n\[\.\.\. \d+ characters \(\d+ lines\) left out here; they were not kept \(this host runs commands in the foreground only; give it `processes` to keep whole outputs\) and cannot be recovered\]\n/,
    );
    expect(out.length).toBeLessThanOrEqual(200_000 + 40);
  });
});
