// The sections' resources as a host meets them, over either transport: a tool result links a file
// (an exec's spilled output, tts audio, a screenshot, a canvas snapshot, a memory file, a transcript); the host reads exactly
// that URI and gets the file's bytes; a second client (another workspace, another agent session)
// neither lists nor reads it. resources-sections.e2e.test.ts runs it over --http,
// resources-sections-stdio.e2e.test.ts over stdio.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelServer } from "../../../../adapters/runner-pi/test/model-server.js";
import { BUILD_TIMEOUT_MS, ensureBuilt, text } from "./cli.js";

const onPath = (command: string) =>
  (process.env.PATH ?? "").split(path.delimiter).some((dir) => existsSync(path.join(dir, command)));

type Link = { type: "resource_link"; uri: string; name: string; mimeType?: string; size?: number };
type Read = { uri: string; mimeType?: string; text?: string; blob?: string };

const linksOf = (result: unknown) =>
  (result as { content: Array<{ type: string }> }).content.filter(
    (c) => c.type === "resource_link",
  ) as Link[];

/** A connected host: its MCP client, and how it goes away. */
export interface Host {
  client: Client;
  close(): Promise<void>;
}

/** How a suite reaches serve: `a` works in `workspace`, `b` in `elsewhere` (another agent session). */
export interface SectionHosts {
  a: Host;
  b: Host;
  /** Ends what start began (serve processes). */
  stop(): Promise<void>;
}

/** What a transport's start gets: the workspaces, serve's flags and environment for the suite. */
export interface SectionServe {
  workspace: string;
  elsewhere: string;
  /** serve's flags (state dir, profile, model) without the transport's. */
  args: string[];
  /** The environment serve runs with (the loopback model). */
  env: Record<string, string>;
}

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

export function sectionResourcesSuite(title: string, start: (serve: SectionServe) => Promise<SectionHosts>) {
  describe(title, () => {
    // a works in the directory serve started in; b in a workspace of its own
    const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-sections-"));
    const elsewhere = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-sections-b-"));
    let hosts: SectionHosts | undefined;
    let a: Host;
    let b: Host;
    let page: Server;
    let model: Awaited<ReturnType<typeof startModelServer>>;
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
      // a sub-agent's model: it answers every task with one line
      model = await startModelServer(() => ({ text: "pong from the loopback model" }));
      hosts = await start({
        workspace,
        elsewhere,
        args: [
          "--state-dir",
          path.join(workspace, ".state"),
          "--profile",
          "full",
          "--allow-private-network",
          "--model",
          "openai/scripted",
        ],
        // a small exec result limit: a few thousand lines spill as an exec-output resource
        env: {
          OPENAI_BASE_URL: model.baseUrl,
          OPENAI_API_KEY: "sk-loopback",
          OPENCLAW_BASH_MAX_OUTPUT_CHARS: "2000",
        },
      });
      ({ a, b } = hosts);
    }, BUILD_TIMEOUT_MS);
    afterAll(async () => {
      await hosts?.stop();
      page?.close();
      await model?.close();
      rmSync(workspace, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      rmSync(elsewhere, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
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

    it("an exec whose output spills links it; the host reads the whole output and a part", async () => {
      const result = await a.client.callTool({
        name: "exec",
        arguments: { command: 'for i in $(seq 1 3000); do echo "line $i"; done' },
      });
      const [link] = linksOf(result);
      expect(link).toMatchObject({
        uri: expect.stringMatching(/^clawtools:\/\/runtime\/exec-output\/[^/]+$/),
        mimeType: "text/plain",
      });
      const whole = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}\n`).join("");
      expect(await read(a, link!.uri)).toMatchObject({ uri: link!.uri, text: whole });
      const part = await read(a, `${link!.uri}/part/0`);
      expect(whole.startsWith(part.text!)).toBe(true);
      expect((await a.client.listResources()).resources.map((r) => r.uri)).toContain(link!.uri);
      await hiddenFrom(b, link!.uri);
      await hiddenFrom(b, `${link!.uri}/part/0`);
    }, 60_000);

    it("memory_get and memory_search link the memory files of the caller's workspace, read as markdown", async () => {
      const got = await a.client.callTool({
        name: "memory_get",
        arguments: { path: "memory/2026-12-06.md" },
      });
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
      const shot = await a.client.callTool({
        name: "browser",
        arguments: { action: "screenshot", targetId },
      });
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

      // on a loaded machine the present's load may time out: the snapshot then waits for the late page
      const presented = await a.client.callTool({
        name: "canvas",
        arguments: { action: "present", url: pageUrl },
      });
      const snap = await a.client.callTool({ name: "canvas", arguments: { action: "snapshot" } });
      const [snapLink] = linksOf(snap);
      // the call's own answer names what went wrong when no link came (seen once on Node 24)
      expect(snapLink, JSON.stringify([presented.content, snap.content]).slice(0, 800)).toMatchObject({
        mimeType: "image/png",
      });
      const snapRead = await read(a, snapLink!.uri);
      const snapImage = (snap.content as Array<{ type: string; data?: string }>).find(
        (c) => c.type === "image",
      );
      expect(snapRead.blob).toBe(snapImage?.data);
      expect(Buffer.from(snapRead.blob!, "base64").subarray(1, 4).toString("latin1")).toBe("PNG");

      for (const link of [shotLink!, pdfLink!, snapLink!]) await hiddenFrom(b, link.uri);
    }, 120_000);

    it("sessions_history links a transcript the caller may see; another client's session may not read it", async () => {
      const spawned = await a.client.callTool({
        name: "sessions_spawn",
        arguments: { task: "say pong", label: "transcript-child" },
      });
      const childKey = JSON.parse(text(spawned)).childSessionKey as string;
      expect(childKey).toMatch(/^agent:/);
      // the child's run ends with the model's answer in its transcript
      let history: Awaited<ReturnType<Client["callTool"]>> | undefined;
      await expect
        .poll(
          async () => {
            history = await a.client.callTool({
              name: "sessions_history",
              arguments: { sessionKey: childKey },
            });
            return text(history);
          },
          { timeout: 60_000, interval: 250 },
        )
        .toContain("pong from the loopback model");
      const [link] = linksOf(history);
      expect(link).toMatchObject({
        uri: `clawtools://sessions/transcript/${encodeURIComponent(childKey)}`,
        mimeType: "application/x-ndjson",
      });
      const contents = await read(a, link!.uri);
      expect(contents.mimeType).toBe("application/x-ndjson");
      const messages = contents
        .text!.trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as { role: string; content: unknown });
      expect(messages.map((m) => m.role)).toEqual(expect.arrayContaining(["user", "assistant"]));
      expect(JSON.stringify(messages.find((m) => m.role === "user"))).toContain("say pong");
      expect(JSON.stringify(messages.at(-1))).toContain("pong from the loopback model");
      expect((await a.client.listResources()).resources.map((r) => r.uri)).toContain(link!.uri);
      // b's session did not spawn it: under the default visibility (tree) it neither lists nor reads it
      await hiddenFrom(b, link!.uri);
    }, 120_000);
  });
}
