import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import Module from "node:module";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import { writeFileAtomically } from "@clawtools/core/state";

/** The parts of Node's CommonJS loader the cache stands in for (present since Node 0.x, untyped). */
interface CjsModule {
  exports: unknown;
  require(id: string): unknown;
}
type Compile = (this: CjsModule, content: string, filename: string, format?: string) => unknown;
interface CjsLoader {
  prototype: { _compile: Compile };
  wrap(content: string): string;
  _resolveFilename(request: string, parent: CjsModule, isMain: boolean, options?: unknown): string;
  _resolveLookupPaths(request: string, parent: CjsModule): string[] | null;
  _extensions: unknown;
  _cache: unknown;
}
const Loader = Module as unknown as CjsLoader;
/** Node 22.1 and later have their own compile cache (`module.enableCompileCache`): this steps aside. */
export const nodeCompilesWithCache = "enableCompileCache" in Module;

/** `$XDG_CACHE_HOME/clawtools/code-cache` (XDG's default cache home is `~/.cache`). */
export function defaultCodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const home =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : path.join(os.homedir(), ".cache");
  return path.join(home, "clawtools", "code-cache");
}

interface Compiled {
  script: vm.Script;
  /** The entry's file, `<path hash>-<contents hash>` in the cache directory. */
  file: string;
  /** The path hash: entries of the same source file with other contents share it. */
  name: string;
}

/**
 * A V8 code cache for the CommonJS files of one package. playwright-core is two bundles of 6.7 MB
 * whose compile is about a quarter of the browser's first launch, and Node 20 has no compile cache
 * (22.1 added `module.enableCompileCache`). Entries are keyed by the file's path and contents and
 * Node's version; V8 rejects one made by another V8 or other flags, and the file is then compiled
 * as usual and its entry written again. A cache that cannot be read or written costs nothing but
 * the speed: loading never fails because of it.
 *
 * A dynamic `import()` in a cached file is refused (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING): Node
 * 20 offers a script no import callback that survives a cache entry. playwright-core's bundles
 * reach one only to load `kerberos` for Negotiate authentication of its own HTTP client through
 * a proxy, which the ui section does not use (Chromium's traffic goes through the egress proxy).
 */
export class CodeCache {
  private readonly fresh: Compiled[] = [];
  private saving: Promise<number> | undefined;
  /** Files compiled from an entry, and files compiled without one (none yet, or rejected by V8). */
  readonly counts = { fromCache: 0, compiled: 0 };

  constructor(private readonly dir: string) {}

  /**
   * `require(id)` with the files under `scope` (a package directory) compiled from the cache.
   * Synchronous like require: no other code runs while the loader is swapped.
   */
  require<T>(from: NodeJS.Require, id: string, scope: string): T {
    if (nodeCompilesWithCache || !this.trusted()) return from(id) as T;
    const original = Loader.prototype._compile;
    const cache = this;
    const prefix = scope.endsWith(path.sep) ? scope : scope + path.sep;
    Loader.prototype._compile = function (content, filename, format) {
      if (!filename.startsWith(prefix) || (format && format !== "commonjs") || content.startsWith("#!"))
        return original.call(this, content, filename, format);
      return cache.run(this, content, filename);
    };
    try {
      return from(id) as T;
    } finally {
      Loader.prototype._compile = original;
    }
  }

  /**
   * An entry is code this process runs, so the directory must be writable by this user alone: one
   * others can write to (or owned by another user) is not used, with a warning saying so.
   */
  private trusted(): boolean {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(this.dir);
    } catch {
      return true; // made 0700 when the first entry is written
    }
    const uid = process.getuid?.();
    const mine = uid === undefined || stat.uid === uid;
    if (stat.isDirectory() && mine && (stat.mode & 0o022) === 0) return true;
    process.emitWarning(
      `the code cache directory ${this.dir} is ${stat.isDirectory() ? (mine ? "writable by other users" : "owned by another user") : "not a directory"}, so it is not used; make it a directory of yours alone (chmod 700) or set browser.codeCacheDir in the ui configuration`,
      { code: "CLAWTOOLS_CODE_CACHE" },
    );
    return false;
  }

  /** Compiles one module from its entry (when V8 accepts it) and runs it as Node's loader would. */
  private run(mod: CjsModule, content: string, filename: string): unknown {
    const name = createHash("sha256").update(filename).digest("hex").slice(0, 16);
    const key = createHash("sha256")
      .update(`${process.version} ${process.arch}\0`)
      .update(content)
      .digest("hex")
      .slice(0, 24);
    const file = path.join(this.dir, `${name}-${key}`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {
      // no entry yet: compiled as usual, written later by save()
    }
    const script = new vm.Script(Loader.wrap(content), {
      filename,
      ...(cachedData ? { cachedData } : {}),
    });
    if (cachedData && !script.cachedDataRejected) this.counts.fromCache++;
    else {
      this.counts.compiled++;
      this.fresh.push({ script, file, name });
    }
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(mod.exports, mod.exports, requireOf(mod), mod, filename, path.dirname(filename));
  }

  /** The entries of the same source file with other contents (an older playwright-core). */
  private others(name: string, file: string): string[] {
    return readdirSync(this.dir)
      .filter((entry) => entry.startsWith(`${name}-`) && path.join(this.dir, entry) !== file)
      .map((entry) => path.join(this.dir, entry));
  }

  /**
   * Writes the entries of the files compiled without one (once; later calls share the first).
   * Called after the package has done its first work, so the functions that work compiled are in
   * the entries too. Each entry is written whole or not at all (core's atomic writer), so a reader
   * (another serve) never sees half of one. Answers how many entries were written.
   */
  save(): Promise<number> {
    this.saving ??= this.write();
    return this.saving;
  }

  private async write(): Promise<number> {
    const pending = this.fresh.splice(0);
    if (pending.length === 0) return 0;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch {
      return 0;
    }
    let written = 0;
    for (const { script, file, name } of pending) {
      try {
        await writeFileAtomically(file, script.createCachedData(), { mode: 0o600 });
        for (const old of this.others(name, file)) rmSync(old, { force: true });
        written++;
      } catch {
        // the next start compiles this file as usual and tries again
      }
    }
    return written;
  }
}

/** The `require` Node's loader gives a module (resolve, resolve.paths, main, extensions, cache). */
function requireOf(mod: CjsModule): NodeJS.Require {
  const require = ((id: string) => mod.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: unknown) =>
    Loader._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => Loader._resolveLookupPaths(request, mod);
  require.resolve = resolve;
  require.main = process.mainModule;
  require.extensions = Loader._extensions as NodeJS.Require["extensions"];
  require.cache = Loader._cache as NodeJS.Require["cache"];
  return require;
}
