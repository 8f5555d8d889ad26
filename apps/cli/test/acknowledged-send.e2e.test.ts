import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { contentText, startModelServer } from "../../../adapters/runner-pi/test/model-server.js";
import { json, requireBuilt } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

// Issue 37 #10: an acknowledged sessions_send survives a kill -9 of serve that comes right after
// the acknowledgement. `serve` is killed the moment the first answer of a burst of sends reaches
// the host, restarted on the same state directory, and every send it acknowledged must be in the
// session's transcript. Repeated: the loss was intermittent (the run wrote its message only once
// its loop got going, after the answer had gone out).

const ROUNDS = 8;
const BURST = 4;

let model: Awaited<ReturnType<typeof startModelServer>>;
const pids: number[] = [];

beforeAll(async () => {
  requireBuilt();
  // a model that never answers: each run stays at its first model call until serve is killed
  model = await startModelServer(() => new Promise(() => {}));
});

afterAll(async () => {
  for (const pid of pids)
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  await Promise.race([model?.close(), new Promise((r) => setTimeout(r, 1000))]);
});

it("every send serve acknowledged is in the transcript after a kill -9 and a restart", async () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "cli-ack-send-"));
  const start = () =>
    connectCli(
      [
        "serve",
        "--workspace",
        workspace,
        "--state-dir",
        path.join(workspace, ".state"),
        "--profile",
        "full",
        "--model",
        "openai/scripted",
      ],
      { env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-loopback" }, stderr: "ignore" },
    );
  const acknowledged: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { client, transport } = await start();
    const pid = transport.pid!;
    pids.push(pid);
    const exited = new Promise<void>((resolve) => {
      client.onclose = () => resolve();
    });
    let killed = false;
    const sends = Array.from({ length: BURST }, (_, i) => {
      const message = `remember round ${round} message ${i}`;
      return client
        .callTool({ name: "sessions_send", arguments: { sessionKey: "main", message, timeoutSeconds: 0 } })
        .then((result) => {
          expect(json(result)).toMatchObject({ status: "accepted" });
          acknowledged.push(message);
          if (!killed) {
            killed = true;
            // as soon as the host holds an acknowledgement
            process.kill(pid, "SIGKILL");
          }
        })
        .catch(() => {}); // sends cut off by the kill were never acknowledged
    });
    await Promise.all(sends);
    await exited;
    expect(killed).toBe(true);
  }
  const { client, transport } = await start();
  pids.push(transport.pid!);
  const history = json(
    await client.callTool({ name: "sessions_history", arguments: { sessionKey: "main", limit: 200 } }),
  ) as { messages: Array<{ role: string; content: unknown }> };
  const inTranscript = new Set(
    history.messages.filter((m) => m.role === "user").map((m) => contentText(m.content)),
  );
  expect(acknowledged.length).toBeGreaterThanOrEqual(ROUNDS);
  expect(acknowledged.filter((m) => !inTranscript.has(m))).toEqual([]);
  await client.close();
}, 120_000);
