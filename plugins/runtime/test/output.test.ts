import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecTool, createProcessTool, ProcessRegistry } from "../src/index.js";
import { execOutputResources } from "../src/exec-output-resources.js";
import { linkOf, text } from "./helpers.js";

const registry = new ProcessRegistry();
afterAll(() => registry.dispose());
const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-out-"));
const stateDir = mkdtempSync(path.join(tmpdir(), "clawtools-out-state-"));
const ctx = { workspaceDir, stateDir, sessionKey: "out" };
const exec = createExecTool(ctx, { registry });
const proc = createProcessTool(ctx, { registry });
const details = (r: { details: unknown }) => r.details as Record<string, unknown>;

// 353,500 characters of numbered lines: "line 000001 " + 88 zeros + \n = 101 chars a line
const BIG = "i=1; while [ $i -le 3500 ]; do printf 'line %06d %088d\\n' $i 0; i=$((i+1)); done";

describe("exec output past the limit", () => {
  it("keeps the head and the tail, names what was left out and where to read it", async () => {
    const r = await exec.execute("c", { command: `${BIG}; echo END-MARKER; exit 3` });
    const out = text(r);
    const d = details(r);
    // the end always reaches the model: the last lines, then the exit code
    expect(
      out.endsWith("line 003500 " + "0".repeat(88) + "\nEND-MARKER\n\n(Command exited with code 3)"),
    ).toBe(true);
    expect(out.startsWith(`line 000001 ${"0".repeat(88)}\n`)).toBe(true);
    expect(out.length).toBeLessThanOrEqual(200_000 + 40);
    const file = d.outputFile as string;
    expect(file.startsWith(path.join(stateDir, "runtime", "exec-output") + path.sep)).toBe(true);
    // head: 40,000 chars cut back to 396 whole lines; the tail starts on a line boundary
    const omittedChars = d.omittedChars as number;
    const omittedLines = d.omittedLines as number;
    expect(omittedChars).toBe(omittedLines * 101);
    expect(
      out.includes(
        `\nline 000396 ${"0".repeat(88)}\n[... ${omittedChars} characters (${omittedLines} lines) left out here; the whole output (353511 characters, 3501 lines) is in ${file}; read the missing lines with process action=log sessionId=${d.sessionId} offset=396 limit=${omittedLines}]\nline ${String(397 + omittedLines).padStart(6, "0")} `,
      ),
    ).toBe(true);
    expect(d).toMatchObject({ truncated: true, totalChars: 353_511, totalLines: 3501, exitCode: 3 });
    // the spill file holds every character
    const spilled = readFileSync(file, "utf8");
    expect(spilled.length).toBe(353_511);
    expect(spilled.endsWith("END-MARKER\n")).toBe(true);
    // and the result links it as a resource, readable in this scope only
    const link = linkOf(r)!;
    expect(link).toMatchObject({
      uri: `clawtools://runtime/exec-output/${d.sessionId}`,
      mimeType: "text/plain",
    });
    const resources = execOutputResources(registry);
    expect((await resources.list(ctx)).map((x) => x.uri)).toContain(link.uri);
    expect(await resources.read(link.uri, ctx)).toEqual({ mimeType: "text/plain", body: spilled });
    expect(await resources.read(link.uri, { ...ctx, sessionKey: "someone-else" })).toBeUndefined();
    expect((await resources.list({ ...ctx, sessionKey: "someone-else" })).map((x) => x.uri)).not.toContain(
      link.uri,
    );
    // and process log on the session the result names reads the missing lines exactly
    const page = await proc.execute("p", {
      action: "log",
      sessionId: d.sessionId as string,
      offset: 396,
      limit: 3,
    });
    expect(text(page)).toBe(
      [397, 398, 399].map((n) => `line ${String(n).padStart(6, "0")} ${"0".repeat(88)}`).join("\n"),
    );
    // removing the session removes its spill file
    await proc.execute("p", { action: "remove", sessionId: d.sessionId as string });
    expect(existsSync(file)).toBe(false);
  }, 60_000);

  it("a timeout keeps the tail and names the timeoutSeconds parameter", async () => {
    await expect(exec.execute("c", { command: "echo started; sleep 30", timeoutSeconds: 1 })).rejects.toThrow(
      "started\n\nCommand timed out after 1 seconds. If this command is expected to take longer, re-run with a higher timeout (e.g., exec timeoutSeconds=300), or with background=true / yieldMs and follow up with process; do not rely on a trailing '&'.",
    );
  });

  it("keeps memory bounded on a 100 MB output; the spill file stops at its cap and says so", async () => {
    const before = process.memoryUsage().rss;
    const r = await exec.execute("c", {
      command:
        "yes 0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghi | head -c 104857600; echo; echo THE-END",
    });
    const out = text(r);
    expect(out.endsWith("\nTHE-END")).toBe(true);
    expect(out.length).toBeLessThanOrEqual(200_000);
    const d = details(r);
    // the file keeps whole lines only, up to its 64 Mi-character cap
    const notice =
      /\[\.\.\. \d+ characters \(\d+ lines\) left out here; the first (\d+) characters of the output are in (\S+) \(output past that was not kept: the spill file limit\); read what is kept with process action=log sessionId=\w+ offset=434 limit=(\d+)\]/.exec(
        out,
      );
    expect(notice?.[2]).toBe(d.outputFile);
    expect(Number(notice?.[1])).toBe(67_108_864 - (67_108_864 % 92)); // 92-character lines
    // the whole output was never held: growth stays far below the 100 MB produced
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
    const id = d.sessionId as string;
    // lines past the spill file and before the memory tail are named as lost
    const log = text(await proc.execute("p", { action: "log", sessionId: id, offset: 800_000, limit: 2 }));
    expect(log).toMatch(
      /^\[lines 800000–800001 were not kept \(past the spill file limit\) and cannot be recovered\]$/,
    );
    await proc.execute("p", { action: "remove", sessionId: id });
  }, 120_000);

  it("without a state dir, output spills to a private temp dir that dispose removes", async () => {
    const own = new ProcessRegistry({ maxOutputChars: 1_000 });
    const e = createExecTool({ workspaceDir }, { registry: own });
    const r = await e.execute("c", { command: "seq 1 2000" });
    const d = details(r);
    const file = d.outputFile as string;
    expect(path.dirname(file).startsWith(path.join(tmpdir(), "clawtools-exec-"))).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(`${Array.from({ length: 2000 }, (_, i) => i + 1).join("\n")}\n`);
    expect(text(r).endsWith("1999\n2000")).toBe(true);
    await own.dispose();
    expect(existsSync(path.dirname(file))).toBe(false);
  });

  it("says plainly when the spill file cannot be written: the cut part cannot be recovered", async () => {
    const notADir = path.join(stateDir, "a-file");
    writeFileSync(notADir, "x");
    const small = new ProcessRegistry({ maxOutputChars: 1_000 });
    const e = createExecTool({ workspaceDir, stateDir: notADir }, { registry: small });
    const p = createProcessTool({ workspaceDir, stateDir: notADir }, { registry: small });
    const r = await e.execute("c", { command: "seq 1 2000" });
    expect(text(r)).toMatch(
      /^1\n[\s\S]*\n\[\.\.\. \d+ characters \(\d+ lines\) left out here; they were not kept \(ENOTDIR: not a directory, mkdir '[^']+'\) and cannot be recovered\]\n[\s\S]*\n2000$/,
    );
    expect(details(r).outputFile).toBeUndefined();
    // log names the lines it cannot give back
    const log = text(
      await p.execute("p", {
        action: "log",
        sessionId: details(r).sessionId as string,
        offset: 100,
        limit: 2,
      }),
    );
    expect(log).toMatch(
      /^\[lines 100–101 were not kept \(ENOTDIR: not a directory, mkdir '[^']+'\) and cannot be recovered\]$/,
    );
    await small.dispose();
  });

  it("says so when the head is cut mid-line (one line longer than the head)", async () => {
    const r = await exec.execute("c", { command: "head -c 300000 /dev/zero | tr '\\0' x; echo; echo END" });
    const out = text(r);
    const d = details(r);
    expect(out).toBe(
      `${"x".repeat(40_000)}\n[... 260001 characters (1 lines) left out here (the text next to this notice is cut mid-line); the whole output (300005 characters, 2 lines) is in ${d.outputFile}; read the missing lines with process action=log sessionId=${d.sessionId} offset=0 limit=1]\nEND`,
    );
    await proc.execute("p", { action: "remove", sessionId: d.sessionId as string });
  });
});
