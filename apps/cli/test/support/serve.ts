// Starting the built CLI for an end-to-end test: `serve --http` until it prints its URL, or any
// command line over stdio with an MCP SDK client connected to it.
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { bin } from "./cli.js";

export interface HttpServe {
  child: ChildProcess;
  url: string;
  /** Everything it wrote to stderr so far. */
  err: () => string;
}

/**
 * `clawtools serve --http 0 …args` until it prints its URL and is ready for agent sessions.
 * Rejects with its stderr when it exits first. The caller ends `child`.
 */
export async function serveHttp(
  args: string[],
  options: {
    cwd?: string;
    /** The whole environment (the test's own when absent). */
    env?: NodeJS.ProcessEnv;
    stdout?: "pipe" | "ignore";
    /** Gets the child at once, so an afterEach can end it even when the start fails. */
    track?: ChildProcess[];
  } = {},
): Promise<HttpServe> {
  const child = spawn(process.execPath, [bin, "serve", "--http", "0", ...args], {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: options.env } : {}),
    stdio: ["ignore", options.stdout ?? "pipe", "pipe"],
  });
  options.track?.push(child);
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      stderr += String(d);
      const found = /at (http:\S+)/.exec(stderr)?.[1];
      if (found && stderr.includes("own agent session")) resolve(found);
    });
    child.on("exit", (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
  });
  return { child, url, err: () => stderr };
}

export interface StdioOptions {
  cwd?: string;
  /** Added to the SDK's default environment (which is what the CLI gets when this is absent). */
  env?: Record<string, string>;
  /** "pipe" keeps the CLI's stderr for `stderr()`; "ignore" drops it. */
  stderr?: "pipe" | "ignore";
  /** The client to connect (for capabilities or handlers set before connecting). */
  client?: Client;
  /** The client's name when this makes the client. */
  name?: string;
}

/** The built CLI run with `args` (starting with `serve`, as typed), an MCP client connected. */
export async function connectCli(
  args: string[],
  options: StdioOptions = {},
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, ...args],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: options.env } : {}),
    stderr: options.stderr ?? "pipe",
  });
  transport.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  const client = options.client ?? new Client({ name: options.name ?? "e2e", version: "1" });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}
