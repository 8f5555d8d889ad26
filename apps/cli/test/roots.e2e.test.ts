import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { POLL, requireBuilt, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

/** A directory holding `marker.txt` with its own name in it, so a read says where it ran. */
function dir(name: string): string {
  const d = mkdtempSync(path.join(tmpdir(), `clawtools-roots-${name}-`));
  writeFileSync(path.join(d, "marker.txt"), `I am ${name}\n`);
  return d;
}

type Roots = Array<{ uri: string; name?: string }>;

/** `clawtools serve` started in `cwd`, with a client that offers `roots()` (when given). */
async function serve(cwd: string, args: string[], roots?: () => Roots) {
  const client = new Client(
    { name: "roots-e2e", version: "1" },
    roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots() }));
  const { stderr } = await connectCli(
    ["serve", "--profile", "coding", "--state-dir", mkdtempSync(path.join(tmpdir(), "st-")), ...args],
    { cwd, client },
  );
  const read = async () => text(await client.callTool({ name: "read", arguments: { path: "marker.txt" } }));
  return { client, read, stderr };
}

const root = (d: string, name?: string) => ({ uri: pathToFileURL(d).href, ...(name ? { name } : {}) });

describe("serve follows the MCP client's roots", () => {
  beforeAll(requireBuilt);

  it("works in the client's first root, and in the new one after roots/list_changed", async () => {
    const [start, first, second] = [dir("start"), dir("first"), dir("second")];
    let roots: Roots = [root(first, "first"), root(second, "second")];
    const { client, read, stderr } = await serve(start, [], () => roots);
    expect(await read()).toContain("I am first");
    roots = [root(second, "second")];
    await client.sendRootsListChanged();
    expect(await read()).toContain("I am second");
    await expect.poll(stderr, POLL).toContain(`workspace is now ${second}`);
    await client.close();
  });

  it("--root picks a root by name; a root that is not there keeps the workspace and says why", async () => {
    const [start, first, second] = [dir("start"), dir("first"), dir("second")];
    let roots: Roots = [root(first, "first"), root(second, "second")];
    const { client, read, stderr } = await serve(start, ["--root", "second"], () => roots);
    expect(await read()).toContain("I am second");
    roots = [root(first, "first")];
    await client.sendRootsListChanged();
    expect(await read()).toContain("I am second");
    await expect
      .poll(stderr, POLL)
      .toContain(`none of the client's roots is "second" (--root or the config file's root)`);
    await client.close();
  });

  it("the config file's root picks a root as --root does, and the flag wins over it", async () => {
    const [start, first, second] = [dir("start"), dir("first"), dir("second")];
    const config = path.join(start, "clawtools.json");
    writeFileSync(config, JSON.stringify({ root: "second" }));
    const roots = () => [root(first, "first"), root(second, "second")];
    const fromFile = await serve(start, ["--config", config], roots);
    expect(await fromFile.read()).toContain("I am second");
    await fromFile.client.close();
    const flagged = await serve(start, ["--config", config, "--root", "first"], roots);
    expect(await flagged.read()).toContain("I am first");
    await flagged.client.close();
  });

  it("--workspace wins over the client's roots; a client without roots keeps the default", async () => {
    const [start, given, offered] = [dir("start"), dir("given"), dir("offered")];
    const fixed = await serve(start, ["--workspace", given], () => [root(offered)]);
    expect(await fixed.read()).toContain("I am given");
    await fixed.client.close();
    const plain = await serve(start, []);
    expect(await plain.read()).toContain("I am start");
    await plain.client.close();
  });
});
