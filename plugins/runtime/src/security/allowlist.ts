import { compileGlob, type GlobMatcher, isInsideRoot } from "@clawtools/core";
import { shortPrefix } from "../text.js";
import { checkRedirect } from "./redirects.js";
import { type ResolvedExecutable, resolveExecutable } from "./resolve-executable.js";
import { safeBinProblem } from "./safe-bins.js";
import { parseStrict, type SimpleCommand, shellQuote } from "./shell-parse.js";

/** An allowlist entry: `pattern` matches the executable (path or name, `*` wildcards); `argPattern` the joined arguments. */
export interface AllowlistEntry {
  pattern: string;
  argPattern?: string;
}

export interface AllowlistOptions {
  entries: readonly AllowlistEntry[];
  /** Safe bins by name (each must have a profile); default cut, uniq, head, tail, tr, wc. */
  safeBins: readonly string[];
  /** Where safe bins are looked up (default /bin, /usr/bin). */
  trustedDirs: readonly string[];
  /** Directories searched for allowlisted names: the PATH the command will get. */
  searchPath: readonly string[];
  cwd: string;
  workspaceDir: string;
  /** File redirections allowed at all (then only inside the workspace). */
  allowRedirections: boolean;
}

export type AllowlistVerdict =
  | {
      ok: true /** The command to run: every program by its resolved absolute path, every word quoted. */;
      command: string;
    }
  | { ok: false; analysable: boolean; misses: string[] };

const MAX_ARGS_FOR_PATTERN = 4096;

// the project's one glob matcher: `*` stays within a path segment, `**` crosses them, and no
// pattern can backtrack for seconds on a crafted path
const matchers = new Map<string, GlobMatcher>();
const globMatcher = (glob: string): GlobMatcher => {
  let m = matchers.get(glob);
  if (!m) {
    m = compileGlob(glob);
    matchers.set(glob, m);
  }
  return m;
};

function matchesEntry(
  command: SimpleCommand,
  exe: ResolvedExecutable,
  entry: AllowlistEntry,
  workspaceDir: string,
): boolean {
  const matches = globMatcher(entry.pattern);
  let exeOk: boolean;
  if (entry.pattern.includes("/")) exeOk = matches(exe.path) || matches(exe.realPath);
  // a bare name means that program where it is installed, never a same-named file the model wrote
  else
    exeOk =
      !isInsideRoot(workspaceDir, exe.realPath) && matches(exe.path.slice(exe.path.lastIndexOf("/") + 1));
  if (!exeOk) return false;
  if (entry.argPattern === undefined) return true;
  const args = command.argv.slice(1).join(" ");
  // an operator's pattern never runs over an unbounded model string
  return args.length <= MAX_ARGS_FOR_PATTERN && new RegExp(`^(?:${entry.argPattern})$`).test(args);
}

/** Why one simple command is not allowed, or the command line that runs it. */
function judge(command: SimpleCommand, options: AllowlistOptions): { run: string } | { miss: string } {
  const text = shortPrefix(command.argv.join(" "));
  if (command.assignments.length)
    return { miss: `${shortPrefix(command.assignments.join(" "))} ${text} (environment assignment)` };
  const redirects: string[] = [];
  for (const redirect of command.redirects) {
    const checked = checkRedirect(redirect, options);
    if ("problem" in checked) return { miss: `${text} ${checked.problem}` };
    redirects.push(checked.text);
  }
  const name = command.argv[0]!;
  const args = command.argv.slice(1);
  let exe: ResolvedExecutable | undefined;
  let why: string | undefined;
  // an allowlist entry: the program found on the command's PATH (never one inside the workspace)
  const found = resolveExecutable(name, options.searchPath, options.cwd);
  if (found && !name.includes("/") && isInsideRoot(options.workspaceDir, found.realPath)) {
    why = `${shortPrefix(name, 80)} resolves to ${found.path}, inside the workspace`;
  } else if (
    found &&
    options.entries.some((entry) => matchesEntry(command, found, entry, options.workspaceDir))
  ) {
    exe = found;
  }
  // a safe bin: only from the trusted directories, only as its profile allows
  const base = name.slice(name.lastIndexOf("/") + 1);
  if (!exe && options.safeBins.includes(base)) {
    const trusted = resolveExecutable(base, options.trustedDirs, options.cwd);
    if (!trusted) why = `safe bin ${base} not found in ${options.trustedDirs.join(", ")}`;
    else if (name.includes("/") && found?.realPath !== trusted.realPath)
      why = `safe bin ${base} must come from ${options.trustedDirs.join(", ")}`;
    else {
      why = safeBinProblem(base, args);
      if (!why) exe = trusted;
    }
  }
  if (!exe) return { miss: why ? `${text} (${why})` : text };
  return { run: [shellQuote(exe.path), ...args.map(shellQuote), ...redirects].join(" ") };
}

/**
 * Judges a command line in allowlist mode. Allowed only when it parses completely and every
 * simple command is an allowlist hit or a safe-bin use; then the command that runs is rebuilt
 * from what was judged, each program by the absolute path that was checked.
 */
export function evaluateAllowlist(line: string, options: AllowlistOptions): AllowlistVerdict {
  const parsed = parseStrict(line);
  if (!parsed.ok) return { ok: false, analysable: false, misses: [parsed.reason] };
  const misses: string[] = [];
  const parts: string[] = [];
  for (const command of parsed.commands) {
    const verdict = judge(command, options);
    if ("miss" in verdict) misses.push(verdict.miss);
    else parts.push(verdict.run);
  }
  if (misses.length) return { ok: false, analysable: true, misses };
  let rebuilt = parts[0]!;
  for (let i = 1; i < parts.length; i++) rebuilt += ` ${parsed.connectors[i - 1]} ${parts[i]}`;
  return { ok: true, command: rebuilt };
}
