/**
 * The undo journal of a workspace, kept in the state directory: one entry per changing tool
 * call (write, edit, apply_patch, exec) with the state of every path it changed before and
 * after, file contents content-addressed under `blobs/`. Undo restores the workspace to how it
 * was just before a call, refusing (changing nothing) when a file changed outside the journal
 * since; redo puts the undone calls back. Bounded in size: the oldest entries are dropped.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { applyState, BlobStore, captureState, type FileState, sameState } from "./file-state.js";
import { type Scan, type ScanOptions, scanTree } from "./scan.js";

export interface JournalChange {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  before: FileState;
  after: FileState;
}

export interface JournalEntry {
  id: string;
  tool: string;
  time: string;
  files: JournalChange[];
  /** Blob bytes this entry added to the journal. */
  bytes: number;
  /** Files too large to copy: changed, but not restorable. */
  skipped?: string[];
}

export interface UndoStep {
  path: string;
  from: FileState;
  to: FileState;
}

export interface JournalOptions extends ScanOptions {
  /** The journal's size bound in bytes (default 512 MB); the oldest entries go first. */
  maxBytes?: number;
}

interface UndoState {
  /** Undone batches, most recent last: redo pops one. */
  undone: string[][];
  /** Entries undone and then superseded by a new change (never redone). */
  discarded: string[];
  dropped: number;
}

export const JOURNAL_ERROR = Symbol.for("clawtools.error.JournalError");

/** An undo or redo refused (a file changed outside the journal, an unknown id): nothing was changed. */
export class JournalError extends Error {
  static readonly marker: symbol = JOURNAL_ERROR;
  readonly [JOURNAL_ERROR] = true;
  override name = "JournalError";
}

/** Whether `error` is a JournalError from any copy of core (its brand, not `instanceof`). */
export function isJournalError(error: unknown): error is JournalError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[JOURNAL_ERROR] === true
  );
}

const describe = (s: FileState) =>
  s === null
    ? "absent"
    : s.type === "file"
      ? `file ${s.hash.slice(0, 12)} mode ${s.mode.toString(8)}`
      : s.type === "symlink"
        ? `symlink -> ${s.target}`
        : "directory";

