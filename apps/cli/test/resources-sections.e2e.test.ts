// The sections' resources through the built CLI, as a host meets them over --http: a tool result
// links a file (tts audio, a screenshot, a canvas snapshot, a memory file, a transcript); the host
// reads exactly that URI and gets the file's bytes; a second client neither lists nor reads it.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt } from "./support/cli.js";
import { serveHttp } from "./support/serve.js";

const onPath = (command: string) =>
  (process.env.PATH ?? "").split(path.delimiter).some((dir) => existsSync(path.join(dir, command)));

type Link = { type: "resource_link"; uri: string; name: string; mimeType?: string; size?: number };
type Read = { uri: string; mimeType?: string; text?: string; blob?: string };

const linksOf = (result: unknown) =>
  (result as { content: Array<{ type: string }> }).content.filter(
    (c) => c.type === "resource_link",
  ) as Link[];

/** A client of `url`; with `root`, one that offers it as its only root (its session works there). */
async function connect(url: string, root?: string) {
  const client = new Client(
    { name: "e2e-resources-sections", version: "1" },
    root ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (root)
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: pathToFileURL(root).href }],
    }));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}
type Host = Awaited<ReturnType<typeof connect>>;

const read = async (host: Host, uri: string): Promise<Read> =>
  (await host.client.readResource({ uri })).contents[0] as Read;

/** The second client: `uri` is not listed and a read gets what a URI nobody serves gets. */
async function hiddenFrom(other: Host, uri: string) {
  expect((await other.client.listResources()).resources.map((r) => r.uri)).not.toContain(uri);
  await expect(other.client.readResource({ uri })).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining(`Resource not found: ${uri}`),
  });
}

