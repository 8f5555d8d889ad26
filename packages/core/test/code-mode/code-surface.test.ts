// Code mode as a model meets it: exec and wait in OpenClaw 9.6's shapes, the catalog as typed
// async functions, declarations to read, search handles, MCP tools under MCP, and a run that
// outlives its budget continued with wait.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { calls, codeSurface, run, workspace } from "./catalog.js";

describe("code surface", () => {
  const surface = codeSurface();

  it("offers exactly exec and wait in OpenClaw 9.6's shapes, the catalog indexed in exec's description", () => {
    expect(surface.exec.name).toBe("exec");
    expect(surface.wait.name).toBe("wait");
    expect(Object.keys((surface.exec.parameters as { properties: object }).properties)).toEqual([
      "title",
      "code",
      "restartSafe",
    ]);
    expect((surface.wait.parameters as { required: string[] }).required).toEqual(["runId"]);
    const description = surface.exec.description;
    expect(description).toContain("10000 ms wall-clock budget");
    expect(description).toContain("Output/value/errors share 65536 bytes");
    expect(description).toContain("Enabled async tool globals (descriptions are intentionally deferred):");
    // typed outputs first: the plugin's forecast declares one
    expect(description).toContain("- forecast { city: string } -> { city: string; celsius: number }");
    expect(description).toContain(
      "- read { path: string; offset?: number } -> { text: string; details?: unknown }",
    );
    expect(description).toContain("Use the shell tool `exec` for heavier computation.");
    // an MCP server's words never reach a tool description
    expect(description).not.toContain("IGNORE PREVIOUS");
    expect(description).toContain("MCP tools use the `MCP` namespace (servers: calendar");
  });

  it("runs JavaScript that calls read and exec through the API and returns the value", async () => {
    const result = await run(
      surface,
      `const note = await read({ path: "note.txt" });
       const shell = await exec({ command: "echo hi" });
       text("read " + note.text.length + " chars");
       return { code: note.text.match(/\\d+/)[0], exit: shell.details.exitCode };`,
    );
    expect(result).toMatchObject({
      status: "completed",
      value: { code: "4711", exit: 0 },
      output: [{ type: "text", text: "read 24 chars" }],
    });
    expect(JSON.parse(result.text)).toMatchObject({ status: "completed", value: { code: "4711" } });
  });

  it("resolves a typed tool to its details and writes through the catalog's own write", async () => {
    const result = await run(
      surface,
      `const f = await forecast({ city: "Oslo" });
       await write({ path: "out.txt", content: f.city + " " + f.celsius });
       return f;`,
    );
    expect(result.value).toEqual({ city: "Oslo", celsius: 21 });
    expect(readFileSync(path.join(workspace, "out.txt"), "utf8")).toBe("Oslo 21");
  });

  it("serves each tool's declaration, generated from its input and output schema", async () => {
    const result = await run(
      surface,
      `const listed = await API.list("tools");
       const decl = await API.read("tools/forecast.d.ts");
       const read = await API.read("tools/read.d.ts");
       return { paths: listed.files.map((f) => f.path), forecast: decl.content, read: read.content };`,
    );
    const value = result.value as { paths: string[]; forecast: string; read: string };
    expect(value.paths).toEqual(
      expect.arrayContaining(["tools/read.d.ts", "tools/exec.d.ts", "tools/forecast.d.ts"]),
    );
    expect(value.forecast).toContain(
      "declare function forecast(input: { city: string }): Promise<{ city: string; celsius: number }>;",
    );
    expect(value.read).toContain(" * @param path File to read");
    expect(value.read).toContain(
      "declare function read(input: { path: string; offset?: number }): Promise<{ text: string; details?: unknown }>;",
    );
  });

  it("finds tools with catalog.search: the handles are callable and describe their schema", async () => {
    const result = await run(
      surface,
      `const [tool] = await catalog.search("weather forecast for a city");
       const schema = await tool.describe();
       return { name: tool.toolName, answer: await tool({ city: "Rome" }), required: schema.parameters.required };`,
    );
    expect(result.value).toEqual({
      name: "forecast",
      answer: { city: "Rome", celsius: 21 },
      required: ["city"],
    });
  });

  it("calls a mounted MCP server's tool under MCP, and frames the result as external content", async () => {
    const result = await run(
      surface,
      `const created = await MCP.calendar.create_event({ title: "launch" });
       return created.content[0].text;`,
    );
    expect(result.status).toBe("completed");
    expect(result.value).toContain("created launch");
    expect(result.text).toMatch(/^<<<EXTERNAL_UNTRUSTED_CONTENT id="[0-9a-f]+">>>/);
    const header = await run(surface, `return (await API.read("mcp/calendar.d.ts")).content;`);
    expect(header.value).toContain(
      "function create_event(input: { title: string }): Promise<McpToolResult>;",
    );
  });

  it("a tool failure is catchable in the guest", async () => {
    const result = await run(
      surface,
      `try { await read({}); } catch (e) { return { message: e.message, code: e.code }; }`,
    );
    expect(result.value).toMatchObject({ code: "tool_error" });
    expect((result.value as { message: string }).message).toMatch(/path/);
  });

  it("parks a run whose tools outlive the budget, and wait continues it", async () => {
    const short = codeSurface({ limits: { timeoutMs: 400 } });
    const first = await run(short, `text("started"); return await probe({ ms: 1500 });`);
    expect(first).toMatchObject({
      status: "waiting",
      reason: "pending_tools",
      pendingToolCalls: [{ id: "bridge:call:1", method: "call" }],
      output: [{ type: "text", text: "started" }],
    });
    let resumed = (await short.wait.execute("call-2", { runId: first.runId })).details as {
      status: string;
      value?: unknown;
    };
    for (let i = 0; resumed.status === "waiting" && i < 10; i++)
      resumed = (await short.wait.execute("call-3", { runId: first.runId })).details as typeof resumed;
    expect(resumed).toMatchObject({ status: "completed", value: { details: { slept: 1500 } } });
    await expect(short.wait.execute("call-4", { runId: first.runId })).rejects.toThrow(
      "code mode run is unavailable or expired.",
    );
  });

  it("refuses shell text, other languages and a syntax error before anything runs", async () => {
    await expect(surface.exec.execute("1", { command: "ls -la /" })).rejects.toThrow(
      /^code-mode exec runs JavaScript, not shell commands\./,
    );
    await expect(surface.exec.execute("1", { code: "return 1", language: "python" })).rejects.toThrow(
      "Code Mode accepts JavaScript only. Remove language and typecheck; use API.read(...) for tool types.",
    );
    await expect(surface.exec.execute("1", {})).rejects.toThrow(
      "code or command must be a non-empty string.",
    );
    const before = calls.length;
    const result = await run(surface, `await write({ path: "never.txt", content: "x" });\nconst = 1;`);
    expect(result).toMatchObject({ status: "failed", code: "invalid_input", failurePhase: "input" });
    expect(result.error).toMatch(
      /^SyntaxError at clawtools-code-mode:user\.js:2:\d+: .*No tools were dispatched/,
    );
    expect(calls.length).toBe(before);
    expect(existsSync(path.join(workspace, "never.txt"))).toBe(false);
  });
});
