/**
 * What each surface costs a host's context, and what a search costs at scale: the bytes of
 * tools/list from the built `clawtools serve --profile full` with two mounted MCP servers under
 * the direct, search and code surfaces (side by side, direct as the baseline); and tool_search
 * over a 1,000-tool catalog beside the cheapest possible search (one substring scan).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type AnyAgentTool, Type } from "@clawtools/core";
import { createSearchSurface } from "@clawtools/core/surface";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type BenchRow, type BenchSuite, loadAtStart, percentile } from "../harness.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const bin = path.join(root, "apps", "cli", "dist", "bin.js");
const echoServer = path.join(root, "apps", "cli", "test", "fixtures", "echo-mcp-server.mjs");

const queriesFile = path.join(root, "tooling", "bench", "fixtures", "tool-search-queries.json");

/**
 * recall@3 of tool_search on the labelled set, as a host meets it: the built `serve --surface
 * search --profile full --owner`, one tool_search call per task with limit 3.
 */
async function recallAt3(workspace: string): Promise<{ recall: number; misses: string[] }> {
  const { queries } = JSON.parse(readFileSync(queriesFile, "utf8")) as {
    queries: Array<{ query: string; tools: string[] }>;
  };
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, "serve", "--workspace", workspace, "--profile", "full", "--owner", "--surface", "search"],
      stderr: "ignore",
    }),
  );
  const misses: string[] = [];
  try {
    for (const { query, tools } of queries) {
      const result = await client.callTool({ name: "tool_search", arguments: { query, limit: 3 } });
      const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("");
      const found = (JSON.parse(text) as Array<{ name: string }>).map((r) => r.name);
      if (!found.some((name) => tools.includes(name))) misses.push(`"${query}" → ${found.join(", ")}`);
    }
  } finally {
    await client.close();
  }
  return { recall: (queries.length - misses.length) / queries.length, misses };
}

async function listedBytes(workspace: string, config: string, surface: string): Promise<number> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        bin,
        "serve",
        "--workspace",
        workspace,
        "--config",
        config,
        "--profile",
        "full",
        "--surface",
        surface,
      ],
      stderr: "ignore",
    }),
  );
  try {
    const { tools } = await client.listTools();
    return Buffer.byteLength(JSON.stringify(tools), "utf8");
  } finally {
    await client.close();
  }
}

const WORDS =
  "file read write shell command process browser page screenshot message channel schedule job memory note search web fetch image audio speech calendar event invoice customer ticket deploy build test log metric alert database query table row user account payment order shipment inventory report chart email contact task project issue review branch commit release".split(
    " ",
  );

/** A catalog of `n` tools with names and descriptions drawn from a working vocabulary. */
function syntheticCatalog(n: number): AnyAgentTool[] {
  return Array.from({ length: n }, (_, i) => {
    const pick = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length]!;
    return {
      name: `${pick(0)}_${pick(1)}_${i}`,
      label: `${pick(0)} ${pick(1)}`,
      description: `Use this to ${pick(2)} the ${pick(3)} ${pick(4)} for a ${pick(5)}; returns the ${pick(6)} ${pick(7)}.`,
      parameters: Type.Object({ [pick(8)]: Type.String({ description: `the ${pick(9)} to ${pick(2)}` }) }),
      execute: async () => ({ content: [{ type: "text" as const, text: "ok" }], details: undefined }),
    } as AnyAgentTool;
  });
}

const QUERIES = [
  "read the contents of a file",
  "send a message to a channel",
  "schedule a recurring job",
  "take a screenshot of the page",
  "look up a customer invoice",
  "deploy the release build",
];

async function median(fn: () => unknown, rounds: number): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 20; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

export default {
  name: "surfaces",
  async run() {
    const loadStart = loadAtStart();
    const rows: BenchRow[] = [];
    const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-bench-surfaces-"));
    const config = path.join(workspace, "clawtools.json");
    const echo = (prefix: string) => ({
      command: process.execPath,
      args: [echoServer],
      env: { ECHO_PREFIX: prefix },
    });
    writeFileSync(config, JSON.stringify({ mcpServers: { alpha: echo("alpha: "), beta: echo("beta: ") } }));
    const direct = "tools/list, --profile full + 2 MCP servers, --surface direct";
    rows.push({ name: direct, value: await listedBytes(workspace, config, "direct"), unit: "bytes" });
    for (const surface of ["search", "code"]) {
      const value = await listedBytes(workspace, config, surface);
      const base = rows[0]!.value;
      rows.push({
        name: `the same, --surface ${surface}`,
        value,
        unit: "bytes",
        baseline: direct,
        target: "≤ 0.25×",
        met: value <= base * 0.25,
      });
    }

    const tools = syntheticCatalog(1000);
    const [search] = createSearchSurface({ tools });
    let q = 0;
    const lexical = await median(() => search!.execute("b", { query: QUERIES[q++ % QUERIES.length] }), 300);
    // the floor: one pass over the same 1,000 descriptions for the query's first word
    const texts = tools.map((t) => `${t.name} ${t.description}`.toLowerCase());
    let s = 0;
    const scan = await median(() => {
      const word = QUERIES[s++ % QUERIES.length]!.split(" ")[0]!;
      return texts.filter((text) => text.includes(word)).slice(0, 8);
    }, 300);
    const floor = "substring scan of 1,000 tool texts (the floor)";
    rows.push({ name: floor, value: scan.p50, unit: "ms" });
    rows.push({
      name: "tool_search at 1,000 catalog tools, p50",
      value: lexical.p50,
      unit: "ms",
      baseline: floor,
      target: "< 5 ms",
      met: lexical.p50 < 5,
    });
    rows.push({ name: "tool_search at 1,000 catalog tools, p95", value: lexical.p95, unit: "ms" });
    const { recall, misses } = await recallAt3(workspace);
    rows.push({
      name: "tool_search recall@3 on 30 labelled tasks (no tool names in them), the full profile",
      value: recall,
      unit: "",
      target: "≥ 0.8",
      met: recall >= 0.8,
    });
    const missed = misses.length ? `Missed by recall@3: ${misses.join("; ")}.` : "recall@3 missed no task.";
    return {
      title: "Tool surfaces: what a host lists, and search at scale",
      rows,
      loadAtStart: loadStart,
      notes: [
        missed,
        "Bytes are the JSON of tools/list's `tools` as the MCP SDK client receives them (names, descriptions, input and output schemas). Search and code list fixed controls (code's `exec` description holds an index of the catalog's tool globals, at most 8,000 characters), so their size stays flat as the catalog grows. Search latency is BM25 over names, descriptions and parameter names, answer fitted to 4,000 characters.",
      ],
    };
  },
} satisfies BenchSuite;
