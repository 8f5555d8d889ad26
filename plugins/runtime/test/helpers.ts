import { execFileSync } from "node:child_process";
import type { AgentToolResult } from "@clawtools/core";

export const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

/** Command lines of every live process containing `needle`. */
export function processesMatching(needle: string): string[] {
  const out = execFileSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line.includes(needle) && !line.includes("ps -eo") && !line.trim().startsWith("Z"));
}

export async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}
