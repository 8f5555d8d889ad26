import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { APPROVALS_FILE } from "@clawtools/core/approvals";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createMcpServer } from "../src/index.js";
import { type Answer, gatedToolset, NO_ROUTE } from "./support/gated-tool.js";

const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-mcp-approvals-"));

async function connect(
  stateDir: string,
  answer?: (signal: AbortSignal) => Answer | Promise<Answer>,
  timeoutMs?: number,
) {
  const ran: string[] = [];
  const server = createMcpServer(
    gatedToolset({ workspaceDir, stateDir, ran, ...(timeoutMs ? { timeoutMs } : {}) }),
  );
  const client = new Client(
    { name: "test", version: "1.0.0" },
    { capabilities: answer ? { elicitation: { form: {} } } : {} },
  );
  const asked: Array<{ message: string; requestedSchema: unknown }> = [];
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      asked.push(request.params as (typeof asked)[number]);
      return answer(extra.signal);
    });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  const call = async (command: string) => {
    const result = await client.callTool({ name: "gated_run", arguments: { command } });
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    return { text, isError: result.isError === true };
  };
  return { client, call, asked, ran, close: () => client.close() };
}

describe("approvals asked of the MCP client through elicitation", () => {
  it("accepting with allow once runs the command and asks again next time; the form shows command and cwd", async () => {
    const session = await connect(mkdtempSync(path.join(tmpdir(), "state-")), () => ({
      action: "accept",
      content: { decision: "allow-once" },
    }));
    expect(await session.call("make deploy")).toEqual({ text: "ran make deploy", isError: false });
    expect(await session.call("make deploy")).toEqual({ text: "ran make deploy", isError: false });
    expect(session.asked).toHaveLength(2);
    expect(session.asked[0]!.message).toContain("Command: make deploy");
    expect(session.asked[0]!.message).toContain(`Working directory: ${workspaceDir}`);
    expect(session.asked[0]!.requestedSchema).toMatchObject({
      properties: {
        decision: {
          oneOf: [
            { const: "allow-once", title: "Allow once" },
            { const: "allow-always", title: "Allow always" },
            { const: "deny", title: "Deny" },
          ],
        },
      },
      required: ["decision"],
    });
    await session.close();
  });

  it("accepting with allow always is remembered in the state directory, also for a new server", async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), "state-"));
    const first = await connect(stateDir, () => ({
      action: "accept",
      content: { decision: "allow-always" },
    }));
    expect((await first.call("make test")).text).toBe("ran make test");
    expect(readFileSync(path.join(stateDir, APPROVALS_FILE), "utf8")).toContain("make test");
    await first.close();
    // a client that can no longer be asked still runs the remembered command, and only it
    const second = await connect(stateDir);
    expect((await second.call("make test")).text).toBe("ran make test");
    const other = await second.call("make clean");
    expect(other.isError).toBe(true);
    expect(other.text).toContain(NO_ROUTE);
    await second.close();
  });

  it("declining, cancelling or answering outside the choices denies and runs nothing", async () => {
    const answers: Answer[] = [
      { action: "decline" },
      { action: "cancel" },
      { action: "accept", content: { decision: "yes please" } },
    ];
    const session = await connect(mkdtempSync(path.join(tmpdir(), "state-")), () => answers.shift()!);
    for (let i = 0; i < 3; i++) {
      const result = await session.call("rm -rf build");
      expect(result.isError).toBe(true);
      expect(result.text).toContain("denied: deny");
    }
    expect(session.ran).toEqual([]);
    expect(session.asked).toHaveLength(3);
    await session.close();
  });

  it("a client without the elicitation capability gets the clear refusal and is never asked", async () => {
    const session = await connect(mkdtempSync(path.join(tmpdir(), "state-")));
    const result = await session.call("make deploy");
    expect(result.isError).toBe(true);
    expect(result.text).toContain(NO_ROUTE);
    expect(session.ran).toEqual([]);
    await session.close();
  });

  it("an unanswered approval times out: denied, and the client's elicitation request is cancelled", async () => {
    let cancelled: () => void = () => {};
    const cancelledSeen = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    let asked = 0;
    const session = await connect(
      mkdtempSync(path.join(tmpdir(), "state-")),
      (signal) =>
        // the first is answered: the SDK ignores a cancellation of request id 0 (falsy check)
        asked++ === 0
          ? { action: "accept", content: { decision: "allow-once" } }
          : new Promise<Answer>(() => {
              signal.addEventListener("abort", () => cancelled());
            }),
      1000,
    );
    expect((await session.call("first")).text).toBe("ran first");
    const result = await session.call("sleep-forever");
    expect(result).toEqual({ text: expect.stringContaining("denied: timeout"), isError: true });
    await cancelledSeen;
    expect(session.ran).toEqual(["first"]);
    await session.close();
  });
});
