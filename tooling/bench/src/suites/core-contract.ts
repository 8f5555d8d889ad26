/**
 * Core contract costs: cold import of @clawtools/core against @sinclair/typebox alone,
 * resolveAll over the full catalog, and the 9-step policy pipeline over 1,000 tools.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type AnyAgentTool, ToolRegistry } from "@clawtools/core";
import {
  applyToolPolicyPipeline,
  resolveSandboxToolPolicy,
  resolveSubagentToolPolicy,
} from "@clawtools/core/policy";
import { getCoreToolCatalog, resolveCoreToolProfilePolicy } from "@clawtools/core/catalog";
import { type BenchRow, type BenchSuite, percentile, timePerCallMicros } from "../harness.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const coreDist = join(root, "packages", "core", "dist", "index.js");
// argument validation is on core's `wrap` entry (the main entry holds the contract and registry)
const wrapDist = join(root, "packages", "core", "dist", "wrap", "index.js");

/** Median import time (ms) of `specifier` (resolved from packages/core) in fresh processes. */
function coldImportMs(specifier: string, runs = 15, then = ""): number {
  const script = `const t=performance.now();const m=await import(${JSON.stringify(specifier)});${then}process.stdout.write(String(performance.now()-t));`;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      cwd: join(root, "packages", "core"),
    });
    samples.push(Number(out));
  }
  return percentile(samples, 50);
}

function tool(name: string): AnyAgentTool {
  return {
    name,
    label: name,
    description: name,
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [], details: undefined }),
  };
}

const suite: BenchSuite = {
  name: "core-contract",
  async run() {
    if (!existsSync(coreDist)) {
      execFileSync("pnpm", ["--filter", "@clawtools/core", "build"], { cwd: root, stdio: "inherit" });
    }
    const rows: BenchRow[] = [];

    // Both through their ESM entry points, the way an app imports them.
    const typebox = coldImportMs("@sinclair/typebox");
    const core = coldImportMs(pathToFileURL(coreDist).href);
    rows.push({ name: "cold import @sinclair/typebox", value: typebox, unit: "ms" });
    rows.push({
      name: "cold import @clawtools/core (built)",
      value: core,
      unit: "ms",
      baseline: "cold import @sinclair/typebox",
      target: "< 2×",
      met: core < 2 * typebox,
    });
    // the schema compiler loads on the first validated call: shown, not hidden
    const firstCall = coldImportMs(
      pathToFileURL(wrapDist).href,
      15,
      `m.validateToolArguments({name:"t",parameters:{type:"object",properties:{a:{type:"string"}}}},{a:"x"});`,
    );
    rows.push({
      name: "cold import @clawtools/core/wrap + first validated call (quick check; the compiler loads only when a call fails it)",
      value: firstCall,
      unit: "ms",
      baseline: "cold import @sinclair/typebox",
    });

    const registry = new ToolRegistry();
    for (const meta of getCoreToolCatalog()) registry.registerFactory(() => tool(meta.id), { id: meta.id });
    const bare = await timePerCallMicros(() => getCoreToolCatalog().map((meta) => tool(meta.id)), 20_000);
    const resolveAll = await timePerCallMicros(() => registry.resolveAll({ workspaceDir: "/w" }), 20_000);
    rows.push({ name: "build 25 tool objects directly (floor)", value: bare, unit: "µs" });
    rows.push({
      name: "resolveAll over the full catalog (25 factories)",
      value: resolveAll,
      unit: "µs",
      baseline: "build 25 tool objects directly (floor)",
    });

    const tools = Array.from({ length: 1000 }, (_, i) => {
      const core = getCoreToolCatalog();
      return i < core.length ? tool(core[i]!.id) : tool(`plugin_tool_${i}`);
    });
    const pluginOf = new Map(tools.slice(25).map((t, i) => [t, { pluginId: `plugin_${i % 10}` }]));
    const steps = [
      { label: "tools.profile (full)", policy: resolveCoreToolProfilePolicy("full") },
      { label: "tools.byProvider.profile", policy: undefined },
      { label: "tools.allow", policy: { allow: ["*"], deny: ["gateway"] } },
      { label: "tools.byProvider.allow", policy: { deny: ["web_*"] } },
      { label: "agents.main.tools.allow", policy: { alsoAllow: ["group:plugins"] } },
      { label: "agents.main.tools.byProvider.allow", policy: { deny: ["plugin_3"] } },
      {
        label: "group tools.allow",
        policy: { allow: ["group:openclaw", "group:fs", "group:runtime", "plugin_tool_*"] },
      },
      { label: "sandbox tools.allow", policy: resolveSandboxToolPolicy({ override: { deny: ["browser"] } }) },
      { label: "subagent tools.allow", policy: resolveSubagentToolPolicy({ depth: 1, maxSpawnDepth: 2 }) },
    ];
    const allowed = new Set(tools.filter((_, i) => i % 2 === 0));
    const floor = await timePerCallMicros(() => tools.filter((t) => allowed.has(t)), 2_000);
    const pipeline = await timePerCallMicros(
      () => applyToolPolicyPipeline({ tools, toolMeta: (t) => pluginOf.get(t), warn: () => {}, steps }),
      2_000,
    );
    rows.push({ name: "one Set filter over 1,000 tools (floor)", value: floor / 1000, unit: "ms" });
    rows.push({
      name: "9-step policy pipeline over 1,000 tools",
      value: pipeline / 1000,
      unit: "ms",
      baseline: "one Set filter over 1,000 tools (floor)",
      target: "< 1 ms",
      met: pipeline / 1000 < 1,
    });
    return {
      title: "Core contract: import cost, registry resolution, policy pipeline",
      rows,
      notes: [
        "Cold imports are timed inside fresh Node processes (median of 15). The pipeline runs all nine labelled steps, with globs, groups, plugin ids and alsoAllow, over 25 core + 975 plugin tools.",
      ],
    };
  },
};

export default suite;
