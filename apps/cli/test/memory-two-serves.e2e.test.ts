// Two serves on one workspace and state directory, as two hosts (or two windows of one) run them:
// a note one of them indexes is found by the other's search, by meaning as well as by keyword.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, json } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

interface Hit {
  path: string;
  score: number;
}

describe("two serves on one memory index", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-memory-two-"));
  const stateDir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-memory-two-state-"));
  const clients: Client[] = [];
  let a: Client;
  let b: Client;

  beforeAll(async () => {
    ensureBuilt();
    mkdirSync(path.join(workspace, "memory"));
    writeFileSync(path.join(workspace, "memory", "deploys.md"), "The deploy window is Tuesday morning.\n");
    const start = async (name: string) => {
      const { client } = await connectCli(
        ["serve", "--workspace", workspace, "--state-dir", stateDir, "--profile", "full"],
        { name },
      );
      clients.push(client);
      return client;
    };
    [a, b] = await Promise.all([start("serve-a"), start("serve-b")]);
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  const search = async (client: Client, query: string): Promise<Hit[]> => {
    const result = await client.callTool({ name: "memory_search", arguments: { query } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return (json(result) as { results: Hit[] }).results.map(({ path, score }) => ({ path, score }));
  };

  it("finds, by meaning, a note the other serve indexed after this one had loaded its vectors", async () => {
    // a loads its vectors with a first search
    expect((await search(a, "deploy window")).map((h) => h.path)).toContain("memory/deploys.md");
    writeFileSync(
      path.join(workspace, "memory", "birds.md"),
      "The quartz canary nests in the attic above the server room.\n",
    );
    // b's search indexes the new note (a's next search finds the file already indexed)
    expect((await search(b, "quartz canary")).map((h) => h.path)).toContain("memory/birds.md");
    // no keyword of this query is in the note ("canaries", not "canary"): only its vector finds it
    const query = "quartz canaries nesting attic";
    const fromB = await search(b, query);
    expect(fromB.map((h) => h.path)).toContain("memory/birds.md");
    const fromA = await search(a, query);
    expect(fromA).toEqual(fromB);
  });
});
