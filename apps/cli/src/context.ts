// The context a command works in (workspace, validated config, state directory), apart from the bundle built on it.
import type { ToolContext } from "@clawtools/core";
import { redactSecrets, registerSecrets, secretsInDocument } from "@clawtools/core/safety";
import { bundleContext, type Clawtools, readBundleConfig } from "clawtools/compose";
import { bundleConfigFrom, readConfigFile } from "./config.js";
import type { CommonOptions } from "./options.js";
import { asUsageError } from "./usage-error.js";

export const warn = (message: string) => process.stderr.write(redactSecrets(`${message}\n`));

/**
 * The context every command works in, as composeBundle makes it: the workspace, the `--config`
 * sections (validated up front against each installed plugin's schema) and the state directory
 * (`--state-dir`, else the file's `stateDir`, else one per workspace under the XDG state home).
 */
export function buildContext(options: CommonOptions, clawtools: Clawtools): ToolContext {
  const file = readConfigFile(options.config);
  const resolved = asUsageError(() =>
    readBundleConfig(bundleConfigFrom(options, file), clawtools.tools.plugins(), {
      where: file.where,
      baseDir: file.dir,
    }),
  );
  // the configuration's credentials (tokens, keys, webhook URLs) are secrets of the process
  registerSecrets(secretsInDocument(resolved.sections));
  for (const warning of resolved.warnings) warn(warning);
  // an MCP host (or a terminal) is never woken by a message: it asks for sub-agent results
  return bundleContext(resolved, { laterResults: "pull" });
}
