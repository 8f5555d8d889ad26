import { accessSync, constants } from "node:fs";
import path from "node:path";
import type { Segment } from "./command-line.js";

/** An allowlist entry: `pattern` matches the executable (path or name, `*` wildcards); `argPattern` the joined arguments. */
export interface AllowlistEntry {
  pattern: string;
  argPattern?: string;
}

export const DEFAULT_SAFE_BINS: readonly string[] = ["cut", "uniq", "head", "tail", "tr", "wc"];
export const DEFAULT_TRUSTED_DIRS: readonly string[] = ["/bin", "/usr/bin"];

/** Flags each safe bin accepts that take a value (so the value is not a file argument). */
const VALUE_FLAGS: Record<string, ReadonlySet<string>> = {
  cut: new Set(["-d", "-f", "-c", "-b", "--delimiter", "--fields", "--characters", "--bytes"]),
  head: new Set(["-n", "-c", "--lines", "--bytes"]),
  tail: new Set(["-n", "-c", "--lines", "--bytes"]),
  uniq: new Set(["-f", "-s", "-w"]),
  tr: new Set(),
  wc: new Set(),
};
/** tr takes its sets as positional arguments; the others read stdin only. */
const MAX_POSITIONALS: Record<string, number> = { tr: 2 };

const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  );

export function resolveExecutable(name: string, dirs: readonly string[]): string | undefined {
  if (name.includes("/")) return path.resolve(name);
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function matchesEntry(segment: Segment, entry: AllowlistEntry, searchPath: readonly string[]): boolean {
  const [exe, ...args] = segment;
  const resolved = resolveExecutable(exe!, searchPath);
  const re = globToRegExp(entry.pattern);
  const exeOk = entry.pattern.includes("/")
    ? resolved !== undefined && re.test(resolved)
    : re.test(path.basename(exe!));
  if (!exeOk) return false;
  return entry.argPattern === undefined || new RegExp(`^(?:${entry.argPattern})$`).test(args.join(" "));
}

/** A safe bin reading only stdin: resolved from a trusted directory, no file arguments. */
function isSafeBinUse(
  segment: Segment,
  safeBins: readonly string[],
  trustedDirs: readonly string[],
): boolean {
  const [exe, ...args] = segment;
  const name = path.basename(exe!);
  if (!safeBins.includes(name) || !(name in VALUE_FLAGS)) return false;
  const resolved = resolveExecutable(exe!, trustedDirs);
  if (!resolved || !trustedDirs.includes(path.dirname(resolved))) return false;
  if (exe!.includes("/") && path.resolve(exe!) !== resolved) return false;
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith("-") && arg !== "-") {
      if (VALUE_FLAGS[name]!.has(arg)) i++;
      continue;
    }
    positionals.push(arg);
  }
  return positionals.length <= (MAX_POSITIONALS[name] ?? 0);
}

export interface AllowlistOptions {
  entries: readonly AllowlistEntry[];
  safeBins?: readonly string[];
  trustedDirs?: readonly string[];
  /** Directories searched for bare executable names (default: PATH). */
  searchPath?: readonly string[];
}

/** The segments that no allowlist entry and no safe-bin rule covers (empty = allowed). */
export function allowlistMisses(segments: Segment[], options: AllowlistOptions): Segment[] {
  const searchPath = options.searchPath ?? (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  const safeBins = options.safeBins ?? DEFAULT_SAFE_BINS;
  const trusted = options.trustedDirs ?? DEFAULT_TRUSTED_DIRS;
  return segments.filter(
    (segment) =>
      !options.entries.some((entry) => matchesEntry(segment, entry, searchPath)) &&
      !isSafeBinUse(segment, safeBins, trusted),
  );
}
