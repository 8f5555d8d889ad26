import { spawn } from "node:child_process";
import path from "node:path";
import type { NodeBridge } from "../bridge/node-bridge.js";
import type { GrepQuery } from "./grep-js.js";
import type { GrepOutput } from "./grep-output.js";

interface RgText {
  text?: string;
  bytes?: string;
}
interface RgLineEvent {
  type: "match" | "context";
  data: { path: RgText; lines: RgText; line_number: number };
}

// rg prints paths as given (`./sub/x.ts`) with the platform's separator; labels are `sub/x.ts`
const toLabel = (rgPath: string) =>
  (path.sep === "\\" ? rgPath.replace(/\\/g, "/") : rgPath).replace(/^\.\//, "");

const decode = (value: RgText) => value.text ?? Buffer.from(value.bytes ?? "", "base64").toString("utf8");

/** The same filters as the built-in walk: only `.gitignore` files under the searched tree. */
function rgArgs(query: GrepQuery, stdin: boolean): string[] {
  const args = ["--json", "--line-number", "--color=never", "--no-config", "--hidden", "--no-require-git"];
  args.push("--no-ignore-parent", "--no-ignore-global", "--no-ignore-exclude", "--no-ignore-dot");
  if (query.ignoreCase) args.push("--ignore-case");
  if (query.literal) args.push("--fixed-strings");
  if (query.context > 0) args.push("--context", String(query.context));
  if (query.glob) args.push("--glob", query.glob);
  args.push("--glob", "!.git", "--glob", "!node_modules");
  args.push("--regexp", query.pattern, "--", stdin ? "-" : query.isFile ? path.basename(query.abs) : ".");
  return args;
}

/**
 * Runs ripgrep over the local disk and feeds its JSON events into `out`, stopping rg once the
 * match limit is passed. Returns false when rg failed without finding anything (a pattern its
 * regex engine refuses, say), so the caller can answer with the built-in engine instead.
 */
export async function grepWithRipgrep(
  rg: string,
  query: GrepQuery,
  out: GrepOutput,
  signal?: AbortSignal,
  bridge?: NodeBridge,
): Promise<boolean> {
  // rg starts on what the bridge's verified walk opened: a directory through its descriptor
  // (`/proc/self/fd/N` as cwd), a file as rg's stdin; never on the string path
  const opened = bridge ? await bridge.openVerified({ filePath: query.abs, dir: !query.isFile }) : undefined;
  try {
    // files rg found on its own walk are shown only if still inside and not hardlinked
    const admit = opened && bridge && !query.isFile ? bridge.foundFileFilter(opened) : undefined;
    return await runRipgrep(rg, query, out, signal, opened, admit);
  } finally {
    await opened?.close();
  }
}

function runRipgrep(
  rg: string,
  query: GrepQuery,
  out: GrepOutput,
  signal: AbortSignal | undefined,
  opened: Awaited<ReturnType<NodeBridge["openVerified"]>> | undefined,
  admit?: (label: string) => boolean,
): Promise<boolean> {
  const stdin = opened !== undefined && query.isFile;
  const fileLabel = stdin ? toLabel(path.basename(query.abs)) : undefined;
  return new Promise((resolve, reject) => {
    const child = spawn(rg, rgArgs(query, stdin), {
      cwd: opened && !stdin ? opened.path : query.isFile ? path.dirname(query.abs) : query.abs,
      // rg's complaints (unreadable files) matter only when it finds nothing, and then the
      // built-in engine answers instead
      stdio: [stdin ? opened.handle.fd : "ignore", "pipe", "ignore"],
    });
    let seen = 0;
    let stopped = false;
    let lastMatch: { label: string; line: number } | undefined;
    let pending = "";
    const stop = () => {
      stopped = true;
      child.kill();
    };
    signal?.addEventListener("abort", stop, { once: true });

    const handle = (json: string) => {
      // only match and context events carry lines; skip the rest without parsing
      if (!json.startsWith('{"type":"match"') && !json.startsWith('{"type":"context"')) return;
      const event = JSON.parse(json) as RgLineEvent;
      const label = fileLabel ?? toLabel(decode(event.data.path));
      if (admit && !admit(label)) return;
      const line = event.data.line_number;
      const text = decode(event.data.lines).replace(/\r?\n$/, "");
      seen++;
      if (event.type === "match") {
        if (out.overLimit()) return stop();
        out.match(label, line, text);
        lastMatch = { label, line };
      } else if (!out.atLimit() || (lastMatch?.label === label && line <= lastMatch.line + query.context)) {
        // past the limit only the last match's after-context is kept, as the built-in engine does
        out.context(label, line, text);
      }
    };

    const stdout = child.stdout!; // piped above
    stdout.setEncoding("utf8");
    stdout.on("data", (chunk: string) => {
      if (stopped) return;
      const parts = (pending + chunk).split("\n");
      pending = parts.pop() ?? "";
      for (const part of parts) {
        if (stopped) break;
        handle(part);
      }
    });
    child.on("error", (error) => {
      signal?.removeEventListener("abort", stop);
      reject(new Error(`ripgrep could not start (${rg}): ${error.message}`));
    });
    child.on("close", (code) => {
      signal?.removeEventListener("abort", stop);
      if (!stopped && pending) handle(pending);
      if (signal?.aborted) return reject(new Error("Operation aborted"));
      // 0: matches, 1: none; 2: errors, which only matter when nothing was found
      resolve(stopped || code === 0 || code === 1 || seen > 0);
    });
  });
}
