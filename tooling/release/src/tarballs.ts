/**
 * Packing every publishable package and installing tarballs into a fresh project with npm, as a
 * newcomer outside the workspace would: shared by the release tests.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pack, run, type WorkspacePackage } from "./workspace.js";

/** Packs `packages` into `destination`, three at a time (each pack is a pnpm process). */
export async function packAll(
  packages: WorkspacePackage[],
  destination: string,
): Promise<Map<string, string>> {
  const tarballs = new Map<string, string>();
  const queue = [...packages];
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        tarballs.set(next.manifest.name, await pack(next.dir, destination));
      }
    }),
  );
  return tarballs;
}

export async function npm(args: string[], cwd: string): Promise<void> {
  await run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
}

/** Temporary folders that `removeAll` deletes (fresh projects hold whole node_modules trees). */
export class Scratch {
  private readonly dirs: string[] = [];

  dir(prefix: string): string {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** A folder with a package.json (ESM), ready for `npm install`. */
  project(prefix: string, name: string): string {
    const dir = this.dir(prefix);
    writeFileSync(
      path.join(dir, "package.json"),
      `${JSON.stringify({ name, private: true, type: "module" }, null, 2)}\n`,
    );
    return dir;
  }

  async removeAll(): Promise<void> {
    await Promise.all(this.dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  }
}
