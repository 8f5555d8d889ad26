import type { ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Edits (insert, delete, replace) between two short strings. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The known option nearest to `given` (`--wrkspace` → `--workspace`), if one is close. */
export function nearestOption(given: string, options: Options): string | undefined {
  const bare = given.replace(/^-+/, "").split("=")[0]!;
  let best: { name: string; d: number } | undefined;
  for (const name of Object.keys(options)) {
    const d = name.startsWith(bare) && bare.length >= 2 ? 0.5 : distance(bare, name);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(best.name.length / 3)) ? `--${best.name}` : undefined;
}

/** node:util parseArgs' error as one line of ours: an unknown option gets a "did you mean". */
export function parseArgsProblem(error: NodeJS.ErrnoException, options: Options): string {
  const message = error.message.split("\n")[0]!;
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const given = /'([^']+)'/.exec(message)?.[1] ?? message;
    const near = nearestOption(given, options);
    return `unknown option "${given}"${near ? ` (did you mean ${near}?)` : ""}`;
  }
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return message.replace(/^Option /, "option ");
  return message;
}
