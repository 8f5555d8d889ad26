/**
 * What the undo journal and the stale guard cost (issue 38), each side by side in one run:
 * - an edit with the journal (a state directory) against the same edit without one;
 * - `exec true` in a 10,000-file workspace with the journal against the same without one
 *   (unchanged trees are found by metadata, never read), beside one bare metadata walk of the
 *   tree: the floor of one scan;
 * - the journal's size per change;
 * - clawtools' write and edit (journal and stale guard on) against OpenClaw 9.6's own write and
 *   edit tools, both run in one Node 24 child (OpenClaw needs Node 24), taking turns call by call.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createEditTool, createReadTool } from "@clawtools/fs";
import { createExecTool, ProcessRegistry } from "@clawtools/runtime";
import { type BenchRow, type BenchSuite, loadAtStart, timeInTurns } from "../harness.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const ciCache = process.env.XDG_CACHE_HOME
  ? path.join(process.env.XDG_CACHE_HOME, "clawtools-ci")
  : path.join(homedir(), ".cache", "clawtools-ci");
const node24 = path.join(ciCache, "node24", "node_modules", "node", "bin", "node");
const openclawDist = path.join(ciCache, "openclaw-2026.9.6", "node_modules", "openclaw", "dist");

/** Bytes under `dir`, recursively. */
function sizeOf(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? sizeOf(p) : statSync(p).size;
  }
  return n;
}

/** The floor of one scan in Node: every entry listed and lstat'ed, nothing compared or kept. */
function bareWalk(root: string): number {
  let n = 0;
  const dirs = [root];
  while (dirs.length > 0) {
    const dir = dirs.pop()!;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      lstatSync(abs);
      n++;
      if (e.isDirectory()) dirs.push(abs);
    }
  }
  return n;
}

const lines = (n: number) =>
  `${Array.from({ length: n }, (_, i) => `line ${i + 1}: ${"lorem ipsum ".repeat(4)}`).join("\n")}\n`;

/** An edit that always applies: it flips one line back and forth. */
function flipper(tool: ReturnType<typeof createEditTool>, file: string) {
  let on = false;
  return () => {
    on = !on;
    const [a, b] = on ? ["line 100:", "LINE 100:"] : ["LINE 100:", "line 100:"];
    return tool.execute("b", { path: file, oldText: a, newText: b });
  };
}

