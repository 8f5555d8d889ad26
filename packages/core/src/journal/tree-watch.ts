/**
 * Whether anything in a workspace changed since a scan began: one inotify watch per directory
 * walked, so a command's scan before can reuse the last scan after when nothing wrote since.
 * Only where the kernel is known to report every change: Linux, a local filesystem, one device,
 * no file with a second hard link (a write through a link elsewhere notifies that directory, not
 * this one). Anywhere else it always says "changed", and every scan is a full one.
 */
import { type FSWatcher, type Stats, watch } from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";
import { onLocalFilesystem } from "../safety/local-filesystem.js";

/** Beyond this many directories the watches are not worth their kernel memory: full scans. */
const MAX_WATCHES = 8192;

/**
 * More events than this since a scan and the directories they name are not trusted (the kernel
 * drops events past its queue, 16,384 by default, and Node does not report the overflow).
 */
const MAX_EVENTS = 4096;

export interface ScanObserver {
  /** Called before a directory's entries are read (the root's too). */
  enterDir(abs: string, st: Stats): void;
  /** Called for every entry that is not a directory. */
  entry(st: Stats): void;
  /** Called for a directory a partial scan carried over unwalked (its watch stays). */
  keepDir?(abs: string): void;
}

export class TreeWatch implements ScanObserver {
  private watches = new Map<string, { ino: number; watcher: FSWatcher }>();
  /** Directories entered by the scan under way, to close the watches of the ones gone. */
  private entered = new Set<string>();
  private changed = true;
  /** Directories with an event since the last beginScan (whose watch heard it), and how many events. */
  private dirty = new Set<string>();
  private events = 0;
  /** A watch failed since the last beginScan: the dirty set is incomplete. */
  private broken = false;
  /** Set for the scan under way when something makes the watches unable to vouch for it. */
  private untrusted = false;
  private rootDev: number | undefined;
  private usable: boolean;
  /** Closed for good (the journal's dispose): no watch is added again. */
  private closed = false;

  constructor(root: string) {
    this.usable = process.platform === "linux" && onLocalFilesystem(root);
  }

  /**
   * Whether the tree may have changed since the last `beginScan`. Events the kernel queued
   * before this call are read first: two turns of the event loop take in one full poll.
   */
  async mayHaveChanged(): Promise<boolean> {
    if (this.changed || !this.usable) return true;
    await nextTurn();
    await nextTurn();
    return this.changed;
  }

  /**
   * A scan that is to be the reference begins: events from here on count against it. Returns
   * the directories that had events since the last beginScan when every one of them was heard
   * (the watches covered the whole tree, none failed, not too many events); else undefined.
   */
  async beginScan(): Promise<Set<string> | undefined> {
    this.entered.clear();
    this.untrusted = !this.usable;
    this.rootDev = undefined;
    if (!this.usable || this.closed) return undefined;
    // what the kernel queued before this scan (a command's own writes) is seen by the scan itself
    await nextTurn();
    await nextTurn();
    const heard = this.broken || this.events > MAX_EVENTS ? undefined : this.dirty;
    this.dirty = new Set();
    this.events = 0;
    this.broken = false;
    this.changed = false;
    return heard;
  }

  keepDir(abs: string): void {
    if (this.watches.has(abs)) this.entered.add(abs);
  }

  /** The reference scan is over: watches of directories it no longer found are closed. */
  endScan(): void {
    for (const [dir, w] of this.watches)
      if (!this.entered.has(dir)) {
        w.watcher.close();
        this.watches.delete(dir);
      }
    // a root that could not be entered (missing) is watched by nothing
    if (this.untrusted || this.entered.size === 0) this.changed = true;
  }

  enterDir(abs: string, st: Stats): void {
    if (this.untrusted || this.closed) {
      this.distrust();
      return;
    }
    this.entered.add(abs);
    this.rootDev ??= st.dev;
    // another filesystem mounted inside: its own rules, not known here
    if (st.dev !== this.rootDev || Math.max(this.entered.size, this.watches.size) > MAX_WATCHES) {
      this.distrust();
      return;
    }
    const known = this.watches.get(abs);
    if (known?.ino === st.ino) return;
    known?.watcher.close();
    try {
      const watcher = watch(abs, { persistent: false }, () => {
        this.changed = true;
        this.events++;
        this.dirty.add(abs);
      });
      watcher.on("error", () => {
        this.changed = true;
        this.broken = true;
      });
      this.watches.set(abs, { ino: st.ino, watcher });
    } catch {
      // out of watches (fs.inotify.max_user_watches) or the directory went away: full scans
      this.distrust();
    }
  }

  entry(st: Stats): void {
    if (!this.untrusted && st.nlink > 1) this.distrust();
  }

  private distrust(): void {
    this.untrusted = true;
    this.changed = true;
    this.broken = true;
  }

  /** How many directories are watched now. */
  get size(): number {
    return this.watches.size;
  }

  close(): void {
    this.closed = true;
    for (const w of this.watches.values()) w.watcher.close();
    this.watches.clear();
    this.changed = true;
  }
}
