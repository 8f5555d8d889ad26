import { readFile } from "node:fs/promises";
import path from "node:path";
import type { FsBridge } from "@clawtools/core";
import { describe, expect, it } from "./vitest-api.js";
import type { ConformanceOptions } from "./sessions-conformance.js";

/*
 * Conformance suite for core's `FsBridge` (what the file tools read and write through). Any
 * bridge runs it (the local disk, an in-memory tree, a container, a remote workspace):
 *
 *   fsBridgeConformance(() => { const root = freshEmptyRoot(); return { bridge: createMyBridge(root), root }; });
 *
 * The factory is called once per test and must return a bridge over an empty workspace whose
 * relative paths resolve against the workspace root. A bridge that confines paths to its root on
 * the local disk also passes `containment`, and the suite then attacks it.
 */

export interface FsBridgeContainment {
  /** An absolute path outside the root holding an existing file the bridge must never touch. */
  outsideFile: string;
  /** Makes a symlink at `linkPath` (relative to the root) pointing at `target` (absolute). */
  symlink(linkPath: string, target: string): Promise<void>;
}

export interface FsBridgeUnderTest {
  bridge: FsBridge;
  /** The workspace root as the bridge spells absolute paths (relative paths resolve against it). */
  root: string;
  /** Present when the bridge refuses paths outside its root (the local node bridge does). */
  containment?: FsBridgeContainment;
}

type Factory<T> = () => T | Promise<T>;
const text = (b: Buffer) => b.toString("utf8");