describe("clawtools serve --http: the sections' resources", () => {
  // a works in the directory serve started in; b in a workspace of its own (its root)
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-sections-"));
  const elsewhere = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-sections-b-"));
  let server: { child: ChildProcess; url: string; err: () => string };
  let a: Host;
  let b: Host;
  let page: Server;
  let pageUrl: string;

  beforeAll(async () => {
    ensureBuilt();
    mkdirSync(path.join(workspace, "memory"));
    writeFileSync(path.join(workspace, "MEMORY.md"), "# Memory\n\nThe deploy key lives in the vault.\n");
    writeFileSync(path.join(workspace, "memory", "2026-12-06.md"), "Met Ana about the launch ✓\n");
    page = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<title>Shot</title><h1>Shoot me</h1>"),
    );
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    server = await serveHttp(
      ["--state-dir", path.join(workspace, ".state"), "--profile", "full", "--allow-private-network"],
      { cwd: workspace },
    );
    a = await connect(server.url);
    b = await connect(server.url, elsewhere);
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await a?.transport.terminateSession().catch(() => {});
    await b?.transport.terminateSession().catch(() => {});
    server?.child.kill("SIGTERM");
    page?.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it.skipIf(!onPath("espeak-ng"))(
    "tts links its audio; the host reads exactly those bytes as a blob",
    async () => {
      const result = await a.client.callTool({ name: "tts", arguments: { text: "Build finished." } });
      const [link] = linksOf(result);
      expect(link).toMatchObject({
        uri: expect.stringMatching(/^clawtools:\/\/media\/tts\/[0-9a-f-]{36}$/),
        mimeType: "audio/mpeg",
      });
      const saved = (result.structuredContent as { audioPath: string }).audioPath;
      const bytes = readFileSync(saved);
      expect(link!.size).toBe(bytes.length);
      const contents = await read(a, link!.uri);
      expect(contents).toMatchObject({ uri: link!.uri, mimeType: "audio/mpeg" });
      expect(contents.text).toBeUndefined();
      expect(Buffer.from(contents.blob!, "base64").equals(bytes)).toBe(true);
      expect((await a.client.listResources()).resources.map((r) => r.uri)).toContain(link!.uri);
      await hiddenFrom(b, link!.uri);
    },
    60_000,
  );

  it("memory_get and memory_search link the memory files of the caller's workspace, read as markdown", async () => {
    const got = await a.client.callTool({ name: "memory_get", arguments: { path: "memory/2026-12-06.md" } });
    const [link] = linksOf(got);
    expect(link).toMatchObject({
      uri: "clawtools://memory/file/memory%2F2026-12-06.md",
      name: "memory/2026-12-06.md",
      mimeType: "text/markdown",
    });
    expect(await read(a, link!.uri)).toEqual({
      uri: link!.uri,
      mimeType: "text/markdown",
      text: "Met Ana about the launch ✓\n",
    });
    const found = await a.client.callTool({
      name: "memory_search",
      arguments: { query: "deploy key vault" },
    });
    expect(linksOf(found).map((l) => l.uri)).toContain("clawtools://memory/file/MEMORY.md");
    expect(await read(a, "clawtools://memory/file/MEMORY.md")).toMatchObject({
      text: "# Memory\n\nThe deploy key lives in the vault.\n",
    });
    const listed = (await a.client.listResources()).resources.map((r) => r.uri);
    expect(listed).toEqual(
      expect.arrayContaining([
        "clawtools://memory/file/MEMORY.md",
        "clawtools://memory/file/memory%2F2026-12-06.md",
      ]),
    );
    // only memory files: a file beside them is not a memory resource
    writeFileSync(path.join(workspace, "notes.md"), "not memory\n");
    await expect(a.client.readResource({ uri: "clawtools://memory/file/notes.md" })).rejects.toMatchObject({
      code: -32602,
    });
    // b works elsewhere: a's memory is neither listed nor read for it
    await hiddenFrom(b, link!.uri);
    await hiddenFrom(b, "clawtools://memory/file/MEMORY.md");
  }, 60_000);

  it("a browser screenshot, a PDF and a canvas snapshot are linked; the host reads their bytes", async () => {
    const opened = await a.client.callTool({
      name: "browser",
      arguments: { action: "open", targetUrl: pageUrl },
    });
    const targetId = (opened.structuredContent as { targetId: string }).targetId;
    const shot = await a.client.callTool({ name: "browser", arguments: { action: "screenshot", targetId } });
    const [shotLink] = linksOf(shot);
    expect(shotLink).toMatchObject({
      uri: expect.stringMatching(/^clawtools:\/\/ui\/file\/[0-9a-f-]{36}$/),
      mimeType: "image/png",
    });
    const saved = readFileSync((shot.structuredContent as { path: string }).path);
    const shotRead = await read(a, shotLink!.uri);
    expect(shotRead.mimeType).toBe("image/png");
    expect(Buffer.from(shotRead.blob!, "base64").equals(saved)).toBe(true);
    // the image block the model got is the same picture
    const image = (shot.content as Array<{ type: string; data?: string }>).find((c) => c.type === "image");
    expect(image?.data).toBe(shotRead.blob);

    const pdf = await a.client.callTool({ name: "browser", arguments: { action: "pdf", targetId } });
    const [pdfLink] = linksOf(pdf);
    expect(pdfLink).toMatchObject({ mimeType: "application/pdf" });
    const pdfBytes = Buffer.from((await read(a, pdfLink!.uri)).blob!, "base64");
    expect(pdfBytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    await a.client.callTool({ name: "canvas", arguments: { action: "present", url: pageUrl } });
    const snap = await a.client.callTool({ name: "canvas", arguments: { action: "snapshot" } });
    const [snapLink] = linksOf(snap);
    expect(snapLink).toMatchObject({ mimeType: "image/png" });
    const snapRead = await read(a, snapLink!.uri);
    const snapImage = (snap.content as Array<{ type: string; data?: string }>).find(
      (c) => c.type === "image",
    );
    expect(snapRead.blob).toBe(snapImage?.data);
    expect(Buffer.from(snapRead.blob!, "base64").subarray(1, 4).toString("latin1")).toBe("PNG");

    for (const link of [shotLink!, pdfLink!, snapLink!]) await hiddenFrom(b, link.uri);
  }, 120_000);
});
