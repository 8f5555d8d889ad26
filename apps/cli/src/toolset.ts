import { type Bundle, type Clawtools, composeBundle, createClawtools } from "clawtools/compose";
import { bundleConfigFrom, type HttpConfig, pluginOrigin, readConfigFile } from "./config.js";
import { warn } from "./context.js";
import type { CommonOptions } from "./options.js";
import { isConfigProblem } from "./usage.js";
import { UsageError } from "./usage-error.js";
import { CLI_VERSION } from "./version.js";

export { buildContext } from "./context.js";

/**
 * The installed sections, listed from their manifests: a section's code is imported when one of
 * its tools is first called (or, for sections with state, once serve is serving).
 */
export async function loadClawtools(): Promise<Clawtools> {
  return createClawtools({ lazy: true });
}

/** The bundle a command works with, and serve's `--http` settings from the file. */
export type CliToolset = Bundle & {
  /** `serve --http`'s settings from the `--config` file (the flags win). */
  http: HttpConfig;
};

/**
 * The bundle a command works with: composeBundle over the `--config` file with the flags over
 * it, the same bundle a library user gets from the same configuration. `store`: serve and call
 * open the store and the Gateway; describe, list, schema and doctor touch no state (they show what
 * would be served). `secrets`: serve's own tokens, withheld from commands the tools run.
 */
export async function buildToolset(
  options: CommonOptions,
  defaults: { profile?: string; store?: boolean; secrets?: Array<string | undefined> } = {},
): Promise<CliToolset> {
  const file = readConfigFile(options.config);
  let bundle: Bundle;
  try {
    bundle = await composeBundle(bundleConfigFrom(options, file), {
      defaultProfile: defaults.profile ?? null,
      where: file.where,
      baseDir: file.dir,
      warn,
      connect: defaults.store ?? false,
      pluginOrigin: pluginOrigin(options, file),
      clientVersion: CLI_VERSION,
      // an MCP host (or a terminal) is never woken by a message: it asks for sub-agent results
      laterResults: "pull",
      policyLabels: { allow: "--allow", deny: "--deny" },
      ...(defaults.secrets ? { secrets: defaults.secrets } : {}),
    });
  } catch (error) {
    // a configuration the bundle refused is the user's to fix: one line, exit 2
    if (isConfigProblem(error)) throw new UsageError(error.message);
    throw error;
  }
  return Object.assign(bundle, { http: file.http });
}
