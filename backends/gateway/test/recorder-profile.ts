import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { GatewayProfileSetup, OpenclawInstall } from "../src/testing/index.js";

// The far side: an OpenClaw channel plugin (test/fixtures/recorder-channel) that the Gateway
// loads from plugins.load.paths and that appends each delivery to a JSON-lines file.
const FIXTURE = fileURLToPath(new URL("./fixtures/recorder-channel", import.meta.url));

/**
 * The "recorder" Gateway profile: the plugin copied into a temp folder whose
 * node_modules/openclaw links to the installed package (so its `openclaw/plugin-sdk/*` imports
 * resolve as an installed plugin's do), `channels.recorder.file` in that folder; its lessees are
 * told the file as `info.deliveries`.
 */
export async function recorderProfile(openclaw: OpenclawInstall): Promise<GatewayProfileSetup> {
  const root = mkdtempSync(path.join(tmpdir(), "clawtools-recorder-"));
  const dir = path.join(root, "recorder-channel");
  cpSync(FIXTURE, dir, { recursive: true });
  mkdirSync(path.join(dir, "node_modules"));
  symlinkSync(path.dirname(openclaw.entry), path.join(dir, "node_modules", "openclaw"), "dir");
  const deliveries = path.join(root, "deliveries.jsonl");
  return {
    config: {
      plugins: { load: { paths: [dir] }, entries: { recorder: { enabled: true } } },
      channels: { recorder: { file: deliveries } },
    },
    info: { deliveries },
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
