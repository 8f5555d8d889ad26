// Regenerates src/manifests/<section>.json from the live sections (run after changing a
// section's tools: pnpm --filter clawtools manifests); a test fails while one is stale.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { liveManifest } from "../src/manifest-live.js";
import { MANIFEST_SECTIONS } from "../src/manifests/index.js";

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src/manifests");
mkdirSync(dir, { recursive: true });
for (const section of MANIFEST_SECTIONS) {
  const manifest = await liveManifest(section);
  writeFileSync(path.join(dir, `${section}.json`), `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(`${section}: ${manifest.registrations.flatMap((r) => r.names).join(", ")}\n`);
}
process.exit(0);
