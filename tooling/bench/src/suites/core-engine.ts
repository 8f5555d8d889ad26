/**
 * Core engine costs: argument validation against a bare call, the whole per-call pipeline
 * around a no-op tool against calling it directly, and converting the catalog per provider.
 */
import {
  createToolset,
  definePlugin,
  PROVIDER_IDS,
  toProviderTools,
  Type,
  validateToolArguments,
} from "@clawtools/core";
import { fsPlugin } from "@clawtools/fs";
import { runtimePlugin } from "@clawtools/runtime";
import { type BenchRow, type BenchSuite, timeMedian, timePerCallMicros } from "../harness.js";

const schema = Type.Object({
  path: Type.String(),
  offset: Type.Optional(Type.Number()),
  limit: Type.Optional(Type.Number()),
});
const noop = {
  name: "noop",
  label: "noop",
  description: "does nothing",
  parameters: schema,
  execute: async () => ({ content: [{ type: "text" as const, text: "ok" }], details: undefined }),
};

export default {
  name: "core-engine",
  async run() {
    const rows: BenchRow[] = [];
    const args = { path: "src/index.ts", offset: 10, limit: 50 };
    let sink = 0;
    const bare = (a: typeof args) => {
      sink += a.limit;
      return a;
    };
    rows.push({
      name: "bare function call (floor)",
      value: await timePerCallMicros(() => bare(args), 200_000),
      unit: "µs",
    });
    rows.push({
      name: "validate a typical call (compiled, cached)",
      value: await timePerCallMicros(() => validateToolArguments(noop, args), 100_000),
      unit: "µs",
      baseline: "bare function call (floor)",
    });
    const direct = await timePerCallMicros(() => noop.execute(), 100_000);
    rows.push({ name: "no-op tool called directly", value: direct, unit: "µs" });
    const { tools } = createToolset({
      plugins: [definePlugin({ id: "bench", version: "1", tools: [{ factory: noop }] })],
    });
    const wrapped = tools[0]!;
    const piped = await timePerCallMicros(() => wrapped.execute("id", args), 100_000);
    rows.push({
      name: "no-op tool through the whole pipeline",
      value: piped,
      unit: "µs",
      baseline: "no-op tool called directly",
    });
    const added = piped - direct;
    rows.push({
      name: "added by the pipeline per call",
      value: added,
      unit: "µs",
      target: "< 20 µs",
      met: added < 20,
    });
    const catalog = createToolset({
      plugins: [fsPlugin, runtimePlugin],
      context: { workspaceDir: process.cwd() },
    }).tools;
    for (const provider of PROVIDER_IDS) {
      rows.push({
        name: `convert ${catalog.length} tools for ${provider}`,
        value: await timeMedian(() => toProviderTools(catalog, provider), 200, 20),
        unit: "ms",
      });
    }
    if (sink < 0) console.log(sink);
    return {
      title: "Core engine: validation, per-call pipeline, provider conversion",
      rows,
      notes: [
        "The pipeline row runs abort combination, owner check, validation with coercion and defaults, result coercion and hook dispatch (no hooks registered).",
        "Catalog conversion covers every installed fs and runtime tool.",
      ],
    };
  },
} satisfies BenchSuite;
