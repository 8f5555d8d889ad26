import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(cliDir, "dist", "bin.js");
const recorder = path.join(cliDir, "test", "fixtures", "record-modules.mjs");

type Message = { id?: number; result?: Record<string, unknown>; error?: unknown };

/** Runs `clawtools serve` on the given lines (stdin then ends): its answers and loaded modules. */
function serve(args: string[], messages: unknown[]) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "clawtools-front-")), "loaded.txt");
  const run = spawnSync(process.execPath, ["--import", recorder, bin, "serve", ...args], {
    encoding: "utf8",
    input: messages.map((m) => `${JSON.stringify(m)}\n`).join(""),
    env: { ...process.env, RECORD_MODULES: file },
  });
  const answers = run.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Message);
  const modules = readFileSync(file, "utf8").split("\n");
  return { status: run.status, answers, byId: (id: number) => answers.find((m) => m.id === id), modules };
}

/** The CLI's own files carrying the MCP SDK or zod (the bundler's region comments name them). */
const sdkChunks = (modules: string[]) =>
  modules.filter(
    (url) =>
      url.startsWith(`file://${path.join(cliDir, "dist")}/`) &&
      /node_modules\/\.pnpm\/(?:@modelcontextprotocol\+|zod@)/.test(readFileSync(fileURLToPath(url), "utf8")),
  );

const initialize = (protocolVersion: string, meta?: object) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion,
    capabilities: { elicitation: {} },
    clientInfo: { name: "front-e2e", version: "1" },
    ...(meta ? { _meta: meta } : {}),
  },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const list = (params?: object) => ({
  jsonrpc: "2.0",
  id: 2,
  method: "tools/list",
  ...(params ? { params } : {}),
});

describe("clawtools serve answers a client's opening before it loads the MCP SDK", () => {
  let workspace: string;
  beforeAll(() => {
    if (!existsSync(bin))
      execFileSync("pnpm", ["turbo", "run", "build", "--filter=@clawtools/cli..."], {
        cwd: path.resolve(cliDir, "../.."),
        stdio: "ignore",
      });
    workspace = mkdtempSync(path.join(tmpdir(), "clawtools-front-ws-"));
    writeFileSync(path.join(workspace, "notes.txt"), "first line\nsecond line\n");
  }, 600_000);

  it("lists the tools without loading the SDK or zod; the first call loads them and is answered", () => {
    const opening = serve(
      ["--profile", "coding", "--workspace", workspace],
      [initialize("2025-06-18"), initialized, list()],
    );
    expect(opening.status).toBe(0);
    expect(((opening.byId(2)?.result?.tools ?? []) as unknown[]).length).toBeGreaterThan(5);
    expect(sdkChunks(opening.modules)).toEqual([]);
    const call = serve(
      ["--profile", "coding", "--workspace", workspace],
      [
        initialize("2025-06-18"),
        initialized,
        list(),
        {
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: { name: "read", arguments: { path: "notes.txt" } },
        },
      ],
    );
    expect(call.status).toBe(0);
    expect(JSON.stringify(call.byId(3)?.result)).toContain("second line");
    expect(sdkChunks(call.modules).length).toBeGreaterThan(0);
    // the replayed initialize is not answered twice
    expect(call.answers.filter((m) => m.id === 1)).toHaveLength(1);
  }, 120_000);

  for (const profile of ["minimal", "coding", "full"])
    it(`--profile ${profile}: initialize and tools/list equal the SDK server's, for each revision`, () => {
      const args = ["--profile", profile, "--workspace", workspace];
      for (const version of ["2025-06-18", "2025-11-25"]) {
        const front = serve(args, [initialize(version), initialized, list()]);
        // an initialize with a `_meta` (no envelope claim) is left to the SDK server: the reference
        const sdk = serve(args, [initialize(version, {}), initialized, list()]);
        expect(sdkChunks(front.modules)).toEqual([]);
        expect(sdkChunks(sdk.modules).length).toBeGreaterThan(0);
        expect(front.byId(1)).toEqual(sdk.byId(1));
        expect(front.byId(2)).toEqual(sdk.byId(2));
        expect(front.byId(1)?.result?.protocolVersion).toBe(version);
      }
      // 2026-07-28 opens with server/discover and is the SDK's from its first message
      const envelope = {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "front-e2e", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      };
      const modern = serve(args, [
        { jsonrpc: "2.0", id: 1, method: "server/discover", params: envelope },
        list(envelope),
      ]);
      expect(JSON.stringify(modern.byId(1)?.result)).toContain("2026-07-28");
      const legacy = serve(args, [initialize("2025-11-25"), initialized, list()]);
      const names = (m: Message | undefined) =>
        ((m?.result?.tools ?? []) as Array<{ name: string }>).map((t) => t.name);
      expect(names(modern.byId(2))).toEqual(names(legacy.byId(2)));
    }, 240_000);
});
