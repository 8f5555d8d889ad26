import { accessSync, constants } from "node:fs";
import path from "node:path";
import type { CommonOptions } from "../options.js";
import { buildToolset } from "../toolset.js";

/** An executable on PATH, or undefined. */
function which(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  return undefined;
}

const NODE_MIN = [20, 19] as const;

/** "v20.20.2 (ok)" or why not. */
function nodeLine(): string {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  const ok = major > NODE_MIN[0] || (major === NODE_MIN[0] && minor >= NODE_MIN[1]);
  return `node: v${process.versions.node} ${ok ? "(ok" : `(too old: clawtools needs >= ${NODE_MIN.join(".")}`}; the sub-agent runner on pi 1.x needs >= 22.19)`;
}

async function chromiumLine(): Promise<string> {
  try {
    const { findChromium } = await import("@clawtools/ui");
    return `chromium: ${findChromium()} (browser, canvas)`;
  } catch (error) {
    return `chromium: missing: ${(error as Error).message.split("\n")[0]}`;
  }
}

function displayLine(env: NodeJS.ProcessEnv): string {
  const xvfb = which("Xvfb", env);
  if (env.DISPLAY)
    return `display: DISPLAY=${env.DISPLAY} (nodes screen capture${which("import", env) ? "" : "; install imagemagick for `import`"})`;
  return `display: none: DISPLAY is not set, so nodes has no screen capture (${xvfb ? `start ${xvfb} :99 & and export DISPLAY=:99` : "apt-get install xvfb, start Xvfb :99 & and export DISPLAY=:99"})`;
}

async function keysLine(env: NodeJS.ProcessEnv): Promise<string> {
  const { providerKeyVariables } = await import("@clawtools/models");
  const vars = providerKeyVariables();
  const set = vars.filter((v) => env[v]);
  // names only: a key's value is never printed
  return set.length
    ? `keys: ${set.join(", ")} set (not set: ${vars.filter((v) => !env[v]).join(", ")})`
    : `keys: no model provider key set (${vars.join(", ")}): sub-agents and image need one with --model`;
}

async function modelLine(model: string | undefined): Promise<string> {
  if (!model)
    return 'model: none: sessions_spawn and image need --model provider/model (or "model" in the config file)';
  const { resolveModel } = await import("@clawtools/models");
  try {
    const resolved = resolveModel({ model });
    return `model: ${model} at ${resolved.model.baseUrl}`;
  } catch (error) {
    return `model: ${(error as Error).message}`;
  }
}

/** Which sandbox the config selects for exec, and whether bubblewrap is usable here. */
async function sandboxLine(runtime: unknown): Promise<string> {
  const config = (runtime ?? {}) as { sandbox?: string; sandboxNetwork?: string };
  const mode = config.sandbox ?? "none";
  const chosen = `sandbox: ${mode}${config.sandbox ? "" : " (the default; runtime.sandbox in --config: auto or bwrap)"}`;
  let runtimeModule: typeof import("@clawtools/runtime");
  try {
    runtimeModule = await import("@clawtools/runtime");
  } catch {
    return `${chosen}; the runtime section is not installed`;
  }
  const bwrap = runtimeModule.findBwrap();
  if (!bwrap)
    return `${chosen}; bubblewrap: missing (apt-get install bubblewrap)${mode === "bwrap" ? ": exec refuses to run unsandboxed" : mode === "auto" ? ": exec runs unsandboxed" : ""}`;
  const problem = runtimeModule.probeBwrap(bwrap);
  if (problem)
    return `${chosen}; bubblewrap: ${bwrap} not usable here: ${problem.split("\n")[0]}${mode === "bwrap" ? " (exec refuses to run unsandboxed)" : mode === "auto" ? " (exec runs unsandboxed)" : ""}`;
  const network = mode === "none" ? "" : `, network ${config.sandboxNetwork ?? "proxy"}`;
  return `${chosen}; bubblewrap: ${bwrap} usable${network}`;
}

/**
 * What `serve` with the same options would serve, what is left out and why, and what the machine
 * has for the sections that need something outside Node. Plain lines; exit 0 whatever it finds.
 */
export async function doctorCommand(options: CommonOptions, out: (line: string) => void): Promise<number> {
  const env = process.env;
  out(nodeLine());
  // the model is reported below, not refused: doctor says what is wrong and exits 0
  const { model, ...rest } = options;
  const set = await buildToolset(rest, { profile: "coding", store: false });
  try {
    const served = new Map<string, string[]>();
    for (const tool of set.tools) {
      const meta = set.registry.getMeta(tool.name);
      const where = meta?.sectionId || meta?.pluginId || "other";
      served.set(where, [...(served.get(where) ?? []), tool.name]);
    }
    out(`workspace: ${set.context.workspaceDir}`);
    out(`state: ${set.state}`);
    out(`profile: ${options.profile ?? "coding"} (serving ${set.tools.length} tools)`);
    for (const [section, tools] of served) out(`served: ${section}: ${tools.join(", ")}`);
    for (const d of set.diagnostics) out(`not served: ${d.message}`);
    out(await chromiumLine());
    const espeak = which("espeak-ng", env);
    out(
      espeak
        ? `espeak-ng: ${espeak} (tts)`
        : "espeak-ng: missing: tts has no local voice (apt-get install espeak-ng)",
    );
    out(displayLine(env));
    out(await keysLine(env));
    out(await modelLine(model ?? set.config.model));
    out(await storeLine(options.store ?? set.config.store));
    out(await sandboxLine(set.config.sections.runtime));
  } finally {
    await set.close();
  }
  return 0;
}

async function storeLine(url: string | undefined): Promise<string> {
  if (!url) return "store: embedded files under the state directory";
  const { openBundleStore } = await import("clawtools/compose");
  try {
    const store = await openBundleStore(url);
    const where = store.location;
    await store.close();
    return `store: ${where} reachable`;
  } catch (error) {
    return `store: ${(error as Error).message}`;
  }
}
