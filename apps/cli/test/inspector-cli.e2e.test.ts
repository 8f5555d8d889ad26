// The host's view through the official MCP Inspector's CLI (`mcp-inspector --cli`): it starts the
// built `clawtools serve` over stdio as a user's command line and prints each answer as JSON.
// The Inspector needs Node >= 22: .ci/run installs it beside its Node 24.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, ensureBuilt } from "./support/cli.js";
import { findInspector } from "./support/host-tools.js";

const inspector = findInspector();
const skipReason = "skip" in inspector ? inspector.skip : undefined;
if (skipReason) console.warn(`[MCP Inspector CLI tests skipped] ${skipReason}`);

describe.skipIf(skipReason !== undefined)("the MCP Inspector CLI drives clawtools serve over stdio", () => {
  let dir: string;
  let workspace: string;
  let env: NodeJS.ProcessEnv;
  type Outcome = Awaited<ReturnType<typeof inspect>>;
  let list: Outcome;
  let read: Outcome;
  let failed: Outcome;
  let codeList: Outcome;
  let codeCall: Outcome;
  let searchList: Outcome;
  let searchCall: Outcome;

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(path.join(tmpdir(), "clawtools-inspector-"));
    workspace = path.join(dir, "workspace");
    mkdirSync(workspace);
    writeFileSync(path.join(workspace, "notes.md"), "# Notes\nThe Inspector reads this line.\n");
    // the Inspector keeps a catalog and secrets under HOME: a throwaway one, so nothing of the
    // user's is read or written; NODE_OPTIONS are vitest's, not the Inspector's
    const { NODE_OPTIONS: _, ...rest } = process.env;
    env = { ...rest, HOME: path.join(dir, "home"), XDG_STATE_HOME: path.join(dir, "state") };
    mkdirSync(env.HOME as string);
    // each Inspector command starts its own serve (stdio): the three run side by side
    [list, read, failed, codeList, codeCall, searchList, searchCall] = await Promise.all([
      // --strict: the Inspector lints each input schema and exits 6 on an error-severity problem
      inspect(["--profile", "full", "--method", "tools/list", "--strict"]),
      inspect(["--method", "tools/call", "--tool-name", "read", "--tool-arg", "path=notes.md"]),
      inspect(["--method", "tools/call", "--tool-name", "read", "--tool-arg", "path=missing.md"]),
      // code mode: the Inspector lists OpenClaw's two controls and runs code that calls read
      inspect(["--surface", "code", "--method", "tools/list", "--strict"]),
      inspect([
        "--surface",
        "code",
        "--method",
        "tools/call",
        "--tool-name",
        "exec",
        "--tool-arg",
        'code=const note = await read({ path: "notes.md" }); return note.text.split("\\n")[1];',
      ]),
      // Tool Search: the three controls, and read reached through dispatch_action by its id
      inspect(["--surface", "search", "--method", "tools/list", "--strict"]),
      inspect([
        "--surface",
        "search",
        "--method",
        "tools/call",
        "--tool-name",
        "dispatch_action",
        "--tool-arg",
        "id=clawtools:fs:read",
        "--tool-arg",
        'args={"path":"notes.md"}',
      ]),
    ]);
  }, BUILD_TIMEOUT_MS);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** `mcp-inspector --cli <the serve command line> --method …`: its exit code and parsed stdout. */
  async function inspect(args: string[]): Promise<{ code: number; answer: Record<string, unknown> }> {
    if ("skip" in inspector) throw new Error(inspector.skip);
    const command = [process.execPath, bin, "serve", "--workspace", workspace];
    const outcome = await promisify(execFile)(
      inspector.node,
      [inspector.entry, "--cli", ...command, ...args],
      {
        cwd: workspace,
        env,
        maxBuffer: 16 * 1024 * 1024,
      },
    ).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code?: number; stdout?: string; stderr?: string }) => {
        if (typeof error.code !== "number" || !error.stdout) throw error;
        return { code: error.code, stdout: error.stdout };
      },
    );
    return { code: outcome.code, answer: JSON.parse(outcome.stdout) as Record<string, unknown> };
  }

  it("tools/list: every tool of the full profile, described, with schemas the Inspector finds portable", () => {
    const { code, answer } = list;
    expect(code).toBe(0);
    const tools = answer.tools as Array<{ name: string; description: string; inputSchema: { type: string } }>;
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["read", "write", "edit", "exec", "grep", "web_fetch", "browser", "message"]),
    );
    for (const tool of tools) {
      expect(tool.description, tool.name).toMatch(/\S/u);
      expect(tool.inputSchema.type, tool.name).toBe("object");
    }
    const read = tools.find((t) => t.name === "read") as unknown as { inputSchema: { properties: object } };
    expect(Object.keys(read.inputSchema.properties)).toContain("path");
  });

  it("tools/call read: the file's text", () => {
    const { code, answer } = read;
    expect(code).toBe(0);
    expect(answer.isError).toBeUndefined();
    expect(answer.content).toEqual([{ type: "text", text: "# Notes\nThe Inspector reads this line.\n" }]);
  });

  it("tools/call that fails: isError with the tool's error shape, and the Inspector's tool-error exit", () => {
    const { code, answer } = failed;
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toEqual({
      status: "error",
      tool: "read",
      error: "File not found: missing.md.",
    });
    const [block] = answer.content as Array<{ type: string; text: string }>;
    expect(JSON.parse(block?.text ?? "")).toEqual(answer.structuredContent);
    // the Inspector's exit code for a result with isError (its EXIT_CODES.TOOL_ERROR)
    expect(code).toBe(5);
  });

  it("--surface code: exec and wait listed with schemas the Inspector finds portable, and exec runs code that calls read", () => {
    expect(codeList.code).toBe(0);
    const tools = codeList.answer.tools as Array<{ name: string; inputSchema: { required?: string[] } }>;
    expect(tools.map((t) => t.name)).toEqual(["exec", "wait"]);
    expect(tools[0]!.inputSchema.required).toEqual(["code"]);
    expect(codeCall.code).toBe(0);
    expect(codeCall.answer.structuredContent).toMatchObject({
      status: "completed",
      value: "The Inspector reads this line.",
      telemetry: { callCount: 1 },
    });
  });

  it("--surface search: the three Tool Search controls, portable, and dispatch_action reaches read by its id", () => {
    expect(searchList.code).toBe(0);
    const tools = searchList.answer.tools as Array<{ name: string }>;
    expect(tools.map((t) => t.name).sort()).toEqual(["dispatch_action", "tool_describe", "tool_search"]);
    expect(searchCall.code).toBe(0);
    const content = searchCall.answer.content as Array<{ text: string }>;
    expect(content.map((c) => c.text).join("\n")).toContain("The Inspector reads this line.");
  });
});
