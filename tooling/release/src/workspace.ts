/**
 * The workspace as a release sees it: which packages are publishable, and their tarballs as
 * `pnpm pack` builds them (pnpm applies `publishConfig` overrides such as `exports` at pack time,
 * which is what `changeset publish` uploads).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const run = promisify(execFile);

/** The repository root (this file is tooling/release/src/workspace.ts). */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The folders pnpm-workspace.yaml lists, each holding one package per subfolder. */
const WORKSPACE_FOLDERS = ["packages", "plugins", "adapters", "backends", "apps", "tooling"];

export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  exports?: Record<string, unknown>;
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  files?: string[];
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
  publishConfig?: { access?: string; exports?: Record<string, unknown> };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

export interface WorkspacePackage {
  /** Folder relative to the root, with forward slashes (`plugins/fs`). */
  dir: string;
  manifest: PackageManifest;
}

export function readManifest(file: string): PackageManifest {
  return JSON.parse(readFileSync(file, "utf8")) as PackageManifest;
}

export function workspacePackages(): WorkspacePackage[] {
  const list: WorkspacePackage[] = [];
  for (const folder of WORKSPACE_FOLDERS) {
    const base = path.join(root, folder);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base).sort()) {
      const file = path.join(base, entry, "package.json");
      if (existsSync(file)) list.push({ dir: `${folder}/${entry}`, manifest: readManifest(file) });
    }
  }
  return list;
}

export function publishablePackages(): WorkspacePackage[] {
  return workspacePackages().filter((p) => !p.manifest.private);
}

/** Packs `dir` with pnpm into `destination`; returns the tarball's path. */
export async function pack(dir: string, destination: string): Promise<string> {
  const { stdout } = await run("pnpm", ["pack", "--pack-destination", destination], {
    cwd: path.join(root, dir),
    maxBuffer: 16 * 1024 * 1024,
  });
  const tarball = stdout
    .trim()
    .split("\n")
    .map((line) => line.trim())
    .reverse()
    .find((line) => line.endsWith(".tgz"));
  if (!tarball) throw new Error(`pnpm pack in ${dir} printed no tarball path:\n${stdout}`);
  return path.isAbsolute(tarball) ? tarball : path.join(destination, path.basename(tarball));
}

/** Every file path (without the leading `package/`) in a tarball. */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await run("tar", ["-tzf", tarball], { maxBuffer: 16 * 1024 * 1024 });
  return stdout
    .split("\n")
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ""));
}

export async function tarballManifest(tarball: string): Promise<PackageManifest> {
  const { stdout } = await run("tar", ["-xzOf", tarball, "package/package.json"], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as PackageManifest;
}

/** Every file a manifest points at: export targets, main, types, bin. */
export function manifestTargets(manifest: PackageManifest): string[] {
  const targets = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === "string") targets.add(value);
    else if (value && typeof value === "object") for (const v of Object.values(value)) walk(v);
  };
  walk(manifest.exports);
  if (manifest.main) targets.add(manifest.main);
  if (manifest.types) targets.add(manifest.types);
  walk(manifest.bin);
  return [...targets].map((t) => t.replace(/^\.\//, ""));
}

/** Whether `key` appears anywhere in a JSON value (as an object key). */
export function hasKey(value: unknown, key: string): boolean {
  if (!value || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((v) => hasKey(v, key));
  return Object.entries(value).some(([k, v]) => k === key || hasKey(v, key));
}