/** Declares the FsBridge conformance suite for the bridges `factory` makes. */
export function fsBridgeConformance(
  factory: Factory<FsBridgeUnderTest>,
  options: ConformanceOptions = {},
): void {
  describe(options.name ?? "FsBridge conformance", () => {
    it("writes and reads back text and bytes, replacing a file whole", async () => {
      const { bridge } = await factory();
      await bridge.writeFile({ filePath: "a.txt", data: "hello\nworld\n" });
      expect(text(await bridge.readFile({ filePath: "a.txt" }))).toBe("hello\nworld\n");
      const bytes = Buffer.from([0, 1, 2, 255, 254]);
      await bridge.writeFile({ filePath: "b.bin", data: bytes });
      expect(Buffer.compare(await bridge.readFile({ filePath: "b.bin" }), bytes)).toBe(0);
      await bridge.writeFile({ filePath: "a.txt", data: "x" });
      expect(text(await bridge.readFile({ filePath: "a.txt" }))).toBe("x");
    });

    it("the buffer returned by readFile is the caller's (mutating it changes nothing stored)", async () => {
      const { bridge } = await factory();
      await bridge.writeFile({ filePath: "a.txt", data: "abc" });
      const first = await bridge.readFile({ filePath: "a.txt" });
      first.fill(0x7a);
      expect(text(await bridge.readFile({ filePath: "a.txt" }))).toBe("abc");
    });

    it("stat tells files from directories, gives sizes, and null for a missing path", async () => {
      const { bridge } = await factory();
      await bridge.mkdirp({ filePath: "dir/sub" });
      await bridge.writeFile({ filePath: "dir/sub/f.txt", data: "12345" });
      expect(await bridge.stat({ filePath: "dir/sub/f.txt" })).toMatchObject({ type: "file", size: 5 });
      expect(await bridge.stat({ filePath: "dir/sub" })).toMatchObject({ type: "directory" });
      expect(await bridge.stat({ filePath: "dir" })).toMatchObject({ type: "directory" });
      expect(await bridge.stat({ filePath: "missing.txt" })).toBeNull();
      expect(await bridge.stat({ filePath: "dir/missing/deeper" })).toBeNull();
    });

    it("a rewrite changes size and never moves mtime backwards", async () => {
      const { bridge } = await factory();
      await bridge.writeFile({ filePath: "a.txt", data: "one" });
      const before = await bridge.stat({ filePath: "a.txt" });
      await bridge.writeFile({ filePath: "a.txt", data: "three" });
      const after = await bridge.stat({ filePath: "a.txt" });
      expect(after?.size).toBe(5);
      expect(after!.mtimeMs).toBeGreaterThanOrEqual(before!.mtimeMs);
    });

    it("relative paths resolve against cwd when one is given", async () => {
      const { bridge, root } = await factory();
      await bridge.mkdirp({ filePath: "pkg" });
      await bridge.writeFile({ filePath: "pkg/x.txt", data: "in pkg" });
      const cwd = path.posix.join(root, "pkg");
      expect(text(await bridge.readFile({ filePath: "x.txt", cwd }))).toBe("in pkg");
      await bridge.writeFile({ filePath: "y.txt", cwd, data: "written via cwd" });
      expect(text(await bridge.readFile({ filePath: "pkg/y.txt" }))).toBe("written via cwd");
    });

    it("reading a missing file rejects with ENOENT or a message naming the path", async () => {
      const { bridge } = await factory();
      const err = await bridge.readFile({ filePath: "nope/missing.txt" }).then(
        () => undefined,
        (e: unknown) => e as { code?: string; message?: string },
      );
      expect(err, "readFile of a missing file must reject").toBeDefined();
      expect(err?.code === "ENOENT" || String(err?.message).includes("missing.txt")).toBe(true);
    });

    it("readdir lists names with their types, and rejects for a missing directory", async (ctx) => {
      const { bridge } = await factory();
      if (!bridge.readdir) return ctx.skip("the bridge has no readdir");
      await bridge.mkdirp({ filePath: "d/inner" });
      await bridge.writeFile({ filePath: "d/one.txt", data: "1" });
      await bridge.writeFile({ filePath: "d/two.txt", data: "2" });
      const entries = (await bridge.readdir({ filePath: "d" })).sort((a, b) => a.name.localeCompare(b.name));
      expect(entries).toEqual([
        { name: "inner", type: "directory" },
        { name: "one.txt", type: "file" },
        { name: "two.txt", type: "file" },
      ]);
      await expect(bridge.readdir({ filePath: "no-such-dir" })).rejects.toThrow();
    });

    it("rename moves a file's content and leaves nothing at the old path", async (ctx) => {
      const { bridge } = await factory();
      if (!bridge.rename) return ctx.skip("the bridge has no rename");
      await bridge.writeFile({ filePath: "old.txt", data: "moving" });
      await bridge.rename({ from: "old.txt", to: "new.txt" });
      expect(await bridge.stat({ filePath: "old.txt" })).toBeNull();
      expect(text(await bridge.readFile({ filePath: "new.txt" }))).toBe("moving");
      await expect(bridge.rename({ from: "old.txt", to: "again.txt" })).rejects.toThrow();
    });

    it("remove deletes a file, and rejects for a missing one", async (ctx) => {
      const { bridge } = await factory();
      if (!bridge.remove) return ctx.skip("the bridge has no remove");
      await bridge.writeFile({ filePath: "gone.txt", data: "bye" });
      await bridge.remove({ filePath: "gone.txt" });
      expect(await bridge.stat({ filePath: "gone.txt" })).toBeNull();
      await expect(bridge.readFile({ filePath: "gone.txt" })).rejects.toThrow();
      await expect(bridge.remove({ filePath: "gone.txt" })).rejects.toThrow();
    });

    it("readStream yields the whole file in order, and rejects for a missing one", async (ctx) => {
      const { bridge } = await factory();
      if (!bridge.readStream) return ctx.skip("the bridge has no readStream");
      // larger than any sensible first chunk, so at least two chunks are joined
      const big = Buffer.alloc(300_000);
      for (let i = 0; i < big.length; i++) big[i] = i % 251;
      await bridge.writeFile({ filePath: "big.bin", data: big });
      const chunks: Buffer[] = [];
      for await (const chunk of bridge.readStream({ filePath: "big.bin" })) chunks.push(Buffer.from(chunk));
      expect(chunks.length).toBeGreaterThan(1);
      expect(Buffer.compare(Buffer.concat(chunks), big)).toBe(0);
      const drain = async () => {
        for await (const _ of bridge.readStream!({ filePath: "missing.bin" })) void _;
      };
      await expect(drain()).rejects.toThrow();
    });

    it("containment: paths outside the root are refused for reads, writes and stat", async (ctx) => {
      const { bridge, root, containment } = await factory();
      if (!containment) return ctx.skip("the bridge declares no containment");
      const before = await readFile(containment.outsideFile, "utf8");
      const relativeOut = path.relative(root, containment.outsideFile);
      for (const filePath of [containment.outsideFile, relativeOut]) {
        await expect(bridge.readFile({ filePath })).rejects.toThrow();
        await expect(bridge.writeFile({ filePath, data: "pwned" })).rejects.toThrow();
        await expect(bridge.stat({ filePath })).rejects.toThrow();
        if (bridge.remove) await expect(bridge.remove({ filePath })).rejects.toThrow();
      }
      expect(await readFile(containment.outsideFile, "utf8")).toBe(before);
    });

    it("containment: a symlink leading out is never followed for a read or a write", async (ctx) => {
      const { bridge, containment } = await factory();
      if (!containment) return ctx.skip("the bridge declares no containment");
      const before = await readFile(containment.outsideFile, "utf8");
      await containment.symlink("link.txt", containment.outsideFile);
      await containment.symlink("linkdir", path.dirname(containment.outsideFile));
      const viaDir = `linkdir/${path.basename(containment.outsideFile)}`;
      await expect(bridge.readFile({ filePath: "link.txt" })).rejects.toThrow();
      await expect(bridge.readFile({ filePath: viaDir })).rejects.toThrow();
      await expect(bridge.writeFile({ filePath: viaDir, data: "pwned" })).rejects.toThrow();
      await expect(bridge.writeFile({ filePath: "linkdir/planted.txt", data: "pwned" })).rejects.toThrow();
      // replacing the link itself is allowed, writing through it is not
      await bridge.writeFile({ filePath: "link.txt", data: "pwned" }).catch(() => undefined);
      expect(await readFile(containment.outsideFile, "utf8")).toBe(before);
      const planted = path.join(path.dirname(containment.outsideFile), "planted.txt");
      await expect(readFile(planted)).rejects.toMatchObject({ code: "ENOENT" });
    });
  });
}
