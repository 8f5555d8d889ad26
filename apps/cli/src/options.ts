import { parseArgs } from "node:util";
import { UsageError } from "./usage.js";

export interface CommonOptions {
  workspace: string;
  profile?: string;
  allow?: string[];
  deny?: string[];
  owner: boolean;
  provider?: string;
  help: boolean;
  json: boolean;
  strict: boolean;
  args?: string;
  argsFile?: string;
  positionals: string[];
}

const splitList = (values: string[] | undefined) =>
  values
    ?.flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

export function parseCommonOptions(argv: string[]): CommonOptions {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        workspace: { type: "string" },
        profile: { type: "string" },
        allow: { type: "string", multiple: true },
        deny: { type: "string", multiple: true },
        owner: { type: "boolean", default: false },
        provider: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        json: { type: "boolean", default: false },
        strict: { type: "boolean", default: false },
        args: { type: "string" },
        "args-file": { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split("\n")[0]!);
  }
  const v = parsed.values as Record<string, unknown>;
  const allow = splitList(v.allow as string[] | undefined);
  const deny = splitList(v.deny as string[] | undefined);
  return {
    workspace: (v.workspace as string | undefined) ?? process.cwd(),
    ...(v.profile ? { profile: v.profile as string } : {}),
    ...(allow ? { allow } : {}),
    ...(deny ? { deny } : {}),
    owner: v.owner as boolean,
    ...(v.provider ? { provider: v.provider as string } : {}),
    help: v.help as boolean,
    json: v.json as boolean,
    strict: v.strict as boolean,
    ...(v.args !== undefined ? { args: v.args as string } : {}),
    ...(v["args-file"] !== undefined ? { argsFile: v["args-file"] as string } : {}),
    positionals: parsed.positionals,
  };
}
