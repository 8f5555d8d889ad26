/**
 * What a sandboxed command's output says when the sandbox refused it something (a write outside
 * the workspace, a host outside the URL policy), turned into the way out: an elevated call,
 * which goes through the approval path, when elevated exec is enabled.
 */
import type { ElevatedLevel } from "../tools/exec-target.js";

const SIGNS: Array<[RegExp, string]> = [
  [/Read-only file system/, "a write outside the workspace"],
  [/Blocked by the sandbox's URL policy/, "a network destination outside the URL policy"],
];

type Content = ReadonlyArray<{ type: string; text?: string }>;

/** The note for output that shows a sandbox refusal, or undefined. */
export function sandboxRefusalNote(
  output: string | Content,
  elevated: ElevatedLevel | undefined,
): string | undefined {
  const text = typeof output === "string" ? output : output.map((c) => c.text ?? "").join("\n");
  const what = SIGNS.filter(([sign]) => sign.test(text)).map(([, what]) => what);
  if (what.length === 0) return undefined;
  const way =
    (elevated ?? "off") === "off"
      ? "Elevated exec is not enabled (exec.elevated), so it cannot run outside the sandbox here."
      : elevated === "full"
        ? "If it must, call exec again with elevated: true to run it outside the sandbox."
        : "If it must, call exec again with elevated: true: that asks for approval to run it outside the sandbox.";
  return `(sandbox: the command was refused ${what.join(" and ")}. ${way})`;
}
