/**
 * `changeset version` on a scratch copy of the workspace's manifests and changesets: a minor
 * changeset stays minor. Changesets bumps a package to a major when a peer dependency of it is
 * released, unless the peer stays inside the declared range; the umbrella's optional section
 * peers would otherwise publish clawtools@1.0.0 on the first release.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { readManifest, root, workspacePackages } from "../src/workspace.js";

const run = promisify(execFile);
const changesetBin = path.join(root, "node_modules", "@changesets", "cli", "bin.js");
const scratch: string[] = [];

afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the root manifest, the workspace file, every package manifest and .changeset/. */
function scratchCopy(withChangesets: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-changesets-"));
  scratch.push(dir);
  for (const file of ["package.json", "pnpm-workspace.yaml"])
    cpSync(path.join(root, file), path.join(dir, file));
  for (const { dir: pkg } of workspacePackages()) {
    mkdirSync(path.join(dir, pkg), { recursive: true });
    cpSync(path.join(root, pkg, "package.json"), path.join(dir, pkg, "package.json"));
  }
  mkdirSync(path.join(dir, ".changeset"));
  cpSync(path.join(root, ".changeset", "config.json"), path.join(dir, ".changeset", "config.json"));
  if (withChangesets) {
    for (const file of readdirSync(path.join(root, ".changeset")).filter((f) => f.endsWith(".md"))) {
      cpSync(path.join(root, ".changeset", file), path.join(dir, ".changeset", file));
    }
  }
  return dir;
}

function writeChangeset(
  dir: string,
  name: string,
  releases: Record<string, "major" | "minor" | "patch">,
): void {
  const header = Object.entries(releases)
    .map(([pkg, bump]) => `"${pkg}": ${bump}`)
    .join("\n");
  writeFileSync(path.join(dir, ".changeset", `${name}.md`), `---\n${header}\n---\n\n${name}\n`);
}

/** Runs `changeset version` in `dir` and returns every package's version afterwards. */
async function versionAll(dir: string): Promise<Record<string, string>> {
  await run(process.execPath, [changesetBin, "version"], { cwd: dir, env: { ...process.env, CI: "1" } });
  return Object.fromEntries(
    workspacePackages().map(({ dir: pkg }) => {
      const manifest = readManifest(path.join(dir, pkg, "package.json"));
      return [manifest.name, manifest.version];
    }),
  );
}

function versionOf(name: string): string {
  const found = workspacePackages().find((p) => p.manifest.name === name);
  if (!found) throw new Error(`no workspace package named ${name}`);
  return found.manifest.version;
}

/** Major.minor.patch bumped by `type`, the way changesets does it (0.x stays 0.x on minor). */
function bumped(version: string, type: "minor" | "patch"): string {
  const [major, minor, patch] = version.split(".").map(Number) as [number, number, number];
  return type === "minor" ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}

describe("changeset version", () => {
  it("keeps the first release minor: a minor changeset for every package gives each its next minor, clawtools included", async () => {
    const dir = scratchCopy(false);
    const publishable = workspacePackages()
      .filter((p) => !p.manifest.private)
      .map((p) => p.manifest.name);
    writeChangeset(dir, "first-release", Object.fromEntries(publishable.map((name) => [name, "minor"])));
    const after = await versionAll(dir);
    for (const name of publishable)
      expect({ name, version: after[name] }).toEqual({ name, version: bumped(versionOf(name), "minor") });
  }, 120_000);

  it("releasing an optional section peer of the umbrella does not make the umbrella a major", async () => {
    const dir = scratchCopy(false);
    const umbrella = readManifest(path.join(root, "packages", "clawtools", "package.json"));
    const peers = Object.keys(umbrella.peerDependencies ?? {});
    expect(peers.length).toBeGreaterThan(0);
    writeChangeset(dir, "sections", Object.fromEntries(peers.map((name) => [name, "minor"])));
    const after = await versionAll(dir);
    for (const name of peers) expect(after[name]).toBe(bumped(versionOf(name), "minor"));
    // at most a patch (the CLI it runs depends on the sections), never a major
    expect([versionOf("clawtools"), bumped(versionOf("clawtools"), "patch")]).toContain(after.clawtools);
  }, 120_000);

  it("with the repository's pending changesets, no package gets a bigger bump than a changeset asked for", async () => {
    const dir = scratchCopy(true);
    const asked = new Map<string, string>();
    for (const file of readdirSync(path.join(dir, ".changeset")).filter((f) => f.endsWith(".md"))) {
      const text = readFileSync(path.join(dir, ".changeset", file), "utf8");
      const header = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? "";
      for (const line of header.split("\n")) {
        const m = /^["']?([^"':]+)["']?:\s*(major|minor|patch)\s*$/.exec(line.trim());
        if (m && (m[2] === "major" || asked.get(m[1]!) !== "major")) asked.set(m[1]!, m[2]!);
      }
    }
    const after = await versionAll(dir);
    const majors = Object.entries(after)
      .filter(([name, version]) => version.split(".")[0] !== versionOf(name).split(".")[0])
      .map(([name]) => name);
    expect(majors.filter((name) => asked.get(name) !== "major")).toEqual([]);
  }, 120_000);

  it("keeps the rule in the configuration: peers bump their dependents only when they leave the range", () => {
    const config = JSON.parse(readFileSync(path.join(root, ".changeset", "config.json"), "utf8")) as {
      ___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH?: {
        onlyUpdatePeerDependentsWhenOutOfRange?: boolean;
      };
    };
    expect(
      config.___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH?.onlyUpdatePeerDependentsWhenOutOfRange,
    ).toBe(true);
  });
});
