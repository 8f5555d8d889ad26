import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt } from "./support/cli.js";
import { flakyServerConfig } from "./support/flaky-server.js";
import { SUBSCRIPTION_ID } from "./support/raw-stdio.js";
import { postModern } from "./support/post-modern.js";
import { serveHttp } from "./support/serve.js";
import { sseMessages } from "./support/sse-messages.js";

// A 2026-07-28 host has no session for serve to push on: it opens a subscriptions/listen stream
// and hears tools/list_changed there when a mounted MCP server comes back. Raw HTTP, as the
// revision's wire is written, so nothing between the host and serve smooths it over.

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children.splice(0)) child.kill("SIGTERM");
});
beforeAll(() => ensureBuilt(), BUILD_TIMEOUT_MS);

function post(
  url: string,
  id: number,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
) {
  return postModern(url, id, method, params, { signal });
}

const toolNames = async (url: string) => {
  const answer = (await (await post(url, 9, "tools/list", {})).json()) as {
    result: { tools: Array<{ name: string }> };
  };
  return answer.result.tools.map((t) => t.name);
};

it("a listening 2026-07-28 host hears tools/list_changed when a mounted server comes back", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-listen-"));
  const { config } = flakyServerConfig(dir, 2);
  const { url } = await serveHttp(["--config", config, "--profile", "minimal"], {
    cwd: dir,
    track: children,
  });
  const stop = new AbortController();
  const stream = await post(
    url,
    1,
    "subscriptions/listen",
    { notifications: { toolsListChanged: true } },
    stop.signal,
  );
  expect(stream.headers.get("content-type")).toContain("text/event-stream");
  const frames = sseMessages(stream.body!);
  const first = (await frames.next()).value!;
  expect(first.method).toBe("notifications/subscriptions/acknowledged");
  const subscriptionId = first.params._meta[SUBSCRIPTION_ID];
  // the mounted server is still failing its first starts: its return is announced on the stream
  expect(await toolNames(url)).not.toContain("flaky__ping");
  const changed = (await frames.next()).value!;
  expect(changed.method).toBe("notifications/tools/list_changed");
  expect(changed.params._meta[SUBSCRIPTION_ID]).toEqual(subscriptionId);
  expect(await toolNames(url)).toContain("flaky__ping");
  stop.abort();
}, 120_000);
