import { type ParsedCommand, parseShell, type ShellWord } from "./shell-grammar.js";

/** One program a command line would start, after wrappers and nested command lines are opened. */
export interface Invocation {
  /** Program and arguments (the program as written: a name or a path). */
  argv: ShellWord[];
  /** What it ran inside, outermost first (`sudo`, `bash -c`, `xargs`…). */
  via: string[];
  /** Why it cannot be judged completely (a script, interpreter code, a computed name). */
  unresolved?: string;
  /** More arguments are added when it runs (xargs, find -exec … +). */
  openEnded?: boolean;
  /** A function or alias defined in the same command line (its body is judged on its own). */
  defined?: boolean;
  /** The simple command it came from, as written. */
  source: string;
}

export interface UnwrapContext {
  /** Function and alias names defined in the line. */
  defined: Set<string>;
  depth: number;
  /** Problems from nested command lines (too deep…). */
  problems: string[];
  /** When given: each wrapper passed through (`env …`, `timeout 5 …`), from its name on. */
  wrappers?: Invocation[];
  /** When given: every simple command read from a nested command line (`bash -c`, `eval`…). */
  nested?: ParsedCommand[];
}

const MAX_NESTED_LINES = 64;
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "rbash", "busybox"]);
const INTERPRETERS: Record<string, Set<string>> = {
  python: new Set(["-c"]),
  node: new Set(["-e", "--eval", "-p", "--print"]),
  perl: new Set(["-e", "-E"]),
  ruby: new Set(["-e"]),
  php: new Set(["-r"]),
  lua: new Set(["-e"]),
  deno: new Set(["eval"]),
  bun: new Set(["-e", "--eval"]),
  osascript: new Set(["-e"]),
  awk: new Set(),
};
/** Wrappers: the options that take a separate value; `positional` words before the command. */
const WRAPPERS: Record<string, { values: string[]; positional?: number }> = {
  env: { values: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string", "--argv0", "-a"] },
  command: { values: [] },
  builtin: { values: [] },
  exec: { values: ["-a"] },
  nice: { values: ["-n", "--adjustment"] },
  nohup: { values: [] },
  setsid: { values: [] },
  unbuffer: { values: [] },
  timeout: { values: ["-s", "--signal", "-k", "--kill-after"], positional: 1 },
  stdbuf: { values: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  time: { values: ["-f", "--format", "-o", "--output"] },
  sudo: {
    values: [
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
      "--group",
      "--host",
      "--prompt",
      "--user",
      "--role",
      "--type",
      "--close-from",
      "--other-user",
    ],
  },
  doas: { values: ["-u", "-C"] },
  run0: { values: ["-u", "--user", "-g", "--group", "-D", "--chdir"] },
  ionice: { values: ["-c", "--class", "-n", "--classdata", "-p", "-t"] },
  chrt: { values: [], positional: 1 },
  taskset: { values: [], positional: 1 },
  chroot: { values: ["--userspec", "--groups"], positional: 1 },
  flock: { values: ["-w", "--timeout", "-E", "--conflict-exit-code"], positional: 1 },
  xargs: {
    values: [
      "-I",
      "-L",
      "-n",
      "-P",
      "-s",
      "-d",
      "-E",
      "-a",
      "--max-args",
      "--delimiter",
      "--replace",
      "--max-procs",
      "--arg-file",
      "--eof",
      "--max-lines",
      "--max-chars",
      "--process-slot-var",
    ],
  },
};

export const basename = (name: string) => name.slice(name.lastIndexOf("/") + 1);
const isAssignment = (text: string) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(text);

/** Every invocation of a parsed command line. */
export function invocationsOf(commands: ParsedCommand[], ctx: UnwrapContext): Invocation[] {
  const out: Invocation[] = [];
  for (const cmd of commands) unwrap(cmd.words, [], cmd, ctx, out);
  return out;
}

function nestedLine(text: string, via: string[], source: string, ctx: UnwrapContext, out: Invocation[]) {
  if (ctx.depth >= MAX_NESTED_LINES) {
    ctx.problems.push(`command lines nested deeper than ${MAX_NESTED_LINES}`);
    return;
  }
  const parsed = parseShell(text);
  ctx.nested?.push(...parsed.commands);
  for (const name of parsed.functions) ctx.defined.add(name);
  ctx.problems.push(...parsed.problems);
  const inner = { ...ctx, depth: ctx.depth + 1 };
  for (const cmd of parsed.commands)
    unwrap(cmd.words, via, { ...cmd, source: cmd.source || source }, inner, out);
}

/** Skips a wrapper's options (and their values) from `i`; returns the index of the next word. */
function skipOptions(words: ShellWord[], i: number, values: string[]): number {
  while (i < words.length) {
    const w = words[i]!.text;
    if (w === "--") return i + 1;
    if (!w.startsWith("-") || w === "-") return i;
    // --opt=value and -uNAME carry their value; a bare option in `values` takes the next word
    i += values.includes(w) ? 2 : 1;
  }
  return i;
}

function unwrap(
  words: ShellWord[],
  via: string[],
  cmd: Pick<ParsedCommand, "redirects" | "piped" | "source">,
  ctx: UnwrapContext,
  out: Invocation[],
): void {
  let i = 0;
  const chain = [...via];
  const push = (extra: Partial<Invocation> = {}): void => {
    out.push({ argv: words.slice(i), via: chain, source: cmd.source, ...extra });
  };
  for (;;) {
    while (i < words.length && !words[i]!.dynamic && isAssignment(words[i]!.text)) i++;
    const prog = words[i];
    if (!prog) return;
    if (prog.dynamic) {
      push({ unresolved: "the program name is only known when it runs" });
      return;
    }
    const base = basename(prog.text);
    if (ctx.defined.has(prog.text)) {
      push({ defined: true });
      return;
    }
    const wrapper = WRAPPERS[base];
    if (wrapper) {
      ctx.wrappers?.push({ argv: words.slice(i), via: [...chain], source: cmd.source });
      if (base === "env") {
        const split = words.slice(i + 1).findIndex((w) => /^(-S|--split-string)/.test(w.text));
        if (split >= 0) {
          const at = i + 1 + split;
          const w = words[at]!;
          const payload =
            w.text === "-S" || w.text === "--split-string"
              ? words[at + 1]
              : { text: w.text.replace(/^(-S|--split-string=)/, ""), dynamic: w.dynamic };
          if (!payload || payload.dynamic) {
            push({ unresolved: "env -S with a computed string" });
            return;
          }
          const rest = words.slice(at + (payload === words[at + 1] ? 2 : 1)).map((x) => x.text);
          nestedLine([payload.text, ...rest].join(" "), [...chain, "env -S"], cmd.source, ctx, out);
          return;
        }
      }
      chain.push(base);
      const next = skipOptions(words, i + 1, wrapper.values);
      i = next + (wrapper.positional ?? 0);
      if (base === "flock" && /^(-c|--command)$/.test(words[i]?.text ?? "")) {
        const payload = words[i + 1];
        if (!payload || payload.dynamic) {
          push({ unresolved: "flock -c with a computed string" });
          return;
        }
        nestedLine(payload.text, chain, cmd.source, ctx, out);
        return;
      }
      if (base === "xargs") {
        if (i >= words.length) {
          out.push({
            argv: [{ text: "echo", dynamic: false }],
            via: chain,
            source: cmd.source,
            openEnded: true,
          });
          return;
        }
        const rest = words.slice(i);
        unwrapOpenEnded(rest, chain, cmd, ctx, out);
        return;
      }
      continue;
    }
    if (base === "eval") {
      const args = words.slice(i + 1);
      ctx.wrappers?.push({ argv: words.slice(i), via: [...chain], source: cmd.source });
      chain.push("eval");
      if (args.some((w) => w.dynamic)) {
        push({ unresolved: "eval of a string computed when it runs" });
        return;
      }
      nestedLine(args.map((w) => w.text).join(" "), chain, cmd.source, ctx, out);
      return;
    }
    if (base === "alias") {
      push();
      for (const w of words.slice(i + 1)) {
        const eq = w.text.indexOf("=");
        if (eq <= 0) continue;
        ctx.defined.add(w.text.slice(0, eq));
        if (w.dynamic)
          out.push({
            argv: words.slice(i),
            via: [...chain, "alias"],
            source: cmd.source,
            unresolved: "an alias computed when it runs",
          });
        else nestedLine(w.text.slice(eq + 1), [...chain, "alias"], cmd.source, ctx, out);
      }
      return;
    }
    if (base === "find") {
      push();
      findExec(words.slice(i + 1), [...chain, "find -exec"], cmd, ctx, out);
      return;
    }
    if (base === "source" || base === ".") {
      push({ unresolved: "runs a script file (its contents are not judged)" });
      return;
    }
    if (SHELLS.has(base) || base === "su") {
      shell(words, i, chain, cmd, ctx, out);
      return;
    }
    const interpreter = INTERPRETERS[base.replace(/[0-9.]+$/, "")];
    if (interpreter) {
      const code = words
        .slice(i + 1)
        .some(
          (w) =>
            interpreter.has(w.text) ||
            [...interpreter].some((o) => o.length === 2 && w.text.startsWith(o) && w.text.length > 2),
        );
      if (code) {
        push({ unresolved: `${base} runs code given on its command line` });
        return;
      }
    }
    push();
    return;
  }
}

/** xargs' command: its words are known, more are appended when it runs. */
function unwrapOpenEnded(
  words: ShellWord[],
  via: string[],
  cmd: Pick<ParsedCommand, "redirects" | "piped" | "source">,
  ctx: UnwrapContext,
  out: Invocation[],
): void {
  const before = out.length;
  unwrap(words, via, { ...cmd, redirects: [], piped: false }, ctx, out);
  for (let k = before; k < out.length; k++) out[k]!.openEnded = true;
}

/** `find … -exec cmd … ;` / `+`, `-execdir`, `-ok`, `-okdir`. */
function findExec(
  args: ShellWord[],
  via: string[],
  cmd: Pick<ParsedCommand, "redirects" | "piped" | "source">,
  ctx: UnwrapContext,
  out: Invocation[],
): void {
  for (let k = 0; k < args.length; k++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[k]!.text)) continue;
    let end = k + 1;
    while (end < args.length && args[end]!.text !== ";" && args[end]!.text !== "+") end++;
    // {} is a path found when it runs
    const words = args.slice(k + 1, end).map((w) => (w.text.includes("{}") ? { ...w, dynamic: true } : w));
    unwrapOpenEnded(words, via, cmd, ctx, out);
    k = end;
  }
}

