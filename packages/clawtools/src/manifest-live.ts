import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ClawtoolsPlugin } from "@clawtools/core";
import type { SectionId } from "@clawtools/core/catalog";
import { SECTION_PACKAGES } from "./discover.js";
import { installedVersion } from "./installed.js";
import { buildSectionManifest, referenceContext, type SectionManifest } from "./manifest.js";

/**
 * A section's manifest from its live code, generated in a fresh workspace and state directory
 * (removed afterwards); the plugin is disposed.
 */
export async function liveManifest(section: SectionId): Promise<SectionManifest> {
  const packageName = SECTION_PACKAGES[section];
  if (!packageName) throw new Error(`unknown section ${section}`);
  const plugin = ((await import(packageName)) as { default: ClawtoolsPlugin }).default;
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-manifest-"));
  try {
    const ctx = referenceContext(path.join(dir, "workspace"), path.join(dir, "state"));
    return buildSectionManifest(plugin, packageName, installedVersion(packageName), ctx);
  } finally {
    await plugin.dispose?.();
    rmSync(dir, { recursive: true, force: true });
  }
}
