// The README's host snippets (Claude Code, Codex, Gemini CLI / Cursor / Claude Desktop JSON), read
// from README.md and run as the host would run them, against the built CLI: the paths the README
// asks to replace are the checkout and a workspace, nothing else changes.
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, repo } from "./support/cli.js";

const readme = readFileSync(path.join(repo, "README.md"), "utf8");
const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-e2e-hosts-")));
const fill = (s: string) =>
  s.replaceAll("/path/to/clawtools", repo).replaceAll("/path/to/project", workspace);

interface Launch {
  command: string;
  args: string[];
  cwd?: string;
}

/** Every fenced block of `lang` in the README. */
const blocks = (lang: string) =>
  [...readme.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1]!);

function claudeCode(): Launch {
  const line = blocks("sh")
    .flatMap((b) => b.split("\n"))
    .find((l) => l.startsWith("claude mcp add clawtools -- "));
  if (!line) throw new Error("README.md has no `claude mcp add clawtools -- …` line");
  const [command, ...args] = fill(line.slice("claude mcp add clawtools -- ".length)).split(/\s+/);
  return { command: command!, args };
}

function codex(): Launch {
  const block = blocks("toml").find((b) => b.includes("[mcp_servers.clawtools]"));
  if (!block) throw new Error("README.md has no [mcp_servers.clawtools] block");
  const command = /^command = (".*")$/m.exec(block)?.[1];
  const args = /^args = (\[.*\])$/m.exec(block)?.[1];
  return { command: JSON.parse(fill(command!)), args: JSON.parse(fill(args!)) };
}

function jsonHosts(): Launch[] {
  return blocks("json")
    .filter((b) => b.includes('"mcpServers"') && b.includes('"clawtools"'))
    .map((b) => {
      const server = JSON.parse(fill(b)).mcpServers.clawtools as Launch;
      return { command: server.command, args: server.args, ...(server.cwd ? { cwd: server.cwd } : {}) };
    })
    .filter((launch) => launch.command === "node"); // the checkout's snippets (not a config file's mounted servers)
}

async function listTools(launch: Launch) {
  const transport = new StdioClientTransport({
    command: launch.command === "node" ? process.execPath : launch.command,
    args: launch.args,
    ...(launch.cwd ? { cwd: launch.cwd } : {}),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  const client = new Client({ name: "readme-host", version: "1" });
  await client.connect(transport);
  try {
    return { names: (await client.listTools()).tools.map((t) => t.name), stderr };
  } finally {
    await client.close();
  }
}

describe("the README's host snippets", () => {
  beforeAll(() => ensureBuilt(), BUILD_TIMEOUT_MS);

  it("Claude Code's claude mcp add line serves the tools in the workspace", async () => {
    const { names } = await listTools(claudeCode());
    expect(names).toContain("read");
  });

  it("Codex's [mcp_servers.clawtools] serves the tools", async () => {
    const launch = codex();
    expect(launch.args).toContain(workspace);
    expect((await listTools(launch)).names).toContain("read");
  });

  it("the mcpServers JSON (Cursor, Claude Desktop, Gemini CLI) serves the tools, in cwd when it has no --workspace", async () => {
    const launches = jsonHosts();
    expect(launches.length).toBeGreaterThanOrEqual(2);
    for (const launch of launches) {
      const { names, stderr } = await listTools(launch);
      expect(names).toContain("read");
      expect(stderr).toContain(`from ${workspace}`);
    }
  });
});