export default {
  name: "journal",
  async run() {
    const root = mkdtempSync(path.join(tmpdir(), "clawtools-bench-journal-"));
    const rows: BenchRow[] = [];
    const notes: string[] = [];
    const startLoad = loadAtStart();
    try {
      // --- an edit's added time -------------------------------------------------------------
      const ws = path.join(root, "ws");
      const state = path.join(root, "state");
      mkdirSync(ws);
      writeFileSync(path.join(ws, "plain.txt"), lines(200));
      writeFileSync(path.join(ws, "journalled.txt"), lines(200));
      const plain = { workspaceDir: ws };
      const journalled = { workspaceDir: ws, stateDir: state, sessionKey: "bench" };
      // both read first, so the stale guard has what the session saw on the journalled side
      await createReadTool(journalled).execute("r", { path: "journalled.txt" });
      const edits = await timeInTurns(
        {
          plain: flipper(createEditTool(plain), "plain.txt"),
          journalled: flipper(createEditTool(journalled), "journalled.txt"),
        },
        200,
        20,
      );
      rows.push({ name: "edit of a 200-line file, no journal", value: edits.plain, unit: "ms" });
      rows.push({
        name: "edit of a 200-line file, journal and stale guard",
        value: edits.journalled,
        unit: "ms",
        baseline: "edit of a 200-line file, no journal",
      });
      const added = edits.journalled - edits.plain;
      rows.push({
        name: "edit: added time (p50 difference)",
        value: added,
        unit: "ms",
        target: "< 5 ms",
        met: added < 5,
      });
      const entries = execFileSync("wc", ["-l", path.join(state, "journal", "entries.jsonl")], {
        encoding: "utf8",
      });
      const count = Number.parseInt(entries, 10);
      const perChange = sizeOf(path.join(state, "journal")) / count;
      rows.push({
        name: `journal size per edit (${count} edits of an 11 KB file)`,
        value: perChange / 1024,
        unit: "KB",
        note: "one entry line; the file's bytes are content-addressed, so a state seen before costs nothing",
      });

      // --- exec on a 10,000-file workspace ---------------------------------------------------
      const big = path.join(root, "big");
      for (let d = 0; d < 100; d++) {
        mkdirSync(path.join(big, `d${d}`), { recursive: true });
        for (let f = 0; f < 100; f++) writeFileSync(path.join(big, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
      }
      const bigState = path.join(root, "big-state");
      const registry = new ProcessRegistry();
      const execPlain = createExecTool({ workspaceDir: big }, { registry });
      const execJournal = createExecTool(
        { workspaceDir: big, stateDir: bigState, sessionKey: "bench" },
        { registry },
      );
      // the first scan copies the tree once; what is measured is every later command
      await execJournal.execute("w", { command: "true" });
      const execs = await timeInTurns(
        {
          plain: () => execPlain.execute("e", { command: "true" }),
          journalled: () => execJournal.execute("e", { command: "true" }),
          walk: () => bareWalk(big),
        },
        30,
        3,
      );
      rows.push({
        name: "exec `true` in a 10,000-file workspace, no journal",
        value: execs.plain,
        unit: "ms",
      });
      rows.push({
        name: "exec `true` in a 10,000-file workspace, journalled",
        value: execs.journalled,
        unit: "ms",
        baseline: "exec `true` in a 10,000-file workspace, no journal",
      });
      const execAdded = execs.journalled - execs.plain;
      const walkRow =
        "one bare metadata walk of the 10,000 files (readdirSync + lstatSync each, nothing kept) (limit)";
      rows.push({ name: walkRow, value: execs.walk, unit: "ms" });
      rows.push({
        name: "exec on 10,000 files: added time (p50 difference)",
        value: execAdded,
        unit: "ms",
        baseline: walkRow,
        target: "< 150 ms",
        met: execAdded < 150,
      });

      // --- against OpenClaw 9.6's write and edit, in one Node 24 child ---------------------
      if (!existsSync(node24) || !existsSync(openclawDist)) {
        notes.push(
          `OpenClaw 9.6 rows skipped: Node 24 (${node24}) or openclaw@2026.9.6 (${openclawDist}) is not installed; .ci/run installs both.`,
        );
      } else {
        const out = execFileSync(node24, [path.join(here, "..", "peers", "openclaw-write-edit.mjs")], {
          encoding: "utf8",
          env: { ...process.env, OPENCLAW_DIST: openclawDist, BENCH_DIR: path.join(root, "openclaw") },
          maxBuffer: 1 << 20,
        });
        const r = JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number>;
        rows.push({ name: "OpenClaw 9.6 write (2 KB file)", value: r.openclawWrite!, unit: "ms" });
        rows.push({
          name: "clawtools write (2 KB file), journal and stale guard",
          value: r.clawtoolsWrite!,
          unit: "ms",
          baseline: "OpenClaw 9.6 write (2 KB file)",
          target: "≤ 1.2×",
          met: r.clawtoolsWrite! <= 1.2 * r.openclawWrite!,
        });
        rows.push({ name: "OpenClaw 9.6 edit (200-line file)", value: r.openclawEdit!, unit: "ms" });
        rows.push({
          name: "clawtools edit (200-line file), journal and stale guard",
          value: r.clawtoolsEdit!,
          unit: "ms",
          baseline: "OpenClaw 9.6 edit (200-line file)",
          target: "≤ 1.2×",
          met: r.clawtoolsEdit! <= 1.2 * r.openclawEdit!,
        });
        // the physical limit: a crash-safe replace done by hand, and its fsync alone
        for (const [what, steps, sync, noSync, ours] of [
          [
            "write (2 KB file)",
            "temp file, fsync, rename",
            r.rawWrite!,
            r.rawWriteNoSync!,
            r.clawtoolsWrite!,
          ],
          [
            "edit (200-line file)",
            "read, replace, temp file, fsync, rename",
            r.rawEdit!,
            r.rawEditNoSync!,
            r.clawtoolsEdit!,
          ],
        ] as const) {
          const limit = `raw ${what}: ${steps} (limit)`;
          rows.push({ name: limit, value: sync, unit: "ms" });
          rows.push({
            name: `clawtools ${what} against the limit`,
            value: ours,
            unit: "ms",
            baseline: limit,
          });
          rows.push({
            name: `the same raw ${what} without fsync (bench only, never the product)`,
            value: noSync,
            unit: "ms",
          });
          rows.push({
            name: `of clawtools ${what}: the fsync itself (limit minus the same without fsync)`,
            value: sync - noSync,
            unit: "ms",
            note: `${Math.round((100 * (sync - noSync)) / ours)}% of clawtools' time`,
          });
        }
        // the flush is the disk's, and OpenClaw writes in place without one: what clawtools adds
        // besides it is compared with OpenClaw's whole call (derived from this run's rows)
        for (const [what, ours, sync, noSync, theirs] of [
          ["write (2 KB file)", r.clawtoolsWrite!, r.rawWrite!, r.rawWriteNoSync!, r.openclawWrite!],
          ["edit (200-line file)", r.clawtoolsEdit!, r.rawEdit!, r.rawEditNoSync!, r.openclawEdit!],
        ] as const) {
          const value = ours - (sync - noSync);
          rows.push({
            name: `clawtools ${what} minus its fsync (derived)`,
            value,
            unit: "ms",
            baseline: `OpenClaw 9.6 ${what}`,
            target: "≤ 1.2×",
            // a flush estimate as long as the whole call is a run too noisy to judge
            ...(value > 0 ? { met: value <= 1.2 * theirs } : {}),
            note:
              value > 0
                ? "less the fsync row above: everything but the flush"
                : "not judged: this run's fsync estimate is longer than the whole call (a loaded disk)",
          });
        }
        notes.push(
          "OpenClaw rows: OpenClaw 9.6's host workspace write and edit tools (as its agents get them: the pi tools it bundles on its guarded host file operations) and clawtools' built fs section run in one Node 24 process, taking turns call by call; clawtools writes atomically with fsync, records the journal and keeps the stale guard.",
        );
      }
      return { title: "Undo journal and stale guard", rows, notes, loadAtStart: startLoad };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
} satisfies BenchSuite;
