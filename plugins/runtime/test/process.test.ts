import { afterAll, describe, expect, it } from "vitest";
import { createExecTool, createProcessTool, encodeKeyToken, ProcessRegistry } from "../src/index.js";
import { text, waitFor } from "./helpers.js";

const registry = new ProcessRegistry();
afterAll(() => registry.killAll());
const ctx = { workspaceDir: process.cwd(), sessionKey: "owner" };
const exec = createExecTool(ctx, { registry });
const proc = createProcessTool(ctx, { registry });
const sessionOf = (r: { details: unknown }) => (r.details as { sessionId: string }).sessionId;

describe("process", () => {
  it("starts non-PTY runs with stdin closed, as OpenClaw does", async () => {
    // cat reads EOF at once instead of waiting out the yield window
    expect(text(await exec.execute("c", { command: "cat; echo after" }))).toBe("after");
    const r = await exec.execute("c", { command: "sleep 30", background: true });
    await expect(proc.execute("p", { action: "write", sessionId: sessionOf(r), data: "x" })).rejects.toThrow(
      `Session ${sessionOf(r)} stdin is not writable. Non-PTY runs start with stdin closed; run exec with pty=true to type into a program.`,
    );
    await proc.execute("p", { action: "remove", sessionId: sessionOf(r) });
  });

  it("writes to an open stdin, closes it, and pages the log", async () => {
    const open = createExecTool(ctx, { registry, stdin: "open" });
    const r = await open.execute("c", { command: "cat; seq 1 300", background: true });
    const id = sessionOf(r);
    await proc.execute("p", { action: "write", sessionId: id, data: "hello\n", eof: true });
    await registry.get("owner", id)!.exited;
    const log = text(await proc.execute("p", { action: "log", sessionId: id }));
    expect(log.startsWith("101\n")).toBe(true);
    expect(log.endsWith("300\n\n[showing last 200 of 301 lines; pass offset/limit to page]")).toBe(true);
    expect(text(await proc.execute("p", { action: "log", sessionId: id, offset: 0, limit: 2 }))).toBe(
      "hello\n1",
    );
  });

  it("writes to a PTY and ends its input with eof", async () => {
    const r = await exec.execute("c", { command: "cat; echo cat-done", pty: true, background: true });
    const id = sessionOf(r);
    expect(
      text(await proc.execute("p", { action: "write", sessionId: id, data: "typed\n", eof: true })),
    ).toBe(`Wrote 6 bytes to session ${id} (stdin closed).`);
    const session = registry.get("owner", id)!;
    await session.exited;
    // a PTY may report its exit a moment before the last output arrives
    await waitFor(() => session.tail.includes("cat-done"));
    const polled = text(await proc.execute("p", { action: "poll", sessionId: id, timeout: 10_000 }));
    expect(polled).toContain("typed");
    expect(polled).toMatch(/cat-done\s*\n\nProcess exited with code 0\.$/);
  });

  it("refuses input and polls for a run that is still in the foreground", async () => {
    const pending = exec.execute("c", { command: "sleep 0.5; echo fg", pty: true });
    await waitFor(() => registry.list("owner").some((s) => s.command === "sleep 0.5; echo fg"));
    const id = registry.list("owner").find((s) => s.command === "sleep 0.5; echo fg")!.id;
    await expect(proc.execute("p", { action: "send-keys", sessionId: id, keys: ["enter"] })).rejects.toThrow(
      `Session ${id} is not backgrounded.`,
    );
    await expect(proc.execute("p", { action: "poll", sessionId: id })).rejects.toThrow(
      `Session ${id} is not backgrounded.`,
    );
    expect(text(await pending)).toBe("fg");
  });

  it("scopes sessions by session key and lists newest first", async () => {
    const r = await exec.execute("c", { command: "sleep 30", background: true });
    const other = createProcessTool({ sessionKey: "stranger" }, { registry });
    expect(text(await other.execute("p", { action: "list" }))).toBe("No running or recent sessions.");
    // an unknown session is a plain answer, as in OpenClaw, not a tool error
    expect(await other.execute("p", { action: "poll", sessionId: sessionOf(r) })).toEqual({
      content: [{ type: "text", text: `No session found for ${sessionOf(r)}` }],
      details: { status: "failed", error: `No session found for ${sessionOf(r)}` },
    });
    const list = text(await proc.execute("p", { action: "list" }));
    expect(list.split("\n")[0]).toMatch(new RegExp(`^${sessionOf(r)} running \\d+s :: sleep 30$`));
    await expect(proc.execute("p", { action: "clear", sessionId: sessionOf(r) })).rejects.toThrow(
      /still running/,
    );
    expect(text(await proc.execute("p", { action: "kill", sessionId: sessionOf(r) }))).toBe(
      `Killed session ${sessionOf(r)}.`,
    );
    expect(text(await proc.execute("p", { action: "clear", sessionId: sessionOf(r) }))).toBe(
      `Cleared session ${sessionOf(r)}.`,
    );
    await expect(proc.execute("p", { action: "frobnicate" as never })).rejects.toThrow(
      "Unknown action frobnicate",
    );
  });

  it("drives an interactive program in a real PTY with send-keys (arrows, Ctrl-C), paste and submit", async () => {
    const script = [
      "process.stdin.setRawMode(true);",
      "console.log('READY');",
      "process.stdin.on('data', (d) => {",
      "  console.log('GOT ' + d.toString('hex'));",
      "  if (d[0] === 3) { console.log('BYE'); process.exit(0); }",
      "});",
    ].join("");
    const r = await exec.execute("c", { command: `node -e "${script}"`, pty: true, background: true });
    const id = sessionOf(r);
    const session = registry.get("owner", id)!;
    expect(await waitFor(() => session.tail.includes("READY"))).toBe(true);
    await proc.execute("p", { action: "send-keys", sessionId: id, keys: ["up", "M-x"] });
    expect(await waitFor(() => session.tail.includes("GOT 1b5b41"))).toBe(true);
    expect(await waitFor(() => session.tail.includes("1b78"))).toBe(true);
    await proc.execute("p", { action: "paste", sessionId: id, text: "hi" });
    expect(await waitFor(() => session.tail.includes("1b5b3230307e6869"))).toBe(true);
    await proc.execute("p", { action: "submit", sessionId: id });
    expect(await waitFor(() => session.tail.includes("GOT 0d"))).toBe(true);
    await proc.execute("p", { action: "send-keys", sessionId: id, keys: ["C-c"] });
    await session.exited;
    const polled = text(await proc.execute("p", { action: "poll", sessionId: id, timeout: 10_000 }));
    expect(polled).toContain("BYE");
    expect(polled).toMatch(/Process exited with code 0\.$/);
    expect(text(await proc.execute("p", { action: "remove", sessionId: id }))).toBe(`Removed session ${id}.`);
  });

  it("encodes tmux-style keys", () => {
    expect(encodeKeyToken("C-c")).toBe("\x03");
    expect(encodeKeyToken("^D")).toBe("\x04");
    expect(encodeKeyToken("up", true)).toBe("\x1bOA");
    expect(encodeKeyToken("C-left")).toBe("\x1b[1;5D");
    expect(encodeKeyToken("S-tab")).toBe("\x1b[Z");
    expect(encodeKeyToken("f5")).toBe("\x1b[15~");
    expect(encodeKeyToken("kp5")).toBe("\x1bOu");
    expect(encodeKeyToken("nonsense-key")).toBeUndefined();
  });
});
