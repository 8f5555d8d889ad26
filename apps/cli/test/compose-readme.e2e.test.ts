// The root README's "Compose your bundle" examples, taken from README.md and run as written:
// `npx clawtools` becomes the checkout's built CLI, and packages resolve from its install.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, ensureBuilt, POLL, repo as root } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

interface Example {
  config: Record<string, unknown>;
  /** The serve command's arguments after `npx clawtools`. */
  args: string[];
  /** Directories the example makes (`mkdir -p`). */
  dirs: string[];
}

/** The section's shell examples: the heredoc config file and the serve line of each. */
function composeExamples(): Example[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const start = readme.indexOf("## Compose your bundle\n");
  expect(start, "README.md has a Compose your bundle section").toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) => {
    const json = /<<'JSON'\n([\s\S]*?)\nJSON\n/.exec(block!)?.[1];
    const serve = block!.split("\n").find((line) => line.startsWith("npx clawtools serve "));
    if (!json || !serve) throw new Error(`example without a config heredoc or a serve line:\n${block}`);
    const dirs = [...block!.matchAll(/^mkdir -p (\S+)$/gm)].map((m) => m[1]!);
    return { config: JSON.parse(json), args: serve.split(/\s+/).slice(2), dirs };
  });
}

/** `npx clawtools …` inside a config (an MCP server entry) runs the checkout's CLI too. */
function localCli(config: Record<string, unknown>): Record<string, unknown> {
  const servers = config.mcpServers as Record<string, { command: string; args?: string[] }> | undefined;
  if (!servers) return config;
  const mapped = Object.fromEntries(
    Object.entries(servers).map(([name, s]) => [
      name,
      s.command === "npx" && s.args?.[0] === "clawtools"
        ? { ...s, command: process.execPath, args: [bin, ...s.args.slice(1)] }
        : s,
    ]),
  );
  return { ...config, mcpServers: mapped };
}

async function run(example: Example) {
  const base = mkdtempSync(path.join(tmpdir(), "clawtools-compose-"));
  const project = path.join(base, "project");
  mkdirSync(project);
  for (const dir of example.dirs) mkdirSync(path.resolve(project, dir), { recursive: true });
  writeFileSync(path.join(project, "clawtools.json"), JSON.stringify(localCli(example.config)));
  const { client, stderr } = await connectCli(example.args, {
    cwd: project,
    env: { ...process.env, HOME: base, MEM0_TELEMETRY: "false" } as Record<string, string>,
    name: "compose-readme",
  });
  const names = (await client.listTools()).tools.map((t) => t.name);
  return { client, names, project, stderr };
}

describe('README "Compose your bundle"', () => {
  beforeAll(
    () => ensureBuilt([path.join(root, "adapters/openclaw-plugins/dist/index.js")]),
    BUILD_TIMEOUT_MS,
  );

  it("has the plugins and the MCP-servers examples", () => {
    const examples = composeExamples();
    expect(examples).toHaveLength(2);
    expect(examples[0]!.config).toHaveProperty("plugins");
    expect(examples[1]!.config).toHaveProperty("mcpServers");
  });

  it("runs the plugins example: OpenClaw web search and mem0 in the memory section's place", async () => {
    const { client, names, stderr } = await run(composeExamples()[0]!);
    expect(names).toEqual(
      expect.arrayContaining([
        "ollama_web_search",
        "ollama_web_fetch",
        "memory_search",
        "memory_add",
        "read",
      ]),
    );
    await expect.poll(stderr, POLL).toContain("[clawtools] plugin openclaw-mem0 replaces the memory section");
    await expect
      .poll(stderr, POLL)
      .toContain("[clawtools] plugin openclaw-web-search (@ollama/openclaw-web-search): serving");
    await client.close();
  });

  it("runs the MCP-servers example: a second directory's read and find as docs__read, docs__find", async () => {
    const example = composeExamples()[1]!;
    const { client, names, project } = await run(example);
    expect(names).toEqual(expect.arrayContaining(["docs__read", "docs__find"]));
    expect(names).not.toContain("docs__write");
    writeFileSync(path.resolve(project, example.dirs[0]!, "notes.md"), "from the docs directory\n");
    const read = await client.callTool({ name: "docs__read", arguments: { path: "notes.md" } });
    expect(JSON.stringify(read.content)).toContain("from the docs directory");
    await client.close();
  });
});
