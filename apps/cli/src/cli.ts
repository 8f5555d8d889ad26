// Only the help texts and the version load up front: `--version` and `--help` answer without
// loading any section, the MCP server or its SDK; each command loads what it needs when it runs.
import { COMMANDS, type CommandName, HELP, isConfigProblem } from "./usage.js";
import { CLI_VERSION } from "./version.js";

/** A UsageError, its class (which extends core's error) loaded only when one is thrown. */
const usageError = async (message: string) => new (await import("./usage-error.js")).UsageError(message);

/** Runs the CLI; returns the exit code (0 ok, 1 tool error or failure, 2 usage error). */
export async function main(
  argv: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === "--help" || command === "-h" || command === "help") {
      if (rest.length > 0) throw await usageError(`unexpected argument "${rest[0]}"`);
      out(HELP.main);
      return command ? 0 : 2;
    }
    if (command === "--version" || command === "-v") {
      if (rest.length > 0) throw await usageError(`unexpected argument "${rest[0]}"`);
      out(CLI_VERSION);
      return 0;
    }
    if (command === "undo") return await (await import("./commands/undo.js")).undoCommand(rest, out);
    if (command === "exec-policy")
      return await (await import("./commands/exec-policy.js")).execPolicyCommand(rest, out);
    if (command.startsWith("-"))
      throw await usageError(`unknown option "${command}" (a command comes first)`);
    if (!(COMMANDS as readonly string[]).includes(command))
      throw await usageError(`unknown command "${command}" (expected ${COMMANDS.join(", ")})`);
    // the environment's keys and tokens are secrets of the process: no result, error or log line
    // carries them (core's one redaction path); every stderr write from here on goes through it,
    // usage errors and text from outside (a Gateway, a mounted server, a plugin, a database) too
    const core = await import("@clawtools/core/safety");
    core.registerEnvSecrets(process.env);
    core.redactWrites(process.stderr);
    const { parseCommonOptions } = await import("./options.js");
    const options = parseCommonOptions(rest, command as CommandName);
    if (options.help) {
      out(HELP[command as CommandName]);
      return 0;
    }
    switch (command as CommandName) {
      case "list":
        return await (await import("./commands/list.js")).listCommand(options, out);
      case "describe":
        return await (await import("./commands/describe.js")).describeCommand(options, out);
      case "schema":
        return await (await import("./commands/schema.js")).schemaCommand(options, out);
      case "call":
        return await (await import("./commands/call.js")).callCommand(options, out);
      case "serve":
        return await (await import("./commands/serve.js")).serveCommand(options);
      case "doctor":
        return await (await import("./commands/doctor.js")).doctorCommand(options, out);
    }
  } catch (error) {
    if (isConfigProblem(error)) {
      process.stderr.write(
        `clawtools: ${error.message} (see clawtools ${command && (COMMANDS as readonly string[]).includes(command) ? `${command} ` : ""}--help)\n`,
      );
      return 2;
    }
    const { redactSecrets } = await import("@clawtools/core/safety");
    process.stderr.write(redactSecrets(`clawtools: ${(error as Error).stack ?? String(error)}\n`));
    return 1;
  }
  return 1;
}
