import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, POLL, text } from "./support/cli.js";
import { flakyServerConfig } from "./support/flaky-server.js";
import { serveHttp } from "./support/serve.js";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGTERM");
});

/** `clawtools serve --http 0 …` in `cwd` until it prints its URL. */
async function serve(cwd: string, args: string[]) {
  const { url, err } = await serveHttp(args, { cwd, track: children });
  return { url, err };
}

/** A 1.32 SDK client over Streamable HTTP; with `roots`, it offers them and can change them. */
async function connect(url: string, roots?: string[]) {
  let offered = (roots ?? []).map((dir) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) }));
  const client = new Client(
    { name: "e2e-http-follow", version: "1" },
    roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: offered }));
  let notified = 0;
  let wake: () => void = () => {};
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    notified += 1;
    wake();
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    client,
    /** Resolves once a tools/list_changed notification has arrived. */
    changed: () =>
      new Promise<void>((resolve) => {
        if (notified > 0) resolve();
        else wake = resolve;
      }),
    names: async () => (await client.listTools()).tools.map((t) => t.name),
    setRoots: async (dirs: string[]) => {
      offered = dirs.map((dir) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) }));
      await client.sendRootsListChanged();
    },
  };
}

/** A directory holding `which.txt` that says its name. */
function marked(parent: string, name: string): string {
  const dir = path.join(parent, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "which.txt"), `this is ${name}\n`);
  return dir;
}

describe("clawtools serve --http", () => {
  beforeAll(() => ensureBuilt(), BUILD_TIMEOUT_MS);

  for (const profile of ["minimal", "coding"])
    it(`announces a mounted MCP server that comes back to connected clients, and serves it to later ones (${profile})`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-http-late-"));
      const { config, starts } = flakyServerConfig(dir, 2);
      const { url, err } = await serve(dir, ["--config", config, "--profile", profile]);
      const early = await connect(url);
      try {
        expect(early.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
        const before = await early.names();
        expect(before).not.toContain("flaky__ping");
        await expect.poll(err, POLL).toContain('MCP server "flaky" did not start');
        await early.changed();
        // the fixture failed its first two starts (the client probes in a start of its own too)
        expect(starts()).toBeGreaterThan(2);
        const after = await early.names();
        expect(after).toContain("flaky__ping");
        expect(after).toEqual(expect.arrayContaining(before));
        expect(text(await early.client.callTool({ name: "flaky__ping", arguments: { text: "early" } }))).toBe(
          "pong: early",
        );
        // a session opened after the server came back has its tools from the start
        const late = await connect(url);
        try {
          expect(await late.names()).toContain("flaky__ping");
          expect(text(await late.client.callTool({ name: "flaky__ping", arguments: { text: "late" } }))).toBe(
            "pong: late",
          );
        } finally {
          await late.client.close();
        }
      } finally {
        await early.client.close();
      }
    }, 120_000);

  it("roots each HTTP session in its own client's roots, and follows each one's changes alone", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-http-roots-"));
    const [start, a, b, c] = ["start", "a", "b", "c"].map((name) => marked(dir, name)) as [
      string,
      string,
      string,
      string,
    ];
    const { url, err } = await serve(start, []);
    const first = await connect(url, [a]);
    const second = await connect(url, [b]);
    const plain = await connect(url);
    const read = async (session: typeof first) =>
      text(await session.client.callTool({ name: "read", arguments: { path: "which.txt" } }));
    try {
      // both at the same time, each in its own root
      const [inA, inB] = await Promise.all([read(first), read(second)]);
      expect(inA).toContain("this is a");
      expect(inB).toContain("this is b");
      // a client that offers no roots works where serve started
      expect(await read(plain)).toContain("this is start");
      await first.setRoots([c, a]);
      expect(await read(first)).toContain("this is c");
      expect(await read(second)).toContain("this is b");
      await expect.poll(err, POLL).toMatch(/session \S+: workspace is now .*\/c \(the client's root "c"\)/);
    } finally {
      await Promise.all([first.client.close(), second.client.close(), plain.client.close()]);
    }
  }, 120_000);

  it("--root picks each session's root by name among its client's roots", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-http-root-"));
    const [start, a, b] = ["start", "a", "b"].map((name) => marked(dir, name)) as [string, string, string];
    const { url, err } = await serve(start, ["--root", "b"]);
    const both = await connect(url, [a, b]);
    const onlyA = await connect(url, [a]);
    const read = async (session: typeof both) =>
      text(await session.client.callTool({ name: "read", arguments: { path: "which.txt" } }));
    try {
      expect(await read(both)).toContain("this is b");
      // a client without that root keeps the default and is told why on stderr
      expect(await read(onlyA)).toContain("this is start");
      await expect.poll(err, POLL).toContain('none of the client\'s roots is "b"');
    } finally {
      await Promise.all([both.client.close(), onlyA.client.close()]);
    }
  }, 120_000);

  it("--workspace wins over the clients' roots", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-http-ws-"));
    const [fixed, a] = ["fixed", "a"].map((name) => marked(dir, name)) as [string, string];
    const { url, err } = await serve(dir, ["--workspace", fixed]);
    const session = await connect(url, [a]);
    try {
      expect(
        text(await session.client.callTool({ name: "read", arguments: { path: "which.txt" } })),
      ).toContain("this is fixed");
      expect(err()).not.toContain("workspace is now");
    } finally {
      await session.client.close();
    }
  }, 120_000);
});
