/**
 * Cold import of each built section package beside a cold import of @clawtools/core: what an
 * app pays in startup time and memory for installing one more section. Every sample is a fresh
 * Node process; the packages take turns round after round so machine load hits them alike.
 *
 * `fixtures/imports-before.json` holds the same measurement taken before the sections moved
 * their heavy dependencies (sharp, node-pty, the web extraction stack) behind lazy imports;
 * `pnpm bench imports -- --record-before` rewrites it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type BenchRow, type BenchSuite, percentile } from "../harness.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const beforeFile = join(root, "tooling", "bench", "fixtures", "imports-before.json");
const ROUNDS = 15;

interface Target {
  name: string;
  entry: string;
}

interface Sample {
  ms: number;
  rssMb: number;
}

export interface ImportsRecord {
  /** The commit the packages were built from. */
  commit: string;
  date: string;
  node: string;
  /** One-minute load average when the measurement started (other work on the machine inflates times). */
  load: number;
  results: Record<string, { ms: number; rssMb: number }>;
}

function targets(): Target[] {
  const list: Target[] = [
    { name: "@clawtools/core", entry: join(root, "packages", "core", "dist", "index.js") },
  ];
  for (const dir of readdirSync(join(root, "plugins")).sort()) {
    const manifest = join(root, "plugins", dir, "package.json");
    if (!existsSync(manifest)) continue;
    const { name } = JSON.parse(readFileSync(manifest, "utf8")) as { name: string };
    list.push({ name, entry: join(root, "plugins", dir, "dist", "index.js") });
  }
  return list;
}

/** One cold import in a fresh process: milliseconds spent in `import()` and the RSS it added. */
function sample(entry: string): Sample {
  const script = `const r=process.memoryUsage.rss();const t=performance.now();await import(${JSON.stringify(
    pathToFileURL(entry).href,
  )});const ms=performance.now()-t;process.stdout.write(JSON.stringify({ms,rssMb:(process.memoryUsage.rss()-r)/1048576}));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    cwd: dirname(entry),
  });
  return JSON.parse(out) as Sample;
}

function commitOf(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

export function measureImports(rounds = ROUNDS): ImportsRecord {
  const list = targets();
  if (list.some((t) => !existsSync(t.entry))) {
    execFileSync("pnpm", ["build"], { cwd: root, stdio: "inherit" });
  }
  const load = Number(loadavg()[0]!.toFixed(2));
  const samples = new Map(list.map((t) => [t.name, [] as Sample[]]));
  for (let round = 0; round < rounds + 1; round++) {
    for (let k = 0; k < list.length; k++) {
      const target = list[(round + k) % list.length]!;
      const s = sample(target.entry);
      // the first round warms the disk cache and is not counted
      if (round > 0) samples.get(target.name)!.push(s);
    }
  }
  const results: ImportsRecord["results"] = {};
  for (const [name, s] of samples) {
    results[name] = {
      ms: percentile(
        s.map((x) => x.ms),
        50,
      ),
      rssMb: percentile(
        s.map((x) => x.rssMb),
        50,
      ),
    };
  }
  return {
    commit: commitOf(),
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    load,
    results,
  };
}

function readBefore(): ImportsRecord | undefined {
  if (!existsSync(beforeFile)) return undefined;
  return JSON.parse(readFileSync(beforeFile, "utf8")) as ImportsRecord;
}

const suite: BenchSuite = {
  name: "imports",
  async run() {
    const now = measureImports();
    if (process.argv.includes("--record-before")) {
      writeFileSync(beforeFile, `${JSON.stringify(now, null, 2)}\n`);
    }
    const before = readBefore();
    const rows: BenchRow[] = [];
    const core = "cold import @clawtools/core";
    for (const [name, result] of Object.entries(now.results)) {
      const label = name === "@clawtools/core" ? core : `cold import ${name}`;
      const coreMs = now.results["@clawtools/core"]?.ms;
      rows.push({
        name: label,
        value: result.ms,
        unit: "ms",
        // issue #29's goal: installing a section costs at most twice what core does
        ...(name === "@clawtools/core" || coreMs === undefined
          ? {}
          : { baseline: core, target: "≤ 2×", met: result.ms / coreMs <= 2 }),
      });
    }
    for (const [name, result] of Object.entries(now.results)) {
      rows.push({ name: `RSS added by importing ${name}`, value: result.rssMb, unit: "MB" });
    }
    if (before) {
      for (const [name, result] of Object.entries(before.results)) {
        const label = `before lazy loading: cold import ${name}`;
        rows.push({
          name: label,
          value: result.ms,
          unit: "ms",
          ...(name === "@clawtools/core"
            ? {}
            : { baseline: "before lazy loading: cold import @clawtools/core" }),
        });
      }
      for (const [name, result] of Object.entries(before.results)) {
        rows.push({
          name: `before lazy loading: RSS added by importing ${name}`,
          value: result.rssMb,
          unit: "MB",
        });
      }
    }
    const notes = [
      `Each value is the median of ${ROUNDS} fresh Node processes importing the package's built \`dist/index.js\` (time spent in \`import()\` only, without Node's own start-up; RSS growth across the import). The ratio compares a section with core, which every section imports.`,
      `Load average when the suite ran: ${now.load} on ${cpus().length} cores.`,
    ];
    if (before) {
      notes.push(
        `The "before lazy loading" rows were measured the same way on commit ${before.commit} (${before.date}, Node ${before.node}, load average ${before.load} on this run's ${now.load}), before sharp, node-pty and the web extraction stack moved behind lazy imports; they are kept in \`tooling/bench/fixtures/imports-before.json\`.`,
      );
    }
    return { title: "Section import cost: each section beside core, cold", rows, notes };
  },
};

export default suite;
