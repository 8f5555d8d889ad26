import path from "node:path";
import { ToolInputError } from "@clawtools/core";
import { openInWorkspace } from "@clawtools/core/safety";
import type { Segment } from "./command-line.js";
import { commandsOf } from "./command-prefixes.js";

type ScriptKind = "python" | "node";

const PYTHON = /^python(?:3(?:\.\d+)?)?$/i;
const PYTHON_VALUE_OPTIONS = new Set(["-W", "-X", "-Q", "--check-hash-based-pycs"]);
const NODE_VALUE_OPTIONS = new Set(["-r", "--require", "--import"]);

/** Which interpreter a simple command runs, if any. */
function interpreterOf(words: Segment): ScriptKind | undefined {
  const base = path.basename(words[0] ?? "");
  return PYTHON.test(base) ? "python" : base === "node" ? "node" : undefined;
}

const MAX_SCRIPT_BYTES = 512 * 1024;
// all-caps names only: `$` is a legal JavaScript identifier character
const SHELL_VARIABLE = /\$[A-Z_][A-Z0-9_]+/;

/** `python [opts] script.py …`: the script, unless the code comes from -c, -m or stdin. */
function pythonScript(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return args[i + 1]?.toLowerCase().endsWith(".py") ? args[i + 1] : undefined;
    if (arg === "-" || /^-[cm]/.test(arg)) return undefined;
    if (PYTHON_VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith("-")) return arg.toLowerCase().endsWith(".py") ? arg : undefined;
  }
  return undefined;
}

/** `node [opts] entry.js`: preloaded scripts and the entry script, unless code comes from -e/-p. */
function nodeScripts(args: string[]): string[] {
  const scripts: string[] = [];
  const isJs = (s: string | undefined): s is string => Boolean(s?.toLowerCase().endsWith(".js"));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-e" || arg === "-p" || arg === "--eval" || arg === "--print") return scripts;
    if (/^(-[ep].|--eval=|--print=)/.test(arg)) return scripts;
    if (NODE_VALUE_OPTIONS.has(arg)) {
      if (isJs(args[i + 1])) scripts.push(args[i + 1]!);
      i++;
    } else if (/^(-r.|--require=|--import=)/.test(arg)) {
      const value = arg.startsWith("-r") ? arg.slice(2) : arg.slice(arg.indexOf("=") + 1);
      if (isJs(value)) scripts.push(value);
    } else if (arg === "--") {
      if (isJs(args[i + 1])) scripts.push(args[i + 1]!);
      return scripts;
    } else if (!arg.startsWith("-")) {
      if (isJs(arg)) scripts.push(arg);
      return scripts;
    }
  }
  return scripts;
}

function scriptsOf(words: Segment): Array<{ kind: ScriptKind; file: string }> {
  const args = words.slice(1);
  switch (interpreterOf(words)) {
    case "python": {
      const file = pythonScript(args);
      return file ? [{ kind: "python", file }] : [];
    }
    case "node":
      return nodeScripts(args).map((file) => ({ kind: "node" as const, file }));
    default:
      return [];
  }
}

const PYTHON_INFO = new Set(["-V", "--version", "-h", "--help"]);
const NODE_INFO = new Set(["-v", "--version", "-h", "--help", "-c", "--check"]);

/** An interpreter that takes its program from stdin (`cat x.py | python3`, `node < x.js`). */
function readsProgramFromStdin(words: Segment): boolean {
  const kind = interpreterOf(words);
  if (!kind) return false;
  const python = kind === "python";
  const args = words.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-") return true;
    if (arg === "--") return args[i + 1] === undefined;
    if (
      python
        ? PYTHON_INFO.has(arg) || /^-[cm]/.test(arg)
        : NODE_INFO.has(arg) || /^(-[ep]|--eval|--print)/.test(arg)
    )
      return false;
    if (!arg.startsWith("-")) return false; // a program file
    if ((python ? PYTHON_VALUE_OPTIONS : NODE_VALUE_OPTIONS).has(arg)) i++;
  }
  return true;
}

// the raw command line cut at shell separators: one linear pass (a regex that looked for a
// `….py` word from every position was quadratic in the length of a long unbroken word)
const SEPARATORS = /[\s'"<>|;&()]+/;
const SCRIPT_FILE = /\.(?:py|js)$/i;

/** Whether a word anywhere in the raw command line (redirections too) names a .py or .js file. */
const mentionsScript = (command: string) =>
  command.split(SEPARATORS).some((word) => word.length > 3 && SCRIPT_FILE.test(word));

export const COMPLEX_INTERPRETER_REFUSED =
  "exec preflight: complex interpreter invocation detected; refusing to run without script preflight validation. Use a direct `python <file>.py` or `node <file>.js` command.";

/**
 * A script inside the working directory, read through core's containment (one walk checks and
 * opens it: a symbolic link is followed only while it stays inside; hard links are not read).
 * Anything else is not read and the run goes ahead unchecked.
 */
async function readSmallFileInside(dir: string, file: string): Promise<string | undefined> {
  let opened: Awaited<ReturnType<typeof openInWorkspace>>;
  try {
    opened = await openInWorkspace(dir, file, { mode: "read" });
  } catch {
    return undefined; // outside, missing, a link out, a hard link
  }
  try {
    if (!opened.stat.isFile() || opened.stat.size > MAX_SCRIPT_BYTES) return undefined;
    return await opened.handle.readFile("utf8");
  } catch {
    return undefined;
  } finally {
    await opened.close();
  }
}

/**
 * Catches a common model mistake before it runs: shell syntax leaking into a Python or
 * Node script the command is about to run (`$HOME` in Python source, a JS file whose first
 * line is a `NODE …` shell line). Only scripts inside the working directory, up to 512 KB,
 * are read.
 */
export async function preflightScripts(
  command: string,
  cwd: string,
  commands = commandsOf(command),
): Promise<void> {
  // a script fed to an interpreter through a pipe or redirection cannot be read here: refuse
  // rather than run unchecked code (direct `python x.py` forms are checked below)
  if (mentionsScript(command)) {
    const substitution =
      /[<>]\(/.test(command) && commands.some((words) => interpreterOf(words) !== undefined);
    if (substitution || commands.some(readsProgramFromStdin))
      throw new ToolInputError(COMPLEX_INTERPRETER_REFUSED);
  }
  for (const words of commands) {
    for (const { kind, file } of scriptsOf(words)) {
      const content = await readSmallFileInside(cwd, file);
      if (content === undefined) continue;
      const leak = SHELL_VARIABLE.exec(content);
      if (leak) {
        const token = leak[0];
        const name = JSON.stringify(token.slice(1));
        const line = content.slice(0, leak.index).split("\n").length;
        throw new ToolInputError(
          [
            `exec preflight: detected likely shell variable injection (${token}) in ${kind} script: ${path.basename(file)}:${line}.`,
            kind === "python"
              ? `In Python, use os.environ.get(${name}) instead of raw ${token}.`
              : `In Node.js, use process.env[${name}] instead of raw ${token}.`,
            "(If this is inside a string literal on purpose, escape it or restructure the code.)",
          ].join("\n"),
        );
      }
      const firstLine = content
        .split(/\r?\n/)
        .map((l) => l.trim())
        .find((l) => l.length > 0);
      if (kind === "node" && firstLine && /^NODE\b/.test(firstLine)) {
        throw new ToolInputError(
          `exec preflight: JS file starts with shell syntax (${firstLine}). This looks like a shell command, not JavaScript.`,
        );
      }
    }
  }
}