/** A shell: `-c STRING` is a command line of its own; a script file or its input is not known. */
function shell(
  words: ShellWord[],
  i: number,
  via: string[],
  cmd: Pick<ParsedCommand, "redirects" | "piped" | "source">,
  ctx: UnwrapContext,
  out: Invocation[],
): void {
  const base = basename(words[i]!.text);
  out.push({ argv: words.slice(i), via, source: cmd.source });
  let k = i + 1;
  if (base === "busybox") {
    if (!words[k] || !SHELLS.has(words[k]!.text)) return;
    k++;
  }
  let command = false;
  for (; k < words.length; k++) {
    const w = words[k]!.text;
    if (w === "--" || w === "-") {
      k++;
      break;
    }
    if (!/^[-+]/.test(w)) break;
    if (/^[-+][oO]$/.test(w) || w === "--rcfile" || w === "--init-file") k++;
    else if (/^-[A-Za-z]*c[A-Za-z]*$/.test(w) || w === "--command") command = true;
  }
  const chain = [...via, `${base} -c`];
  if (command) {
    const payload = words[k];
    if (!payload) return;
    if (payload.dynamic) {
      out.push({
        argv: words.slice(i),
        via,
        source: cmd.source,
        unresolved: `${base} -c with a string computed when it runs`,
      });
      return;
    }
    nestedLine(payload.text, chain, cmd.source, ctx, out);
    return;
  }
  if (base === "su") return; // su without -c starts a login shell: the shell itself is the program
  if (k < words.length) {
    out.push({
      argv: words.slice(i),
      via,
      source: cmd.source,
      unresolved: "runs a script file (its contents are not judged)",
    });
    return;
  }
  // no -c and no file: commands come from its input
  const fed = cmd.redirects.find((r) => r.input);
  if (fed?.input) {
    nestedLine(fed.input.text, [...via, `${base} <<`], cmd.source, ctx, out);
    return;
  }
  if (cmd.piped || cmd.redirects.some((r) => r.op === "<"))
    out.push({
      argv: words.slice(i),
      via,
      source: cmd.source,
      unresolved: `${base} reads the commands to run from its input`,
    });
}
