/**
 * Core engine costs: argument validation against a bare call, the whole per-call pipeline
 * around a no-op tool against calling it directly, converting the catalog per provider, and
 * the first call of a typical tool (read) in a fresh process against pi's read.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createToolset, definePlugin, Type } from "@clawtools/core";
import { validateToolArguments } from "@clawtools/core/wrap";
import { PROVIDER_IDS, toProviderTools } from "@clawtools/core/providers";
import { fsPlugin } from "@clawtools/fs";
import { runtimePlugin } from "@clawtools/runtime";
import { type BenchRow, type BenchSuite, percentile, timeMedian, timePerCallMicros } from "../harness.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const benchDir = join(root, "tooling", "bench");
const coreDist = join(root, "packages", "core", "dist", "index.js");
const fsDist = join(root, "plugins", "fs", "dist", "index.js");

/** Scripts run in a fresh Node process; each prints the first call's wall time in ms. */
const FIRST_CALL = {
  pi: `const { createReadTool } = await import("@mariozechner/pi-coding-agent");
const tool = createReadTool(process.env.WS);
const t = performance.now();
await tool.execute("1", { path: "a.txt" });
process.stdout.write(String(performance.now() - t));`,
  clawtools: `const { createToolset } = await import(process.env.CORE);
const { fsPlugin } = await import(process.env.FS);
const { tools } = createToolset({ plugins: [fsPlugin], context: { workspaceDir: process.env.WS } });
const read = tools.find((tool) => tool.name === "read");
const t = performance.now();
const result = await read.execute("1", { path: "a.txt" });
if (result.isError) throw new Error(JSON.stringify(result.content));
process.stdout.write(String(performance.now() - t));`,
  clawtoolsWhole: `const t = performance.now();
const { createToolset } = await import(process.env.CORE);
const { fsPlugin } = await import(process.env.FS);
const { tools } = createToolset({ plugins: [fsPlugin], context: { workspaceDir: process.env.WS } });
await tools.find((tool) => tool.name === "read").execute("1", { path: "a.txt" });
process.stdout.write(String(performance.now() - t));`,
  piWhole: `const t = performance.now();
const { createReadTool } = await import("@mariozechner/pi-coding-agent");
await createReadTool(process.env.WS).execute("1", { path: "a.txt" });
process.stdout.write(String(performance.now() - t));`,
};

/**
 * Runs a script in a fresh Node process. Another build in the same checkout may be rewriting a
 * dist folder at that moment (tsdown cleans it first): a missing module is retried, not measured.
 */
function runFresh(script: string, env: NodeJS.ProcessEnv): string {
  for (let attempt = 1; ; attempt++) {
    try {
      return execFileSync(process.execPath, ["--input-type=module", "-e", script], {
        encoding: "utf8",
        cwd: benchDir,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? "");
      if (attempt >= 10 || !stderr.includes("ERR_MODULE_NOT_FOUND")) throw error;
      execFileSync(process.execPath, ["-e", "setTimeout(() => {}, 3000)"]);
    }
  }
}

/** Median of `runs` fresh processes per script, the scripts taking turns. */
function firstCallMs(runs: number, ws: string): Record<keyof typeof FIRST_CALL, number> {
  const env = { ...process.env, WS: ws, CORE: pathToFileURL(coreDist).href, FS: pathToFileURL(fsDist).href };
  const keys = Object.keys(FIRST_CALL) as Array<keyof typeof FIRST_CALL>;
  const samples = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<string, number[]>;
  for (let i = 0; i < runs; i++) {
    for (const key of keys) {
      samples[key]!.push(Number(runFresh(FIRST_CALL[key], env)));
    }
  }
  return Object.fromEntries(keys.map((k) => [k, percentile(samples[k]!, 50)])) as Record<
    keyof typeof FIRST_CALL,
    number
  >;
}

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
      name: "validate a typical call (quick check built once per schema)",
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
    if (!existsSync(coreDist) || !existsSync(fsDist)) {
      for (const pkg of ["@clawtools/core", "@clawtools/fs"])
        execFileSync("pnpm", ["--filter", pkg, "build"], { cwd: root, stdio: "inherit" });
    }
    const ws = mkdtempSync(join(tmpdir(), "clawtools-first-call-"));
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, "a.txt"), Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join("\n"));
    try {
      const first = firstCallMs(11, ws);
      rows.push({ name: "pi read: first call in a fresh process", value: first.pi, unit: "ms" });
      rows.push({
        name: "clawtools read (createToolset, built): first call in a fresh process",
        value: first.clawtools,
        unit: "ms",
        baseline: "pi read: first call in a fresh process",
        target: "< 30 ms",
        met: first.clawtools < 30,
      });
      rows.push({
        name: "pi read: import + first call in a fresh process",
        value: first.piWhole,
        unit: "ms",
      });
      rows.push({
        name: "clawtools read: import core + fs, createToolset, first call in a fresh process",
        value: first.clawtoolsWhole,
        unit: "ms",
        baseline: "pi read: import + first call in a fresh process",
      });
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
    if (sink < 0) console.log(sink);
    return {
      title: "Core engine: validation, per-call pipeline, provider conversion",
      rows,
      notes: [
        "The pipeline row runs abort combination, owner check, validation with coercion and defaults, result coercion and hook dispatch (no hooks registered).",
        "Catalog conversion covers every installed fs and runtime tool.",
        "First-call rows: median of 11 fresh Node processes per script, taking turns; the call reads a 200-line file. clawtools validates the first call with a quick interpreted check and loads the schema compiler only when a call fails it (before: 200–330 ms, mostly loading the compiler); what remains is the read itself. The 30 ms target is for an otherwise idle machine: compare the ratio to pi when the load is high.",
        `Load average (1 min) when the suite finished: ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores.`,
        "Provider conversion takes createToolset's tools, whose schemas are already normalised: toolInputSchema hands them back unchanged, so only Gemini's cleaning runs again.",
      ],
    };
  },
} satisfies BenchSuite;
