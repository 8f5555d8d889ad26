import { execFileSync } from "node:child_process";
import type { AgentToolResult } from "@clawtools/core";

/** The text of a result (a resource link to spilled output is not text: see `linkOf`). */
export const text = (r: AgentToolResult<unknown>) =>
  r.content
    .filter((c) => c.type !== "resource_link")
    .map((c) => (c.type === "text" ? c.text : ""))
    .join("\n");

/** The resource link a result carries (an exec whose output spilled). */
export const linkOf = (r: AgentToolResult<unknown>) => r.content.find((c) => c.type === "resource_link");

/** Command lines of every live process containing `needle`. */
export function processesMatching(needle: string): string[] {
  const out = execFileSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line.includes(needle) && !line.includes("ps -eo") && !line.trim().startsWith("Z"));
}

/** Polls `check` until it holds; a process start or end can take seconds on a loaded CI machine. */
export async function waitFor(check: () => boolean, timeoutMs = 30_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}
