/**
 * The bench harness: suites measure this project beside a peer or the physical limit in the
 * same run and report ratios. Each suite writes results/<suite>.md; BENCHMARKS.md is
 * regenerated from every results file so suites can be run one at a time.
 */
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";

export interface BenchRow {
  /** What was measured, e.g. "exec `true` (clawtools)". */
  name: string;
  /** Measured value, in `unit`. */
  value: number;
  unit: string;
  /** Name of the baseline row this one is compared to (ratio = value / baseline.value). */
  baseline?: string;
  /** Target as text, e.g. "≤ 1.2×" or "< 10 ms". */
  target?: string;
  /** Whether the target was met; undefined when there is no target. */
  met?: boolean;
  note?: string;
}

export interface BenchSuiteResult {
  title: string;
  rows: BenchRow[];
  notes?: string[];
  /** The 1-minute load average when the suite started (from `loadAtStart()`); the end is read at render. */
  loadAtStart?: number;
}

/** The 1-minute load average now: a suite keeps it at its start for the load line. */
export function loadAtStart(): number {
  return loadavg()[0]!;
}

/**
 * The load a suite ran under, printed under every suite's table: ratios taken side by side hold
 * up under load, absolute times do not, so a reader needs to know which run this was.
 */
export function loadLine(start?: number): string {
  const end = loadavg()[0]!.toFixed(2);
  const cores = availableParallelism();
  return start === undefined
    ? `Load average (1 min) ${end} when the suite ended, on ${cores} cores.`
    : `Load average (1 min) ${start.toFixed(2)} at the start and ${end} at the end, on ${cores} cores.`;
}

export interface BenchSuite {
  name: string;
  run(): Promise<BenchSuiteResult>;
}

/** Median wall time of `fn` in milliseconds after `warmup` runs. */
export async function timeMedian(fn: () => unknown, iterations = 20, warmup = 3): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return percentile(samples, 50);
}

/**
 * Median wall time (ms) of each variant when they take turns call after call, the first in
 * each round rotating, so warm-up, machine load and position in a round hit them alike.
 */
export async function timeInTurns<K extends string>(
  variants: Record<K, () => unknown>,
  rounds: number,
  warmupRounds = Math.ceil(rounds / 10),
): Promise<Record<K, number>> {
  const order = Object.entries(variants) as Array<[K, () => unknown]>;
  const samples = Object.fromEntries(order.map(([name]) => [name, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < warmupRounds + rounds; round++) {
    for (let k = 0; k < order.length; k++) {
      const [name, run] = order[(round + k) % order.length]!;
      const start = performance.now();
      await run();
      if (round >= warmupRounds) samples[name].push(performance.now() - start);
    }
  }
  return Object.fromEntries(order.map(([name]) => [name, percentile(samples[name], 50)])) as Record<
    K,
    number
  >;
}

/** Mean time per call in microseconds over a tight loop of `iterations` calls. */
export async function timePerCallMicros(fn: () => unknown, iterations = 10_000): Promise<number> {
  for (let i = 0; i < Math.min(1000, iterations); i++) await fn();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  return ((performance.now() - start) * 1000) / iterations;
}

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function ratioOf(rows: BenchRow[], row: BenchRow): number | undefined {
  if (!row.baseline) return undefined;
  const base = rows.find((r) => r.name === row.baseline);
  return base && base.value > 0 ? row.value / base.value : undefined;
}

function fmt(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

export function renderSuite(suite: string, result: BenchSuiteResult, when: string): string {
  const lines = [
    `## ${result.title}`,
    "",
    `Suite \`${suite}\`, run ${when} on ${process.platform}/${process.arch}, Node ${process.version}.`,
    "",
    "| measurement | value | ratio | target | met |",
    "|---|---|---|---|---|",
  ];
  for (const row of result.rows) {
    const ratio = ratioOf(result.rows, row);
    const ratioText = ratio === undefined ? "" : `${ratio.toFixed(2)}× ${row.baseline}`;
    const met = row.met === undefined ? "" : row.met ? "yes" : "**no**";
    lines.push(
      `| ${row.name}${row.note ? ` (${row.note})` : ""} | ${fmt(row.value)} ${row.unit} | ${ratioText} | ${row.target ?? ""} | ${met} |`,
    );
  }
  // every suite says the load it ran under: here, unless its own notes already do
  if (!(result.notes ?? []).some((note) => /load average/i.test(note)))
    lines.push("", loadLine(result.loadAtStart));
  for (const note of result.notes ?? []) lines.push("", note);
  return `${lines.join("\n")}\n`;
}
