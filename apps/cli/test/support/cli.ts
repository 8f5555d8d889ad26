// Shared by the CLI's end-to-end tests: where the built CLI is, how to make sure it is built, and
// how to read an MCP tool result.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** apps/cli */
export const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The monorepo's root. */
export const repo = path.resolve(cliDir, "../..");
/** The built CLI: the end-to-end tests drive it as a user would run it. */
export const bin = path.join(cliDir, "dist", "bin.js");
export const fixtures = path.join(cliDir, "test", "fixtures");
/** How long a `beforeAll` that may build the CLI is given. */
export const BUILD_TIMEOUT_MS = 400_000;

/** Builds the CLI (and what it depends on) when `bin`, or any of `alsoNeeded`, is missing. */
export function ensureBuilt(alsoNeeded: string[] = []): void {
  if ([bin, ...alsoNeeded].every((file) => existsSync(file))) return;
  execFileSync("pnpm", ["turbo", "run", "build", "--filter=@clawtools/cli..."], {
    cwd: repo,
    stdio: "ignore",
  });
}

/** Fails the file at once when the CLI is not built (for tests that never build it themselves). */
export function requireBuilt(): void {
  if (!existsSync(bin)) throw new Error(`build first: ${bin} is missing (pnpm build)`);
}

/** The text parts of an MCP tool result, one per line. */
export const text = (r: unknown) =>
  ((r as { content?: Array<{ type?: string; text?: string }> }).content ?? [])
    .filter((c) => c.type !== "resource_link")
    .map((c) => c.text ?? "")
    .join("\n");
/** An MCP tool result whose text is JSON, parsed. */
export const json = (r: unknown) => JSON.parse(text(r));

/** How many live (not zombie) processes have `needle` in their command line. */
export const alive = (needle: string) =>
  execFileSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.includes(needle) && !l.trim().startsWith("Z")).length;

/**
 * For `expect.poll` on a child's stderr (or anything else that is not the channel just waited
 * on): stdout and stderr are two pipes, so a line written before an answer may still be read
 * after it; on a loaded CI machine that gap can be seconds (the default poll gives up after 1 s).
 */
export const POLL = { timeout: 20_000, interval: 50 } as const;
