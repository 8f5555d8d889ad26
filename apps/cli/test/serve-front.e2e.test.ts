import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt } from "./support/cli.js";
import { modulesLoadedBy, sdkChunks } from "./support/modules.js";

type Message = { id?: number; result?: Record<string, unknown>; error?: unknown };

/** Runs `clawtools serve` on the given lines (stdin then ends): its answers and loaded modules. */
function serve(args: string[], messages: unknown[]) {
  const run = modulesLoadedBy(["serve", ...args], messages.map((m) => `${JSON.stringify(m)}\n`).join(""));
  const answers = run.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Message);
  return {
    status: run.status,
    answers,
    byId: (id: number) => answers.find((m) => m.id === id),
    modules: run.modules,
  };
}

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
    ensureBuilt();
    workspace = mkdtempSync(path.join(tmpdir(), "clawtools-front-ws-"));
    writeFileSync(path.join(workspace, "notes.txt"), "first line\nsecond line\n");
  }, BUILD_TIMEOUT_MS);

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
