import { readFileSync } from "node:fs";
import path from "node:path";
import { contentText } from "@clawtools/core/resources";
import { type CommonOptions, invocationDir } from "../options.js";
import { buildToolset } from "../toolset.js";
import { UsageError } from "../usage-error.js";

function readArgs(options: CommonOptions): unknown {
  if (options.args !== undefined && options.argsFile !== undefined)
    throw new UsageError("pass --args or --args-file, not both");
  let raw = options.args;
  if (options.argsFile !== undefined) {
    try {
      raw = readFileSync(path.resolve(invocationDir(), options.argsFile), "utf8");
    } catch (error) {
      throw new UsageError(`cannot read --args-file: ${(error as Error).message}`);
    }
  }
  if (raw === undefined) return {};
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
  }
}

export async function callCommand(options: CommonOptions, out: (line: string) => void): Promise<number> {
  const name = options.positionals[0]!;
  const args = readArgs(options);
  const set = await buildToolset(options, { store: true });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once("SIGINT", onSignal);
  try {
    const tool = set.tools.find((t) => t.name === name);
    if (!tool) {
      const why = set.diagnostics.find((d) => d.toolId === name)?.message;
      throw new UsageError(
        why ? `tool "${name}" is not available: ${why}` : `unknown tool "${name}" (see clawtools list)`,
      );
    }
    const result = await tool.execute("cli", args, controller.signal);
    if (options.json) out(JSON.stringify(result, null, 2));
    else {
      for (const block of result.content) {
        out(
          block.type === "image" || block.type === "audio"
            ? `[${block.type} ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes]`
            : contentText(block),
        );
      }
    }
    return result.isError ? 1 : 0;
  } finally {
    process.off("SIGINT", onSignal);
    // no orphans: what the call started (background sessions too) ends with the command
    await set.close();
  }
}
