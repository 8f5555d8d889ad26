import { symlinkSync } from "node:fs";
import path from "node:path";
import { createToolset } from "@clawtools/core";
import { checkPluginContract } from "@clawtools/testing";
import { describe, expect, it } from "vitest";
import { createMemoryPlugin, createOpenAICompatibleEmbedder } from "../src/index.js";
import { workspace } from "./helpers.js";

const details = (r: { details: unknown }) => r.details as Record<string, any>;

describe("memory tools", () => {
  it("memory_search returns scored snippets with citations; memory_get slices lines", async () => {
    const ws = workspace({
      "MEMORY.md": "# Team\n\nDana leads the mobile team.\nEvan leads the web team.\nFaye runs support.\n",
      "memory/2026-02-01.md": "Decided: the mobile app ships on the first Monday of each month.\n",
    });
    const plugin = createMemoryPlugin();
    const set = createToolset({
      plugins: [plugin],
      context: { workspaceDir: ws },
      policy: { profile: "coding" },
    });
    const [search, get] = set.tools;
    expect(set.tools.map((t) => t.name)).toEqual(["memory_search", "memory_get"]);
    const r = details(await search!.execute("1", { query: "when does the mobile app ship", minScore: 0 }));
    expect(r).toMatchObject({ provider: "local", mode: "hybrid", fallback: null, citations: "on" });
    expect(r.results[0]).toMatchObject({
      path: "memory/2026-02-01.md",
      startLine: 1,
      endLine: 1,
      source: "memory",
      citation: "memory/2026-02-01.md#L1-L1",
    });
    expect(r.results[0].snippet).toContain("Source: memory/2026-02-01.md#L1-L1");
    expect(r.results.every((x: { score: number }) => x.score >= 0)).toBe(true);
    expect(details(await get!.execute("2", { path: "MEMORY.md", from: 3, lines: 2 }))).toEqual({
      path: "MEMORY.md",
      from: 3,
      lines: 2,
      text: "Dana leads the mobile team.\nEvan leads the web team.",
    });
    expect(details(await get!.execute("3", { path: "memory/missing.md" }))).toEqual({
      path: "memory/missing.md",
      text: "",
    });
    plugin.close();
  });

  it("memory_get refuses .., other files and symlinks", async () => {
    const ws = workspace({ "MEMORY.md": "ok\n", "secrets.md": "no\n", "memory/notes.txt": "no\n" });
    symlinkSync(path.join(ws, "secrets.md"), path.join(ws, "memory", "link.md"));
    const plugin = createMemoryPlugin();
    const get = createToolset({ plugins: [plugin], context: { workspaceDir: ws } }).tools.find(
      (t) => t.name === "memory_get",
    )!;
    for (const bad of [
      "../etc/passwd.md",
      "secrets.md",
      "memory/notes.txt",
      "/etc/hostname",
      "memory/../secrets.md",
    ]) {
      const r = await get.execute("x", { path: bad });
      expect(r.isError).toBe(true);
      expect(details(r).error).toContain("memory_get only reads memory files");
    }
    expect(details(await get.execute("y", { path: "memory/link.md" })).error).toContain(
      "does not follow symlinks",
    );
    plugin.close();
  });

  it("uses an OpenAI-compatible embeddings server, and says so when it fails", async () => {
    const { createServer } = await import("node:http");
    let fail = false;
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        if (fail) return res.writeHead(500).end("boom");
        const { input } = JSON.parse(body) as { input: string[] };
        const data = input.map((text, index) => ({
          index,
          embedding: Array.from({ length: 8 }, (_, i) => (text.length % (i + 2)) + 1),
        }));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const ws = workspace({ "memory/a.md": "Grace maintains the invoicing exporter.\n" });
    const plugin = createMemoryPlugin({
      embedder: createOpenAICompatibleEmbedder({
        baseUrl: `http://127.0.0.1:${port}/v1`,
        apiKey: "k",
        dims: 8,
      }),
    });
    const search = createToolset({ plugins: [plugin], context: { workspaceDir: ws } }).tools[0]!;
    const ok = details(await search.execute("1", { query: "invoicing exporter", minScore: 0 }));
    expect(ok).toMatchObject({ provider: "openai-compatible", mode: "hybrid" });
    fail = true;
    const fell = details(await search.execute("2", { query: "invoicing exporter" }));
    expect(fell.mode).toBe("keyword");
    expect(fell.fallback).toMatchObject({ from: "openai-compatible", to: "keyword" });
    expect(fell.warning).toContain("results come from keyword search only");
    expect(fell.results[0].path).toBe("memory/a.md");
    plugin.close();
    server.close();
  });

  it("passes the contract kit", async () => {
    const ws = workspace({});
    expect(await checkPluginContract(createMemoryPlugin(), { workspaceDir: ws })).toEqual({
      ok: true,
      problems: [],
    });
  });
});
