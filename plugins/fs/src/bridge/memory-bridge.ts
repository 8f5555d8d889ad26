import path from "node:path";
import type { FsBridge, FsStat } from "@clawtools/core";

/** An in-memory FsBridge (tests, previews, virtual workspaces). Paths are POSIX, absolute or cwd-relative. */
export function createMemoryBridge(
  files: Record<string, string | Buffer> = {},
  cwd = "/workspace",
): Required<FsBridge> & {
  files: Map<string, Buffer>;
} {
  const store = new Map<string, Buffer>();
  const dirs = new Set<string>(["/"]);
  const abs = (p: string, c?: string) => path.posix.resolve(c ?? cwd, p);
  const addDirs = (p: string) => {
    for (let d = path.posix.dirname(p); !dirs.has(d); d = path.posix.dirname(d)) dirs.add(d);
  };
  // each stored Buffer is one version of a file: its mtime is when the bridge first saw it, on a
  // clock that never repeats, so caches keyed on size and mtime notice every rewrite
  const versions = new WeakMap<Buffer, number>();
  let clock = 0;
  const mtimeOf = (file: Buffer) => {
    let at = versions.get(file);
    if (at === undefined) {
      clock = Math.max(Date.now(), clock + 0.001);
      at = clock;
      versions.set(file, at);
    }
    return at;
  };
  const enoent = (p: string) =>
    Object.assign(new Error(`ENOENT: no such file or directory, open '${p}'`), { code: "ENOENT" });
  dirs.add(cwd);
  addDirs(cwd);
  for (const [p, data] of Object.entries(files)) {
    const a = abs(p);
    store.set(a, Buffer.from(data));
    addDirs(a);
  }
  return {
    files: store,
    async stat({ filePath, cwd: c }) {
      const a = abs(filePath, c);
      const file = store.get(a);
      if (file) return { type: "file", size: file.length, mtimeMs: mtimeOf(file) };
      return dirs.has(a) ? { type: "directory", size: 0, mtimeMs: 0 } : null;
    },
    async readFile({ filePath, cwd: c }) {
      const file = store.get(abs(filePath, c));
      if (!file) throw enoent(abs(filePath, c));
      return Buffer.from(file);
    },
    async *readStream({ filePath, cwd: c }) {
      const file = store.get(abs(filePath, c));
      if (!file) throw enoent(abs(filePath, c));
      for (let i = 0; i < file.length; i += 4096) yield file.subarray(i, i + 4096);
    },
    async mkdirp({ filePath, cwd: c }) {
      const a = abs(filePath, c);
      dirs.add(a);
      addDirs(a);
    },
    async writeFile({ filePath, cwd: c, data }) {
      const a = abs(filePath, c);
      if (!dirs.has(path.posix.dirname(a))) throw enoent(a);
      store.set(a, Buffer.from(data));
    },
    async readdir({ filePath, cwd: c }) {
      const a = abs(filePath, c);
      if (!dirs.has(a)) throw enoent(a);
      const out = new Map<string, FsStat["type"]>();
      for (const f of store.keys()) if (path.posix.dirname(f) === a) out.set(path.posix.basename(f), "file");
      for (const d of dirs)
        if (d !== a && path.posix.dirname(d) === a) out.set(path.posix.basename(d), "directory");
      return [...out].map(([name, type]) => ({ name, type }));
    },
    async rename({ from, to, cwd: c }) {
      const a = abs(from, c);
      const file = store.get(a);
      if (!file) throw enoent(a);
      store.delete(a);
      store.set(abs(to, c), file);
    },
    async remove({ filePath, cwd: c }) {
      const a = abs(filePath, c);
      if (!store.delete(a)) throw enoent(a);
    },
  };
}
