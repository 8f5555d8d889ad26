import path from "node:path";
import { analyzeCommandLine, type Segment } from "./command-line.js";

const isAssignment = (word: string) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "fish"]);

// options of the wrappers that take a separate value word
const ENV_VALUE_OPTIONS = new Set([
  "-C",
  "-u",
  "--chdir",
  "--unset",
  "--argv0",
  "--default-signal",
  "--ignore-signal",
  "--block-signal",
]);
const SUDO_VALUE_OPTIONS = new Set([
  "-C",
  "-D",
  "-g",
  "-h",
  "-p",
  "-R",
  "-T",
  "-U",
  "-u",
  "--chdir",
  "--close-from",
  "--group",
  "--host",
  "--other-user",
  "--prompt",
  "--role",
  "--type",
  "--user",
]);
const EXEC_VALUE_OPTIONS = new Set(["-a"]);
const ENV_ALL_VALUE_OPTIONS = new Set([...ENV_VALUE_OPTIONS, "-S", "--split-string"]);
const NO_VALUE_OPTIONS: ReadonlySet<string> = new Set();

/** Skips a wrapper's options (and their values); returns the index of the wrapped command. */
function skipOptions(words: Segment, from: number, withValue: ReadonlySet<string>): number {
  let i = from;
  while (i < words.length) {
    const word = words[i]!;
    if (word === "--") return i + 1;
    if (isAssignment(word)) {
      i++;
      continue;
    }
    if (!word.startsWith("-") || word === "-") return i;
    i += withValue.has(word) ? 2 : 1;
  }
  return i;
}

/**
 * The commands a simple command really runs: leading assignments and the wrappers `env`,
 * `command`, `builtin`, `exec`, `nohup`, `time` and `sudo` are stripped, and `sh -c '…'`
 * style payloads (and `env -S '…'`) are parsed and unwrapped in turn.
 */
export function effectiveCommands(words: Segment, depth = 0): Segment[] {
  let i = 0;
  const nested: Segment[] = [];
  for (;;) {
    while (i < words.length && isAssignment(words[i]!)) i++;
    const name = words[i];
    if (name === undefined) return nested;
    const base = path.basename(name);
    if (base === "env") {
      // a split string is a command line of its own
      for (let k = i + 1; k < words.length && words[k]!.startsWith("-"); k++) {
        const word = words[k]!;
        const payload =
          word === "-S" || word === "--split-string"
            ? words[k + 1]
            : /^(-S|--split-string=)(.+)$/.exec(word)?.[2];
        if (payload) nested.push(...commandsOf(payload, depth));
      }
      i = skipOptions(words, i + 1, ENV_ALL_VALUE_OPTIONS);
    } else if (base === "command" || base === "builtin" || base === "nohup" || base === "time") {
      i = skipOptions(words, i + 1, NO_VALUE_OPTIONS);
    } else if (base === "exec") {
      i = skipOptions(words, i + 1, EXEC_VALUE_OPTIONS);
    } else if (base === "sudo" || base === "doas") {
      i = skipOptions(words, i + 1, SUDO_VALUE_OPTIONS);
    } else break;
  }
  const command = words.slice(i);
  const base = path.basename(command[0] ?? "");
  if (SHELLS.has(base)) {
    // -c, or a cluster holding c (-lc, -xc): the next word is a command line
    const flag = command.findIndex((w, k) => k > 0 && /^-[A-Za-z]+$/.test(w) && w.includes("c"));
    const payload = flag > 0 ? command[flag + 1] : undefined;
    if (payload !== undefined) nested.push(...commandsOf(payload, depth));
  }
  return [command, ...nested];
}

/** Every effective command of a command line, shell payloads included (bounded nesting). */
export function commandsOf(line: string, depth = 0): Segment[] {
  if (depth > 4) return [];
  const analysis = analyzeCommandLine(line);
  // unparseable lines (heredocs…) are judged line by line on plain whitespace words
  const segments = analysis.ok
    ? analysis.segments
    : line
        .split(/\r?\n/)
        .map((l) => l.trim().split(/\s+/).filter(Boolean))
        .filter((words) => words.length > 0);
  return segments.flatMap((words) => effectiveCommands(words, depth + 1));
}
