import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { AcpConnection, AcpRpcError } from "./connection.js";

function pair(onRequest = async (_m: string, _p: unknown): Promise<unknown> => null) {
  const fromAgent = new PassThrough();
  const toAgent = new PassThrough();
  const sent: Record<string, unknown>[] = [];
  toAgent.setEncoding("utf8");
  toAgent.on("data", (chunk: string) => {
    for (const line of chunk.split("\n").filter(Boolean)) sent.push(JSON.parse(line));
  });
  const notes: [string, unknown][] = [];
  const conn = new AcpConnection(fromAgent, toAgent, onRequest, (m, p) => notes.push([m, p]));
  const agentSays = (message: unknown) =>
    fromAgent.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  return { conn, sent, notes, agentSays, fromAgent };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("AcpConnection", () => {
  it("matches answers to requests, in any order, and across chunk boundaries", async () => {
    const { conn, sent, fromAgent } = pair();
    const a = conn.request("a", { x: 1 });
    const b = conn.request("b", {});
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 0, method: "a", params: { x: 1 } },
      { jsonrpc: "2.0", id: 1, method: "b", params: {} },
    ]);
    fromAgent.write('{"jsonrpc":"2.0","id":1,"result":"B"}\n{"jsonrpc":"2.0","id":0,');
    fromAgent.write('"error":{"code":-32602,"message":"Invalid params: x"}}\r\n');
    expect(await b).toBe("B");
    await expect(a).rejects.toEqual(new AcpRpcError(-32602, "Invalid params: x"));
  });

  it("answers the agent's requests, errors included, and passes notifications on", async () => {
    const { sent, notes, agentSays } = pair(async (method) => {
      if (method === "ok") return { fine: true };
      throw new AcpRpcError(-32601, `Method not found: ${method}`);
    });
    agentSays({ jsonrpc: "2.0", id: "x1", method: "ok", params: {} });
    agentSays({ jsonrpc: "2.0", id: 7, method: "nope" });
    agentSays({ jsonrpc: "2.0", method: "session/update", params: { a: 1 } });
    await tick();
    await tick();
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: "x1", result: { fine: true } },
      { jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found: nope" } },
    ]);
    expect(notes).toEqual([["session/update", { a: 1 }]]);
  });

  it.each([
    ["[1,2]", 'the ACP agent wrote a line that is not JSON-RPC (not an object): "[1,2]"'],
    [
      '{"id":0,"result":1}',
      'the ACP agent wrote a line that is not JSON-RPC (no "jsonrpc": "2.0"): "{\\"id\\":0,\\"result\\":1}"',
    ],
    [
      '{"jsonrpc":"2.0"}',
      'the ACP agent wrote a line that is not JSON-RPC (neither a request, a notification nor a response): "{\\"jsonrpc\\":\\"2.0\\"}"',
    ],
    [
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
      "the ACP agent answered with an error it could not tie to a request: Parse error",
    ],
  ])("ends the connection on %s: pending requests fail with the reason", async (line, reason) => {
    const { conn, agentSays } = pair();
    const pending = conn.request("session/prompt", {});
    agentSays(line);
    await expect(pending).rejects.toThrow(reason);
    await expect(conn.request("later", {})).rejects.toThrow(reason);
    expect(conn.closed?.message).toBe(reason);
  });

  it("a long line is quoted in part", async () => {
    const { conn, agentSays } = pair();
    const pending = conn.request("x", {});
    agentSays("y".repeat(500));
    await expect(pending).rejects.toThrow(
      `the ACP agent wrote a line that is not JSON-RPC (not JSON): "${"y".repeat(120)}…" (500 characters)`,
    );
  });

  it("a request the agent does not answer in time fails, and its late answer is ignored", async () => {
    const { conn, agentSays } = pair();
    await expect(conn.request("initialize", {}, 20)).rejects.toThrow(
      "the ACP agent did not answer initialize within 20 ms",
    );
    agentSays({ jsonrpc: "2.0", id: 0, result: {} });
    await tick();
    expect(conn.closed).toBeUndefined();
  });

  it("the agent closing its output fails what is pending", async () => {
    const { conn, fromAgent } = pair();
    const pending = conn.request("session/prompt", {});
    fromAgent.end();
    await expect(pending).rejects.toThrow("the ACP agent closed its output");
  });
});
