import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecTool, createProcessTool, ProcessRegistry } from "../src/index.js";
import { text } from "./helpers.js";

const registry = new ProcessRegistry();
afterAll(() => registry.dispose());
const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-gaps-"));
const ctx = { workspaceDir, sessionKey: "gaps" };
const exec = createExecTool(ctx, { registry, stdin: "open" });
const proc = createProcessTool(ctx, { registry });
const sessionOf = (r: { details: unknown }) => (r.details as { sessionId: string }).sessionId;
const item = (n: number) => `item ${String(n).padStart(5, "0")}`;
const items = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => item(from + i));

describe("poll and log name every gap they leave", () => {
  it("poll after the exit of 93,500 characters names the 63,503 it leaves out and how to read them", async () => {
    // 8,500 lines of 11 characters
    const r = await exec.execute("c", {
      command: "i=1; while [ $i -le 8500 ]; do printf 'item %05d\\n' $i; i=$((i+1)); done",
      background: true,
    });
    const id = sessionOf(r);
    await registry.get("gaps", id)!.exited;
    const polled = text(await proc.execute("p", { action: "poll", sessionId: id }));
    // the last 30,000 characters start mid-line: that partial line is left out too, and counted
    expect(polled).toBe(
      `[63503 earlier characters (5773 lines) of unread output were left out (poll keeps the last 30000 unread characters); read them with process action=log sessionId=${id} offset=0 limit=5773]\n${items(5774, 8500).join("\n")}\n\nProcess exited with code 0.`,
    );
    // and the log call the notice names returns exactly what was left out
    const log = text(await proc.execute("p", { action: "log", sessionId: id, offset: 0, limit: 5773 }));
    expect(log).toBe(items(1, 5773).join("\n"));
  });

  it("a later poll's gap starts where the previous poll stopped", async () => {
    const r = await exec.execute("c", {
      command:
        "printf 'a\\nb\\n'; read x; i=1; while [ $i -le 4000 ]; do printf 'item %05d\\n' $i; i=$((i+1)); done",
      background: true,
    });
    const id = sessionOf(r);
    expect(text(await proc.execute("p", { action: "poll", sessionId: id, timeout: 20_000 }))).toBe(
      "a\nb\n\nProcess still running.",
    );
    await proc.execute("p", { action: "write", sessionId: id, data: "go\n" });
    await registry.get("gaps", id)!.exited;
    const polled = text(await proc.execute("p", { action: "poll", sessionId: id }));
    // 44,000 new characters; the last 30,000 start mid-line (item 01273)
    expect(
      polled.startsWith(
        `[14003 earlier characters (1273 lines) of unread output were left out (poll keeps the last 30000 unread characters); read them with process action=log sessionId=${id} offset=2 limit=1273]\n${item(1274)}\n`,
      ),
    ).toBe(true);
    expect(text(await proc.execute("p", { action: "log", sessionId: id, offset: 2, limit: 1273 }))).toBe(
      items(1, 1273).join("\n"),
    );
  });

  it("poll says so when what it shows starts mid-line (one line longer than the unread limit)", async () => {
    const r = await exec.execute("c", { command: "head -c 40000 /dev/zero | tr '\\0' x", background: true });
    const id = sessionOf(r);
    await registry.get("gaps", id)!.exited;
    expect(text(await proc.execute("p", { action: "poll", sessionId: id }))).toBe(
      `[10000 earlier characters (1 lines) of unread output were left out (poll keeps the last 30000 unread characters); read them with process action=log sessionId=${id} offset=0 limit=1] The text below starts mid-line.\n${"x".repeat(30_000)}\n\nProcess exited with code 0.`,
    );
  });

  it("log pages stop at the output limit on a line boundary and say where to continue", async () => {
    const small = new ProcessRegistry({ maxOutputChars: 1_000 });
    const e = createExecTool(ctx, { registry: small });
    const p = createProcessTool(ctx, { registry: small });
    const id = sessionOf(await e.execute("c", { command: "seq 1 3000" }));
    // 1,000 characters hold "1" to "277" (each with its newline), then the notice
    const page = text(await p.execute("p", { action: "log", sessionId: id, offset: 0, limit: 3000 }));
    expect(page.endsWith("\n\n[page stopped at the 1000-character limit; continue with offset=277]")).toBe(
      true,
    );
    expect(page.startsWith("1\n2\n3\n")).toBe(true);
    expect(page.split("\n\n")[0]!.split("\n").at(-1)).toBe("277");
    const next = text(await p.execute("p", { action: "log", sessionId: id, offset: 277, limit: 2 }));
    expect(next).toBe("278\n279");
    // a single line longer than a page is cut, and the page says so
    const long = sessionOf(
      await e.execute("c", { command: "head -c 5000 /dev/zero | tr '\\0' y; echo; echo after" }),
    );
    expect(text(await p.execute("p", { action: "log", sessionId: long, offset: 0, limit: 2 }))).toBe(
      `${"y".repeat(1_000)}\n\n[line 0 is longer than the 1000-character page and was cut]\n[page stopped at the 1000-character limit; continue with offset=1]`,
    );
    expect(text(await p.execute("p", { action: "log", sessionId: long, offset: 5 }))).toBe(
      "[offset 5 is past the end: the output has 2 lines (0–1)]",
    );
    await small.dispose();
  });
});

describe("out-of-range values are refused", () => {
  it("exec refuses negative timeouts and yield windows", async () => {
    await expect(exec.execute("c", { command: "true", timeoutMs: -1 } as never)).rejects.toThrow(
      'exec: unknown argument "timeoutMs".',
    );
    await expect(exec.execute("c", { command: "true", timeout: -1 })).rejects.toThrow(
      'exec: timeout must be a number of 0 or more (got "-1").',
    );
    await expect(exec.execute("c", { command: "true", timeoutSeconds: -5 })).rejects.toThrow(
      'exec: timeoutSeconds must be a number of 0 or more (got "-5").',
    );
    await expect(exec.execute("c", { command: "true", yieldMs: Number.NaN })).rejects.toThrow(
      'exec: yieldMs must be a number of 0 or more (got "NaN").',
    );
  });

  it("process refuses negative offsets, limits and poll timeouts", async () => {
    for (const name of ["offset", "limit", "timeout"] as const) {
      await expect(proc.execute("p", { action: "log", sessionId: "x", [name]: -1 })).rejects.toThrow(
        `process: ${name} must be a number of 0 or more (got "-1").`,
      );
    }
  });
});
