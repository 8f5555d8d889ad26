// A 50 MB exec spill, as a host reads it over stdio: the exec result links the whole output with
// its size; a whole read is refused with a line naming the parts to read; the parts, read one by
// one, join to exactly the output (characters cut by a part's nominal boundary included).
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

// 22 bytes, 20 characters: two- and three-byte characters fall on part boundaries
const LINE = "línea ✓ 0123456789\n";
const LINES = 2_400_000; // 52.8 MB
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

type Link = { type: "resource_link"; uri: string; size?: number; description?: string };

describe("clawtools serve (stdio): a 50 MB exec spill read in parts", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-paging-"));
  let host: { client: Client; transport: StdioClientTransport };

  beforeAll(async () => {
    ensureBuilt();
    host = await connectCli(
      [
        "serve",
        "--workspace",
        workspace,
        "--state-dir",
        path.join(workspace, ".state"),
        "--profile",
        "coding",
      ],
      { stderr: "ignore" },
    );
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await host?.client.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it("links the spill with its size, refuses a whole read naming the parts, and serves every part", async () => {
    const result = await host.client.callTool(
      { name: "exec", arguments: { command: `yes '${LINE.trimEnd()}' | head -n ${LINES}`, timeout: 300 } },
      undefined,
      { timeout: 300_000 },
    );
    const link = (result.content as Array<{ type: string }>).find((c) => c.type === "resource_link") as Link;
    const expectedBytes = Buffer.byteLength(LINE) * LINES;
    expect(link).toMatchObject({
      uri: expect.stringMatching(/^clawtools:\/\/runtime\/exec-output\//),
      size: expectedBytes,
    });
    const parts = Math.ceil(expectedBytes / (1024 * 1024));
    expect(link.description).toContain(
      `read it in ${parts} parts of 1.0MB: ${link.uri}/part/0 to ${link.uri}/part/${parts - 1}`,
    );

    await expect(host.client.readResource({ uri: link.uri })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        `Resource ${link.uri} is 50.4MB, more than the 4.0MB one read returns; read it in ${parts} parts`,
      ),
    });

    const { resourceTemplates } = await host.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain(
      "clawtools://runtime/exec-output/{sessionId}/part/{part}",
    );

    const hash = createHash("sha256");
    let chars = 0;
    for (let part = 0; part < parts; part++) {
      const { contents } = await host.client.readResource({ uri: `${link.uri}/part/${part}` });
      const text = (contents[0] as { text: string; mimeType: string }).text;
      expect(contents[0]).toMatchObject({ uri: `${link.uri}/part/${part}`, mimeType: "text/plain" });
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024 * 1024 + 3);
      expect(text).not.toContain("\uFFFD");
      hash.update(text);
      chars += text.length;
    }
    expect(chars).toBe(LINE.length * LINES);
    expect(hash.digest("hex")).toBe(sha(LINE.repeat(LINES)));

    // past the last part: as a URI nobody serves
    await expect(host.client.readResource({ uri: `${link.uri}/part/${parts}` })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Resource not found"),
    });
  }, 300_000);
});
