import fs from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FileSessionStore } from "@clawtools/sessions";
import { agentRunnerConformance } from "@clawtools/testing";
import { createAcpRunner } from "../src/index.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/acp-agent.mjs", import.meta.url));

// The ACP fixture agent forwards each prompt (the session's user messages so far) to a loopback
// server the suite's model answers; a steered message is the agent's next prompt. The harness
// runs its own tools, so the tool step does not apply.
agentRunnerConformance({
  name: "createAcpRunner: AgentRunner conformance",
  tools: false,
  sessionKey: (n) => `agent:main:acp:conformance-${n}`,
  setup: async ({ model }) => {
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const { userMessages } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        userMessages: string[];
      };
      const reply = await model.answer({ userMessages: () => userMessages, toolResults: [] });
      if ("text" in reply)
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
      else res.writeHead(500).end(`the ACP fixture runs no tools (asked for ${reply.toolCall.name})`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runner-acp-conformance-"));
    for (const sub of ["workspace", "agent"]) fs.mkdirSync(path.join(dir, sub));
    const store = new FileSessionStore(path.join(dir, "state"));
    const runner = createAcpRunner({
      command: process.execPath,
      args: [FIXTURE],
      cwd: path.join(dir, "workspace"),
      store,
      env: {
        ACP_FIXTURE_DIR: path.join(dir, "agent"),
        ACP_FIXTURE_MODEL_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      },
    });
    return {
      runner,
      createSession: async (key) => void (await store.create({ key, agentId: "main" })),
      close: async () => {
        await runner.dispose();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
});
