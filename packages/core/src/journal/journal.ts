/**
 * The undo journal of a workspace, kept in the state directory: one entry per changing tool call
 * (write, edit, apply_patch, exec) with the state of every path it changed before and after, file
 * contents content-addressed under `blobs/`. Undo restores the workspace to how it was just before a
 * call, refusing (changing nothing) when a file changed outside the journal since; redo puts the
 * undone calls back. Bounded in size: the oldest entries are dropped. Durability: entries-log.ts.
 */
import { existsSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { randomHex } from "../safety/random-hex.js";
import { writeFileAtomically } from "../state/atomic-write.js";
import { noteCall } from "../wrap/call-notes.js";
import { BlobStore, captureKnownState, captureState, type FileState, sameState } from "./file-state.js";
import { EntriesLog } from "./entries-log.js";
import { JournalError } from "./errors.js";
import {
  inScope,
  type JournalChange,
  type JournalEntry,
  type JournalOptions,
  type JournalScope,
  type UndoState,
  type UndoStep,
} from "./entry.js";
import { diffScans, type Scan, type ScanOptions, scanTree } from "./scan.js";
import { rescanDirs } from "./rescan.js";
import { restoreTargets } from "./restore.js";
import { TreeWatch } from "./tree-watch.js";

export type { JournalChange, JournalEntry, JournalOptions, JournalScope, UndoStep } from "./entry.js";

export class Journal {
  readonly dir: string;
  readonly blobs: BlobStore;
  private lastScan: Scan | undefined;
  /** Says whether anything changed since the last scan after a command began (see begin). */
  private watch: TreeWatch | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Entries recorded in this process while a command's scan is open (see begin), by sequence. */
  private recent: Array<{ seq: number; entry: JournalEntry }> = [];
  private seq = 0;
  /** Scans after begun so far (a command's partial scan after needs none between its two scans). */
  private generation = 0;
  private openScans = 0;
  /**
   * The entries' blob bytes and the entries file's size when they were counted: kept up to date
   * by this process's appends, counted again when the file grew otherwise (another process).
   */
  private counted: { bytes: number; fileSize: number } | undefined;
  private readonly log: EntriesLog;

  constructor(
    readonly workspace: string,
    private readonly stateDir: string,
    private readonly options: JournalOptions = {},
  ) {
    this.dir = path.join(stateDir, "journal");
    this.blobs = new BlobStore(path.join(this.dir, "blobs"));
    this.log = new EntriesLog(this.dir);
  }

  /**
   * A state directory inside the workspace is not walked: what serve writes there is no command's
   * change. Its real path is looked up once it exists.
   */
  private async scanOptions(): Promise<ScanOptions> {
    if (this.skipDirs) return { ...this.options, skipDirs: this.skipDirs };
    const resolved = path.resolve(this.stateDir);
    const real = await realpath(resolved).catch(() => undefined);
    if (real !== undefined) this.skipDirs = [resolved, real];
    return { ...this.options, skipDirs: [resolved, real ?? resolved] };
  }
  private skipDirs: string[] | undefined;

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

  /**
   * The state of `abs` now (its bytes copied): taken before and after a tool changes it. A tool
   * that holds the file's bytes (read or written under its write lock) passes them as `known`,
   * and they are not read again.
   */
  capture(abs: string, known?: string | Uint8Array): Promise<FileState> {
    return (
      known === undefined ? captureState(abs, this.blobs) : captureKnownState(abs, this.blobs, known)
    ).then((c) => c.state);
  }

  all(): Promise<JournalEntry[]> {
    return this.log.all();
  }

  /**
   * Releases what the journal holds open: the inotify watches and the entries file. It stays
   * usable: the next call opens what it needs again (the next command then scans in full).
   */
  dispose(): void {
    this.log.close();
    this.watch?.close();
    this.watch = undefined;
  }

  private async undoState(): Promise<UndoState> {
    if (!existsSync(this.stateFile)) return { undone: [], discarded: [], dropped: 0 };
    return JSON.parse(await readFile(this.stateFile, "utf8")) as UndoState;
  }

  private async saveUndoState(state: UndoState): Promise<void> {
    await writeFileAtomically(this.stateFile, JSON.stringify(state));
  }

  /** Records one tool call's changes (absolute paths); a no-op when nothing changed. */
  record(
    tool: string,
    changes: Array<{ abs: string; before: FileState; after: FileState }>,
    extra: { bytes?: number; skipped?: string[]; session?: string } = {},
  ): Promise<JournalEntry | undefined> {
    return this.serial(async () => {
      const files = changes
        .filter((c) => !sameState(c.before, c.after))
        .map((c) => ({ path: this.rel(c.abs), before: c.before, after: c.after }));
      if (files.length === 0) return undefined;
      const entry: JournalEntry = {
        id: `${Date.now().toString(36)}${randomHex(3)}`,
        tool,
        time: new Date().toISOString(),
        files,
        bytes: extra.bytes ?? files.reduce((n, f) => n + (f.after?.type === "file" ? f.after.size : 0), 0),
        ...(extra.skipped?.length ? { skipped: extra.skipped } : {}),
        ...(extra.session ? { session: extra.session } : {}),
      };
      const line = `${JSON.stringify(entry)}\n`;
      const before = this.counted?.fileSize;
      const fileSize = this.log.append(line);
      // counted only while this process's appends are all the file grew by
      if (this.counted && before !== undefined && before + Buffer.byteLength(line) === fileSize) {
        this.counted.bytes += entry.bytes;
        this.counted.fileSize = fileSize;
      } else this.counted = undefined;
      // a command whose scan is open must not claim this call's changes as its own
      if (this.openScans > 0) this.recent.push({ seq: ++this.seq, entry });
      // a new change after an undo ends what could be redone
      const state = await this.undoState();
      if (state.undone.length) {
        state.discarded.push(...state.undone.flat());
        state.undone = [];
        await this.saveUndoState(state);
      }
      await this.bound(fileSize);
      noteCall("journal.id", entry.id);
      return entry;
    });
  }

  /** Drops the oldest entries while the journal is over its size bound, and the copies only they used. */
  private async bound(fileSize: number): Promise<void> {
    const max = this.options.maxBytes ?? 512 * 1024 * 1024;
    // a record reads the whole journal only when it may be over its bound
    if (this.counted && this.counted.fileSize === fileSize && this.counted.bytes <= max) return;
    const entries = await this.all();
    let total = entries.reduce((n, e) => n + e.bytes, 0);
    this.counted = { bytes: total, fileSize };
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
    const text = kept.map((e) => `${JSON.stringify(e)}\n`).join("");
    // replaced whole (a new file: every process's append descriptor sees it and reopens)
    await this.log.replace(text);
    this.counted = { bytes: total, fileSize: Buffer.byteLength(text) };
    const state = await this.undoState();
    state.dropped += drop;
    await this.saveUndoState(state);
  }

  /** Calls that can be undone (of one session, with `scope.session`), oldest first, and how many old ones the size bound dropped. */
  async list(scope: JournalScope = {}): Promise<{ entries: JournalEntry[]; dropped: number }> {
    const state = await this.undoState();
    const gone = new Set([...state.undone.flat(), ...state.discarded]);
    const entries = (await this.all()).filter((e) => !gone.has(e.id));
    return {
      entries: entries.filter((e) => inScope(e, scope)),
      dropped: state.dropped,
    };
  }

  /** What one call changed: per path, its state before and after. */
  async diff(id: string, scope: JournalScope = {}): Promise<JournalChange[]> {
    const entry = (await this.all()).find((e) => e.id === id && inScope(e, scope));
    if (!entry) throw new JournalError(`no journal entry ${id} (see --list)`);
    return entry.files;
  }

  /** Refuses when a path is not as the journal left it; otherwise puts every path in its target state. */
  private async restore(
    targets: Map<string, { expected: FileState; to: FileState }>,
    dryRun: boolean,
  ): Promise<UndoStep[]> {
    const steps = await restoreTargets(this.workspace, this.blobs, targets, dryRun);
    if (!dryRun) this.lastScan = undefined;
    return steps;
  }

  /**
   * Restores the workspace to how it was just before call `id` (and every later call; with
   * `scope.session`, every later call of that session). A session's undo refuses, changing
   * nothing, when another session's later call changed one of the same paths: undoing around
   * it would drop that change.
   */
  undo(id: string, options: { dryRun?: boolean } & JournalScope = {}): Promise<UndoStep[]> {
    return this.serial(async () => {
      const { entries } = await this.list();
      const at = entries.findIndex((e) => e.id === id && inScope(e, options));
      if (at === -1) throw new JournalError(`no journal entry ${id} to undo (see --list)`);
      const later = entries.slice(at);
      const batch = later.filter((e) => inScope(e, options));
      if (options.session) {
        const paths = new Set(batch.flatMap((e) => e.files.map((f) => f.path)));
        for (const other of later)
          if (other.session !== options.session)
            for (const f of other.files)
              if (paths.has(f.path))
                throw new JournalError(
                  `${f.path} was also changed by a later call of another session (${other.id}, ${other.tool}); nothing was restored. Undo that call first, or undo the whole workspace with \`clawtools undo\`.`,
                );
      }
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

  /** Puts back the calls the last undo took away (with `scope.session`, that session's last undo). */
  redo(options: { dryRun?: boolean } & JournalScope = {}): Promise<UndoStep[]> {
    return this.serial(async () => {
      const state = await this.undoState();
      const byId = new Map((await this.all()).map((e) => [e.id, e]));
      const mine = (ids: string[]) =>
        !options.session || ids.every((id) => byId.get(id)?.session === options.session);
      const index = state.undone.findLastIndex(mine);
      const ids = state.undone[index];
      if (!ids) throw new JournalError("nothing to redo");
      const targets = new Map<string, { expected: FileState; to: FileState }>();
      for (const id of ids)
        for (const f of byId.get(id)?.files ?? []) {
          const t = targets.get(f.path);
          targets.set(f.path, { expected: t ? t.expected : f.before, to: f.after });
        }
      const steps = await this.restore(targets, options.dryRun ?? false);
      if (!options.dryRun) {
        state.undone.splice(index, 1);
        await this.saveUndoState(state);
      }
      return steps;
    });
  }

  /**
   * Scans the workspace before a command runs; the function returned scans it again and
   * records what the command changed. The scan is taken against the last one, so only paths
   * whose metadata moved are read. A command may run long (in the background): what other
   * calls recorded meanwhile is theirs, so a path they changed starts from their state.
   */
  async begin(tool: string, scope: JournalScope = {}): Promise<() => Promise<JournalEntry | undefined>> {
    this.openScans++;
    const since = this.seq;
    let before: Awaited<ReturnType<typeof scanTree>>;
    /** Set when the scan before is the last scan after, unchanged: its watches heard everything since. */
    let heardFrom: { watch: TreeWatch; generation: number } | undefined;
    try {
      const scanOptions = await this.scanOptions();
      before = await this.serial(async () => {
        // nothing written anywhere in the tree since the last scan after began: that scan is
        // how the tree is now (an unwatchable tree always says changed)
        if (this.lastScan && this.watch && !(await this.watch.mayHaveChanged())) {
          heardFrom = { watch: this.watch, generation: this.generation };
          return { scan: this.lastScan, added: 0, skipped: [] };
        }
        return scanTree(this.workspace, this.blobs, this.lastScan, scanOptions);
      });
    } catch (error) {
      this.closeScan();
      throw error;
    }
    let ended = false;
    return async () => {
      if (ended) return undefined;
      ended = true;
      const { changes, bytes, skipped } = await this.serial(async () => {
        // kept in a local: a dispose meanwhile closes it (its scan then says "changed")
        this.watch ??= new TreeWatch(this.workspace);
        const watch = this.watch;
        this.lastScan = undefined;
        // the same watches, and no other scan after since this command's scan before (whose
        // beginScan would have taken the events): only the directories they heard are listed
        const sameWatch = heardFrom?.watch === watch && heardFrom.generation === this.generation;
        this.generation++;
        const heard = await watch.beginScan();
        let after: Awaited<ReturnType<typeof scanTree>>;
        try {
          const options = await this.scanOptions();
          after =
            sameWatch && heard
              ? await rescanDirs(this.workspace, this.blobs, before.scan, heard, options, watch)
              : await scanTree(this.workspace, this.blobs, before.scan, options, watch);
        } finally {
          watch.endScan();
        }
        this.lastScan = after.scan;
        const meanwhile = new Map<string, FileState>();
        for (const { seq, entry } of this.recent)
          if (seq > since) for (const f of entry.files) meanwhile.set(f.path, f.after);
        const changes = diffScans(before.scan, after.scan, meanwhile).map((c) => ({
          ...c,
          abs: path.join(this.workspace, c.rel),
        }));
        return { changes, bytes: before.added + after.added, skipped: after.skipped };
      }).finally(() => this.closeScan());
      const changed = new Set(changes.map((c) => this.rel(c.abs)));
      return this.record(tool, changes, {
        bytes,
        skipped: skipped.filter((s) => changed.has(s)),
        ...(scope.session ? { session: scope.session } : {}),
      });
    };
  }

  /** The recent entries are kept only while some command's scan is open. */
  private closeScan(): void {
    if (--this.openScans === 0) this.recent = [];
  }

  /** Runs `run` between a scan before and after (see begin). */
  async around<T>(tool: string, run: () => Promise<T>, scope: JournalScope = {}): Promise<T> {
    const end = await this.begin(tool, scope);
    try {
      return await run();
    } finally {
      await end();
    }
  }
}
