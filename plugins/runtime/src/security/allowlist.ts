import { compileGlob, type GlobMatcher } from "@clawtools/core";
import { isInsideRoot } from "@clawtools/core/safety";
import { shortPrefix } from "../text.js";
import { checkRedirect } from "./redirects.js";
import { type ResolvedExecutable, resolveExecutable } from "./resolve-executable.js";
import { safeBinProblem } from "./safe-bins.js";
import { readPlain, type SimpleCommand } from "./allowlist-read.js";
import { basename, type Invocation, invocationsOf } from "./command-unwrap.js";
import type { ParsedCommand, ShellWord } from "./shell-grammar.js";
import { shellQuote } from "./shell-quote.js";

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
  argv: readonly string[],
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
  const args = argv.slice(1).join(" ");
  // an operator's pattern never runs over an unbounded model string
  return args.length <= MAX_ARGS_FOR_PATTERN && new RegExp(`^(?:${entry.argPattern})$`).test(args);
}

/** The program `argv[0]` checked against the entries and the safe bins: its path, or why not. */
function judgeProgram(
  argv: readonly string[],
  options: AllowlistOptions,
  openEnded = false,
): { exe: ResolvedExecutable } | { miss: string } {
  const text = shortPrefix(argv.join(" "));
  const name = argv[0]!;
  const args = argv.slice(1);
  let exe: ResolvedExecutable | undefined;
  let why: string | undefined;
  // an allowlist entry: the program found on the command's PATH (never one inside the workspace);
  // arguments added when it runs (xargs) cannot be held to an argument pattern
  const found = resolveExecutable(name, options.searchPath, options.cwd);
  if (found && !name.includes("/") && isInsideRoot(options.workspaceDir, found.realPath)) {
    why = `${shortPrefix(name, 80)} resolves to ${found.path}, inside the workspace`;
  } else if (
    found &&
    options.entries.some(
      (entry) =>
        (!openEnded || entry.argPattern === undefined) &&
        matchesEntry(argv, found, entry, options.workspaceDir),
    )
  ) {
    exe = found;
  }
  // a safe bin: only from the trusted directories, only as its profile allows
  const base = basename(name);
  if (!exe && options.safeBins.includes(base)) {
    const trusted = resolveExecutable(base, options.trustedDirs, options.cwd);
    if (!trusted) why = `safe bin ${base} not found in ${options.trustedDirs.join(", ")}`;
    else if (name.includes("/") && found?.realPath !== trusted.realPath)
      why = `safe bin ${base} must come from ${options.trustedDirs.join(", ")}`;
    else if (openEnded) why = `safe bin ${base} gets arguments only known when it runs`;
    else {
      why = safeBinProblem(base, args);
      if (!why) exe = trusted;
    }
  }
  if (!exe) return { miss: why ? `${text} (${why})` : text };
  return { exe };
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Every other program the command starts (what a wrapper, `xargs`, `find -exec` or a shell's
 * `-c` string runs, judged as the rules judge them), each checked like the first. A program
 * named by a word of the command is then written by its checked path.
 */
function judgeInner(
  command: SimpleCommand,
  options: AllowlistOptions,
  defined: Set<string>,
  paths: Map<ShellWord, string>,
): string | undefined {
  const top = command.parsed;
  const ctx = {
    defined: new Set(defined),
    depth: 0,
    problems: [] as string[],
    wrappers: [] as Invocation[],
    nested: [] as ParsedCommand[],
  };
  const invocations = invocationsOf([top], ctx);
  if (ctx.problems.length) return `${shortPrefix(command.argv.join(" "))} (${ctx.problems[0]})`;
  // a command line inside a string: its redirections and assignments are not rebuilt, so refused
  for (const nested of ctx.nested) {
    const shown = shortPrefix(nested.source);
    if (nested.redirects.length) return `${shown} (redirection inside a nested command line)`;
    if (nested.assignments.length) return `${shown} (environment assignment)`;
  }
  const inner = [...ctx.wrappers, ...invocations];
  for (const inv of inner) {
    const first = inv.argv[0];
    if (!first) continue;
    const argv = inv.argv.map((w) => w.text);
    const shown = shortPrefix(argv.join(" "));
    // a script file or code on the command line is not judged: not allowed on the program's strength
    if (inv.unresolved) return `${shown} (${inv.unresolved})`;
    if (first === top.words[0]) continue; // the program itself, judged already
    if (inv.defined) return `${shown} (a function defined in the command)`;
    const dynamic = inv.argv.find((w) => w.dynamic);
    if (dynamic) return `${shown} (${shortPrefix(dynamic.text, 80)} is only known when it runs)`;
    const verdict = judgeProgram(argv, options, inv.openEnded === true);
    if ("miss" in verdict) return verdict.miss;
    if (top.words.includes(first)) paths.set(first, verdict.exe.path);
  }
  // a wrapper's own NAME=value words set the environment of what it runs
  for (const wrapper of ctx.wrappers) {
    const end = inner.find((inv) => inv !== wrapper && wrapper.argv.includes(inv.argv[0]!));
    const upTo = end ? wrapper.argv.indexOf(end.argv[0]!) : wrapper.argv.length;
    if (wrapper.argv.slice(1, upTo).some((w) => ASSIGNMENT.test(w.text)))
      return `${shortPrefix(wrapper.argv.map((w) => w.text).join(" "))} (environment assignment)`;
  }
  return undefined;
}

/** Why one simple command is not allowed, or the command line that runs it. */
function judge(
  command: SimpleCommand,
  options: AllowlistOptions,
  defined: Set<string>,
): { run: string } | { miss: string } {
  const text = shortPrefix(command.argv.join(" "));
  if (command.assignments.length)
    return { miss: `${shortPrefix(command.assignments.join(" "))} ${text} (environment assignment)` };
  const redirects: string[] = [];
  for (const redirect of command.redirects) {
    const checked = checkRedirect(redirect, options);
    if ("problem" in checked) return { miss: `${text} ${checked.problem}` };
    redirects.push(checked.text);
  }
  const program = judgeProgram(command.argv, options);
  if ("miss" in program) return program;
  const paths = new Map<ShellWord, string>([[command.parsed.words[0]!, program.exe.path]]);
  const innerMiss = judgeInner(command, options, defined, paths);
  if (innerMiss) return { miss: innerMiss };
  const words = command.parsed.words.map((w) => shellQuote(paths.get(w) ?? w.text));
  return { run: [...words, ...redirects].join(" ") };
}

/**
 * Judges a command line in allowlist mode. Allowed only when it parses completely and every
 * simple command, and every program it starts, is an allowlist hit or a safe-bin use; then the
 * command that runs is rebuilt from what was judged, each program word by the absolute path
 * that was checked.
 */
export function evaluateAllowlist(line: string, options: AllowlistOptions): AllowlistVerdict {
  const parsed = readPlain(line);
  if (!parsed.ok) return { ok: false, analysable: false, misses: [parsed.reason] };
  const misses: string[] = [];
  const parts: string[] = [];
  for (const command of parsed.commands) {
    const verdict = judge(command, options, parsed.parse.functions);
    if ("miss" in verdict) misses.push(verdict.miss);
    else parts.push(verdict.run);
  }
  if (misses.length) return { ok: false, analysable: true, misses };
  let rebuilt = parts[0]!;
  for (let i = 1; i < parts.length; i++) rebuilt += ` ${parsed.connectors[i - 1]} ${parts[i]}`;
  return { ok: true, command: rebuilt };
}
