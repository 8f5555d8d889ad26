import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, cliDir, ensureBuilt } from "./support/cli.js";
import { modulesLoadedBy, sdkChunks } from "./support/modules.js";

const HELLO = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
]
  .map((m) => `${JSON.stringify(m)}\n`)
  .join("");

describe("clawtools --version / --help start light", () => {
  beforeAll(() => ensureBuilt(), BUILD_TIMEOUT_MS);

  for (const args of [["--version"], ["--help"], ["-v"]]) {
    it(`${args.join(" ")} loads only the CLI's own files: no section, no MCP server, no SDK`, () => {
      const { status, modules } = modulesLoadedBy(args);
      expect(status).toBe(0);
      // Node's own modules (node:module for the bundle's require shim) cost nothing to load
      const foreign = modules.filter(
        (url) => url && !url.startsWith("node:") && !url.startsWith(`file://${path.join(cliDir, "dist")}/`),
      );
      expect(foreign).toEqual([]);
      // the SDK is bundled into the CLI's files now: none of those may load either
      expect(sdkChunks(modules)).toEqual([]);
    });
  }

  it("serve --help loads neither the MCP server nor its SDK", () => {
    const { status, stdout, modules } = modulesLoadedBy(["serve", "--help"]);
    expect(status).toBe(0);
    expect(stdout).toContain("Usage: clawtools serve");
    expect(
      modules.filter((url) => /modelcontextprotocol|\/packages\/mcp\/dist\/index\.js/.test(url)),
    ).toEqual([]);
    expect(sdkChunks(modules)).toEqual([]);
  });

  it("serve --profile minimal loads no fs section and no MCP SDK; TypeBox comes bundled in core", () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-minimal-serve-"));
    const { status, stdout, modules } = modulesLoadedBy(
      ["serve", "--profile", "minimal", "--workspace", workspace],
      HELLO,
    );
    expect(status).toBe(0);
    const listed = stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((m) => m.id === 2);
    expect(listed.result.tools.map((t: { name: string }) => t.name)).toEqual(["session_status"]);
    // the umbrella's re-export of fs's bridges no longer drags fs (and diff) in
    expect(
      modules.filter((url) => /\/plugins\/fs\/|\/node_modules\/(?:\.pnpm\/)?diff[@/]/.test(url)),
    ).toEqual([]);
    // core carries the TypeBox builders it runs; the CLI carries the MCP SDK, zod and clawtools
    expect(
      modules.filter((url) =>
        /\/node_modules\/(?:\.pnpm\/)?(?:@sinclair[+/]typebox|zod[@/]|@modelcontextprotocol[+/])/.test(url),
      ),
    ).toEqual([]);
    expect(modules.filter((url) => /\/packages\/clawtools\/|\/adapters\/mcp\//.test(url))).toEqual([]);
    // the opening is answered before the SDK loads; the first tools/call loads it (serve-front.e2e)
    expect(sdkChunks(modules)).toEqual([]);
  });

  it("serve answers tools/list without importing the sections it lists (they load on a call)", () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-lazy-serve-"));
    const hello = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ];
    const { status, stdout, modules } = modulesLoadedBy(
      ["serve", "--profile", "full", "--workspace", workspace],
      hello.map((m) => `${JSON.stringify(m)}\n`).join(""),
    );
    expect(status).toBe(0);
    const listed = stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((m) => m.id === 2);
    const names = listed.result.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(["exec", "memory_search", "browser", "message", "agents_list"]),
    );
    // sections without state are listed from their manifests: none of their code ran
    for (const section of ["runtime", "memory", "ui", "messaging", "nodes", "agents"])
      expect(modules.filter((url) => url.includes(`/plugins/${section}/dist/`))).toEqual([]);
  });
});
