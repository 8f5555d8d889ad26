// A config that mounts the flaky MCP server fixture (fixtures/flaky-mcp-server.mjs): it fails its
// first `failures` starts, then serves `flaky__ping` and `flaky__crash` (which ends it).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fixtures } from "./cli.js";

export interface FlakyServerConfig {
  /** The config file (`serve --config`). */
  config: string;
  /** The file the fixture adds a line to at each start. */
  counter: string;
  /** How many times it was started so far. */
  starts: () => number;
}

/** Writes `dir/clawtools.json` mounting the fixture as `flaky`; `env` adds to its environment. */
export function flakyServerConfig(
  dir: string,
  failures: number,
  env: Record<string, string> = {},
): FlakyServerConfig {
  const counter = path.join(dir, "starts");
  writeFileSync(counter, "");
  const config = path.join(dir, "clawtools.json");
  const server = {
    command: process.execPath,
    args: [path.join(fixtures, "flaky-mcp-server.mjs")],
    env: { FLAKY_COUNTER: counter, FLAKY_FAILURES: String(failures), ...env },
  };
  writeFileSync(config, JSON.stringify({ mcpServers: { flaky: server } }));
  const starts = () => readFileSync(counter, "utf8").split("\n").filter(Boolean).length;
  return { config, counter, starts };
}
