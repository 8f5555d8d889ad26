import { callCommand } from "./commands/call.js";
import { describeCommand } from "./commands/describe.js";
import { listCommand } from "./commands/list.js";
import { schemaCommand } from "./commands/schema.js";
import { serveCommand } from "./commands/serve.js";
import { parseCommonOptions } from "./options.js";
import { COMMANDS, type CommandName, HELP, UsageError } from "./usage.js";
import { CLI_VERSION } from "./version.js";

/** Runs the CLI; returns the exit code (0 ok, 1 tool error or failure, 2 usage error). */
export async function main(
  argv: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === "--help" || command === "-h" || command === "help") {
      if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
      out(HELP.main);
      return command ? 0 : 2;
    }
    if (command === "--version" || command === "-v") {
      if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
      out(CLI_VERSION);
      return 0;
    }
    if (command.startsWith("-")) throw new UsageError(`unknown option "${command}" (a command comes first)`);
    if (!(COMMANDS as readonly string[]).includes(command))
      throw new UsageError(`unknown command "${command}" (expected ${COMMANDS.join(", ")})`);
    const options = parseCommonOptions(rest, command as CommandName);
    if (options.help) {
      out(HELP[command as CommandName]);
      return 0;
    }
    switch (command as CommandName) {
      case "list":
        return await listCommand(options, out);
      case "describe":
        return await describeCommand(options, out);
      case "schema":
        return await schemaCommand(options, out);
      case "call":
        return await callCommand(options, out);
      case "serve":
        return await serveCommand(options);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(
        `clawtools: ${error.message} (see clawtools ${command && (COMMANDS as readonly string[]).includes(command) ? `${command} ` : ""}--help)\n`,
      );
      return 2;
    }
    process.stderr.write(`clawtools: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
  return 1;
}