export class Journal {
  readonly dir: string;
  readonly blobs: BlobStore;
  private lastScan: Scan | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly workspace: string,
    stateDir: string,
    private readonly options: JournalOptions = {},
  ) {
    this.dir = path.join(stateDir, "journal");
    this.blobs = new BlobStore(path.join(this.dir, "blobs"));
  }

  private get entriesFile() {
    return path.join(this.dir, "entries.jsonl");
  }
  private get stateFile() {
    return path.join(this.dir, "undo-state.json");
  }

  /** One journal operation at a time in this process. */
  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  private rel(abs: string): string {
    return path.relative(this.workspace, abs).split(path.sep).join("/");
  }

  /** The state of `abs` now (its bytes copied): taken before and after a tool changes it. */
  capture(abs: string): Promise<FileState> {
    return captureState(abs, this.blobs).then((c) => c.state);
  }

  async all(): Promise<JournalEntry[]> {
    if (!existsSync(this.entriesFile)) return [];
    const text = await readFile(this.entriesFile, "utf8");
    return text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as JournalEntry);
  }

  private async undoState(): Promise<UndoState> {
    if (!existsSync(this.stateFile)) return { undone: [], discarded: [], dropped: 0 };
    return JSON.parse(await readFile(this.stateFile, "utf8")) as UndoState;
  }

  private async saveUndoState(state: UndoState): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const tmp = `${this.stateFile}.${randomBytes(4).toString("hex")}.tmp`;
    await writeFile(tmp, JSON.stringify(state));
    const { rename } = await import("node:fs/promises");
    await rename(tmp, this.stateFile);
  }

  /** Records one tool call's changes (absolute paths); a no-op when nothing changed. */
  record(
    tool: string,
    changes: Array<{ abs: string; before: FileState; after: FileState }>,
    extra: { bytes?: number; skipped?: string[] } = {},
  ): Promise<JournalEntry | undefined> {
    return this.serial(async () => {
      const files = changes
        .filter((c) => !sameState(c.before, c.after))
        .map((c) => ({ path: this.rel(c.abs), before: c.before, after: c.after }));
      if (files.length === 0) return undefined;
      const entry: JournalEntry = {
        id: `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`,
        tool,
        time: new Date().toISOString(),
        files,
        bytes: extra.bytes ?? files.reduce((n, f) => n + (f.after?.type === "file" ? f.after.size : 0), 0),
        ...(extra.skipped?.length ? { skipped: extra.skipped } : {}),
      };
      await mkdir(this.dir, { recursive: true });
      await appendFile(this.entriesFile, `${JSON.stringify(entry)}\n`);
      // a new change after an undo ends what could be redone
      const state = await this.undoState();
      if (state.undone.length) {
        state.discarded.push(...state.undone.flat());
        state.undone = [];
        await this.saveUndoState(state);
      }
      await this.bound();
      return entry;
    });
  }

  /** Drops the oldest entries while the journal is over its size bound, and the copies only they used. */
  private async bound(): Promise<void> {
    const max = this.options.maxBytes ?? 512 * 1024 * 1024;
    const entries = await this.all();
    let total = entries.reduce((n, e) => n + e.bytes, 0);
    if (total <= max) return;
    let drop = 0;
    while (drop < entries.length - 1 && total > max) total -= entries[drop++]!.bytes;
    const kept = entries.slice(drop);
    const used = new Set<string>();
    const note = (s: FileState) => s?.type === "file" && used.add(s.hash);
    for (const e of kept)
      for (const f of e.files) {
        note(f.before);
        note(f.after);
      }
    for (const s of this.lastScan?.values() ?? []) note(s.state);
    for (const e of entries.slice(0, drop))
      for (const f of e.files)
        for (const s of [f.before, f.after])
          if (s?.type === "file" && !used.has(s.hash)) await this.blobs.remove(s.hash);
    await writeFile(this.entriesFile, kept.map((e) => `${JSON.stringify(e)}\n`).join(""));
    const state = await this.undoState();
    state.dropped += drop;
    await this.saveUndoState(state);
  }

  /** Calls that can be undone, oldest first, and how many old ones the size bound dropped. */
  async list(): Promise<{ entries: JournalEntry[]; dropped: number }> {
    const state = await this.undoState();
    const gone = new Set([...state.undone.flat(), ...state.discarded]);
    return { entries: (await this.all()).filter((e) => !gone.has(e.id)), dropped: state.dropped };
  }

  /** What one call changed: per path, its state before and after. */
  async diff(id: string): Promise<JournalChange[]> {
    const entry = (await this.all()).find((e) => e.id === id);
    if (!entry) throw new JournalError(`no journal entry ${id} (see --list)`);
    return entry.files;
  }

  /** Refuses when a path is not as the journal left it; otherwise puts every path in its target state. */
  private async restore(
    targets: Map<string, { expected: FileState; to: FileState }>,
    dryRun: boolean,
  ): Promise<UndoStep[]> {
    const steps: UndoStep[] = [];
    const rootReal = await realpath(this.workspace);
    for (const [rel, { expected, to }] of targets) {
      if (rel.split("/").includes("..") || path.isAbsolute(rel))
        throw new JournalError(`journal path ${rel} is outside the workspace`);
      const abs = path.join(this.workspace, rel);
      const parent = await realpath(path.dirname(abs)).catch(() => undefined);
      if (parent && parent !== rootReal && !parent.startsWith(`${rootReal}${path.sep}`))
        throw new JournalError(
          `${rel} now resolves outside the workspace (through a symlinked directory); nothing was restored`,
        );
      const now = await this.capture(abs);
      if (now?.type === "dir" && expected?.type === "dir") {
        // a directory's own mode is what is compared; its contents are separate paths
      } else if (!sameState(now, expected))
        throw new JournalError(
          `${rel} changed outside the journal (it is ${describe(now)}, the journal left it ${describe(expected)}); nothing was restored. Undo refuses to overwrite it: save or revert it first.`,
        );
      for (const s of [to])
        if (s?.type === "file" && !s.hash)
          throw new JournalError(`${rel} was too large to copy; it cannot be restored`);
      if (!sameState(now, to)) steps.push({ path: rel, from: now, to });
    }
    if (dryRun) return steps;
    // removals deepest first, then directories shallowest first, then files and links
    const depth = (p: string) => p.split("/").length;
    const removals = steps.filter((s) => s.to === null).sort((a, b) => depth(b.path) - depth(a.path));
    const dirs = steps.filter((s) => s.to?.type === "dir").sort((a, b) => depth(a.path) - depth(b.path));
    const rest = steps.filter((s) => s.to !== null && s.to.type !== "dir");
    for (const s of [...removals, ...dirs, ...rest])
      await applyState(path.join(this.workspace, s.path), s.to, this.blobs);
    this.lastScan = undefined;
    return steps;
  }

  /** Restores the workspace to how it was just before call `id` (and every later call). */
  undo(id: string, options: { dryRun?: boolean } = {}): Promise<UndoStep[]> {
    return this.serial(async () => {
      const { entries } = await this.list();
      const at = entries.findIndex((e) => e.id === id);
      if (at === -1) throw new JournalError(`no journal entry ${id} to undo (see --list)`);
      const batch = entries.slice(at);
      const targets = new Map<string, { expected: FileState; to: FileState }>();
      for (const e of batch)
        for (const f of e.files) {
          const t = targets.get(f.path);
          targets.set(f.path, { expected: f.after, to: t ? t.to : f.before });
        }
      const steps = await this.restore(targets, options.dryRun ?? false);
      if (!options.dryRun) {
        const state = await this.undoState();
        state.undone.push(batch.map((e) => e.id));
        await this.saveUndoState(state);
      }
      return steps;
    });
  }

  /** Puts back the calls the last undo took away. */
  redo(options: { dryRun?: boolean } = {}): Promise<UndoStep[]> {
    return this.serial(async () => {
      const state = await this.undoState();
      const ids = state.undone.at(-1);
      if (!ids) throw new JournalError("nothing to redo");
      const byId = new Map((await this.all()).map((e) => [e.id, e]));
      const targets = new Map<string, { expected: FileState; to: FileState }>();
      for (const id of ids)
        for (const f of byId.get(id)?.files ?? []) {
          const t = targets.get(f.path);
          targets.set(f.path, { expected: t ? t.expected : f.before, to: f.after });
        }
      const steps = await this.restore(targets, options.dryRun ?? false);
      if (!options.dryRun) {
        state.undone.pop();
        await this.saveUndoState(state);
      }
      return steps;
    });
  }

  /**
   * Scans the workspace before a command runs; the function returned scans it again and
   * records what the command changed. The scan is taken against the last one, so only paths
   * whose metadata moved are read.
   */
  async begin(tool: string): Promise<() => Promise<JournalEntry | undefined>> {
    const before = await this.serial(() => scanTree(this.workspace, this.blobs, this.lastScan, this.options));
    return async () => {
      const { changes, bytes, skipped } = await this.serial(async () => {
        const after = await scanTree(this.workspace, this.blobs, before.scan, this.options);
        this.lastScan = after.scan;
        const changes: Array<{ abs: string; before: FileState; after: FileState }> = [];
        for (const rel of new Set([...before.scan.keys(), ...after.scan.keys()])) {
          const [b, a] = [before.scan.get(rel)?.state ?? null, after.scan.get(rel)?.state ?? null];
          if (!sameState(b, a)) changes.push({ abs: path.join(this.workspace, rel), before: b, after: a });
        }
        return { changes, bytes: before.added + after.added, skipped: after.skipped };
      });
      const changed = new Set(changes.map((c) => this.rel(c.abs)));
      return this.record(tool, changes, { bytes, skipped: skipped.filter((s) => changed.has(s)) });
    };
  }

  /** Runs `run` between a scan before and after (see begin). */
  async around<T>(tool: string, run: () => Promise<T>): Promise<T> {
    const end = await this.begin(tool);
    try {
      return await run();
    } finally {
      await end();
    }
  }
}

/**
 * For a section that runs commands in a workspace (exec): the scan before, and a function that
 * records what changed; a no-op without a workspace and a state directory.
 */
export async function beginJournal(
  ctx: { workspaceDir?: string; stateDir?: string },
  tool: string,
): Promise<(() => Promise<unknown>) | undefined> {
  if (!ctx.workspaceDir || !ctx.stateDir) return undefined;
  let root = path.resolve(ctx.workspaceDir);
  root = await realpath(root).catch(() => root);
  return journalFor(root, ctx.stateDir).begin(tool);
}

const journals = new Map<string, Journal>();

/** The journal of `workspace` under `stateDir`, one instance per directory in this process. */
export function journalFor(workspace: string, stateDir: string, options: JournalOptions = {}): Journal {
  const key = `${path.resolve(stateDir)}\0${path.resolve(workspace)}`;
  let j = journals.get(key);
  if (!j) {
    j = new Journal(path.resolve(workspace), stateDir, options);
    journals.set(key, j);
  }
  return j;
}
