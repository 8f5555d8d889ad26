import { execFile, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileRunRegistry, FileSessionStore, type RunRegistry, SessionsService } from "../src/index.js";
import { createScriptedRunner } from "../src/scripted-runner.js";
import { setup } from "./helpers.js";
import { spawnAndWatch } from "./spawn-and-watch.js";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");
// the workers are separate Node processes running the store from source
const TSX = path.join(import.meta.dirname, "..", "node_modules", ".bin", "tsx");
const indexFile = (stateDir: string) => path.join(stateDir, "agents", "main", "sessions", "sessions.json");
const runsFile = (stateDir: string) => path.join(stateDir, "subagents", "runs.json");
const leftovers = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".lock") || f.endsWith(".tmp"));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a burst of 20 concurrent spawns", () => {
  it("records every session and run, announces every one, and leaves no lock behind", async () => {
    const t = setup({ maxChildrenPerAgent: 20 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.json("sessions_spawn", { task: `job ${i}`, label: `job-${i}` })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill("accepted"));
    await t.service.idle();
    const index = JSON.parse(readFileSync(indexFile(t.stateDir), "utf8"));
    const runs = JSON.parse(readFileSync(runsFile(t.stateDir), "utf8"));
    expect(Object.keys(index)).toHaveLength(21); // 20 children and the caller's session
    expect(Object.values(runs).map((r) => (r as { status: string }).status)).toEqual(Array(20).fill("done"));
    for (const r of results) expect(index[r.childSessionKey]).toMatchObject({ status: "done" });
    const history = await t.service.store.history("agent:main:main");
    const announces = history.filter((m) => m.internal?.kind === "completion");
    expect(new Set(announces.map((m) => m.internal!.runId)).size).toBe(20);
    expect(announces).toHaveLength(20);
    expect(leftovers(path.dirname(indexFile(t.stateDir)))).toEqual([]);
    expect(leftovers(path.dirname(runsFile(t.stateDir)))).toEqual([]);
  });

  it("the children limit holds under the burst: exactly 5 of 20 are accepted", async () => {
    const t = setup({
      script: (turn) =>
        new Promise((_, reject) => turn.signal.addEventListener("abort", () => reject(new Error("x")))),
    });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.json("sessions_spawn", { task: `job ${i}` })),
    );
    expect(results.filter((r) => r.status === "accepted")).toHaveLength(5);
    expect(results.filter((r) => r.status === "forbidden").map((r) => r.error)).toEqual(
      Array(15).fill("sessions_spawn has reached max active children for this session (5/5)"),
    );
    await t.json("subagents", { action: "kill", target: "all" });
    await t.service.idle();
  });

  it("4 processes × 5 concurrent creates, records and patches of the same files lose nothing", async () => {
    const { stateDir } = setup();
    const worker = path.join(import.meta.dirname, "fixtures", "burst-worker.ts");
    const outputs = await Promise.all(
      [1, 2, 3, 4].map((w) =>
        run(TSX, ["--conditions=@clawtools/source", worker, stateDir, String(w), "5"], { cwd: ROOT }).then(
          (r) => r.stdout.trim(),
        ),
      ),
    );
    expect(outputs).toEqual(["ok 5", "ok 5", "ok 5", "ok 5"]);
    const index = JSON.parse(readFileSync(indexFile(stateDir), "utf8"));
    const runs = JSON.parse(readFileSync(runsFile(stateDir), "utf8"));
    expect(Object.keys(index)).toHaveLength(20);
    expect(Object.values(index).every((e) => (e as { label?: string }).label)).toBe(true);
    expect(Object.values(runs).map((r) => (r as { status: string }).status)).toEqual(Array(20).fill("done"));
    expect(leftovers(path.dirname(indexFile(stateDir)))).toEqual([]);
  }, 60_000);
});

describe("reads served from memory", () => {
  it("see every write of another store or process, and hand out copies", async () => {
    const { stateDir } = setup();
    const a = new FileSessionStore(stateDir);
    const b = new FileSessionStore(stateDir);
    await a.create({ key: "agent:main:k", agentId: "main" });
    expect((await a.get("agent:main:k"))?.label).toBeUndefined();
    await b.patch("agent:main:k", { label: "from b" });
    expect((await a.get("agent:main:k"))?.label).toBe("from b");
    const copy = (await a.get("agent:main:k"))!;
    copy.label = "changed by a caller";
    expect((await a.get("agent:main:k"))?.label).toBe("from b");
    const ra = new FileRunRegistry(stateDir);
    const rb = new FileRunRegistry(stateDir);
    await ra.record({
      runId: "r",
      childSessionKey: "agent:main:k",
      requesterSessionKey: "agent:main:main",
      task: "t",
      cleanup: "keep",
      depth: 1,
      createdAt: 1,
      status: "running",
      announce: { status: "pending", attempts: 0, idempotencyKey: "i" },
    });
    expect((await ra.get("r"))?.status).toBe("running");
    await rb.update("r", { status: "done" });
    expect((await ra.get("r"))?.status).toBe("done");
    const run = (await ra.get("r"))!;
    run.announce.status = "failed";
    expect((await ra.get("r"))?.announce.status).toBe("pending");
  });
});

describe("the index lock", () => {
  it("breaks a lock whose owner process is gone", async () => {
    const { stateDir } = setup();
    const store = new FileSessionStore(stateDir);
    await store.create({ key: "agent:main:a", agentId: "main" });
    const dead = spawnSync(process.execPath, [
      "-e",
      "process.stdout.write(String(process.pid))",
    ]).stdout.toString();
    writeFileSync(`${indexFile(stateDir)}.lock`, `${dead}\n${hostname()}\n`);
    await store.create({ key: "agent:main:b", agentId: "main" });
    expect((await store.list()).map((e) => e.key).sort()).toEqual(["agent:main:a", "agent:main:b"]);
    expect(existsSync(`${indexFile(stateDir)}.lock`)).toBe(false);
  });

  it("breaks a lock older than 30 s even when its pid is alive", async () => {
    const { stateDir } = setup();
    const store = new FileSessionStore(stateDir);
    await store.create({ key: "agent:main:a", agentId: "main" });
    const lock = `${indexFile(stateDir)}.lock`;
    writeFileSync(lock, `${process.pid}\n${hostname()}\n`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    await store.patch("agent:main:a", { label: "after" });
    expect((await store.get("agent:main:a"))?.label).toBe("after");
  });
});

describe("a 50 MB transcript", () => {
  it("sessions_history reads its tail only", async () => {
    const t = setup();
    const entry = await t.service.ensure("agent:main:main");
    const file = (t.service.store as FileSessionStore).transcriptPath(entry);
    const line = (i: number) =>
      `${JSON.stringify({ type: "message", id: String(i), timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: `m${i} ${"x".repeat(1000)}`, timestamp: 1 } })}\n`;
    const block = Array.from({ length: 1000 }, (_, i) => line(i)).join("");
    const blocks = Math.ceil((50 * 1024 * 1024) / Buffer.byteLength(block));
    for (let b = 0; b < blocks; b++) appendFileSync(file, block);
    appendFileSync(
      file,
      `${JSON.stringify({ type: "message", id: "last", timestamp: "2026-01-01T00:00:00.000Z", message: { role: "assistant", content: [{ type: "text", text: "the end" }], timestamp: 2 } })}\n`,
    );
    const size = readFileSync(file).byteLength;
    expect(size).toBeGreaterThan(50 * 1024 * 1024);

    // count every byte the store reads through a file handle, and watch the heap while it reads
    const handle = await open(file, "r");
    const proto = Object.getPrototypeOf(handle) as {
      read: (...args: unknown[]) => Promise<{ bytesRead: number }>;
    };
    await handle.close();
    const original = proto.read;
    let bytesRead = 0;
    let peakHeap = 0;
    const baseHeap = process.memoryUsage().heapUsed;
    vi.spyOn(proto, "read").mockImplementation(async function (this: unknown, ...args: unknown[]) {
      const r = await original.apply(this, args);
      bytesRead += r.bytesRead;
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed - baseHeap);
      return r;
    });
    const h = await t.json("sessions_history", { sessionKey: "main", limit: 5 });
    expect(
      h.messages.map((m: { content: unknown }) =>
        typeof m.content === "string" ? m.content.split(" ")[0] : m.content,
      ),
    ).toEqual(["m996", "m997", "m998", "m999", [{ type: "text", text: "the end" }]]);
    expect(bytesRead).toBeGreaterThan(0);
    expect(bytesRead).toBeLessThan(size / 100); // a few 64 KB blocks of a 50 MB file
    expect(peakHeap).toBeLessThan(size / 5);

    // without a limit the read stops at what the 80 KB cap can use (8 × 80 KB of raw lines)
    bytesRead = 0;
    const all = await t.json("sessions_history", { sessionKey: "main" });
    expect(all.truncated).toBe(true);
    expect(bytesRead).toBeLessThan(size / 50);
  }, 60_000);
});

describe("announce delivery", () => {
  it("an append under an idempotency key happens once, in this process and in a new one", async () => {
    const { stateDir } = setup();
    const store = new FileSessionStore(stateDir);
    await store.create({ key: "agent:main:main", agentId: "main" });
    const msg = { role: "user" as const, content: "announce", timestamp: 1 };
    expect(await store.append("agent:main:main", [msg], { idempotencyKey: "k1" })).toBe(true);
    expect(await store.append("agent:main:main", [msg], { idempotencyKey: "k1" })).toBe(false);
    const restarted = new FileSessionStore(stateDir);
    expect(await restarted.append("agent:main:main", [msg], { idempotencyKey: "k1" })).toBe(false);
    expect(await restarted.append("agent:main:main", [msg], { idempotencyKey: "k2" })).toBe(true);
    expect((await restarted.history("agent:main:main")).map((m) => m.content)).toEqual([
      "announce",
      "announce",
    ]);
  });

  it("a retried announce (the append landed, the bookkeeping failed) lands once and is marked delivered", async () => {
    const { stateDir } = setup();
    const store = new FileSessionStore(stateDir);
    const inner = new FileRunRegistry(stateDir);
    let failures = 1;
    const runs: RunRegistry = {
      record: (r) => inner.record(r),
      get: (id) => inner.get(id),
      list: () => inner.list(),
      listByRequester: (k) => inner.listByRequester(k),
      update: async (id, patch) => {
        if (patch.announce?.status === "delivered" && failures-- > 0) throw new Error("registry unavailable");
        return inner.update(id, patch);
      },
    };
    const service = new SessionsService(store, runs, createScriptedRunner({ store }), 1);
    await service.ensure("agent:main:main");
    const runId = await spawnAndWatch(service, store, runs);
    const announces = (await store.history("agent:main:main")).filter((m) => m.internal?.runId === runId);
    expect(announces).toHaveLength(1);
    expect((await runs.get(runId))?.announce).toMatchObject({ status: "delivered", attempts: 2 });
    // never to another session: the child's own transcript holds no completion event
    expect((await store.history("agent:main:subagent:c")).some((m) => m.internal)).toBe(false);
  });

  it("an announce that cannot be delivered is marked failed with the reason", async () => {
    const { stateDir } = setup();
    const inner = new FileSessionStore(stateDir);
    const store = Object.create(inner) as FileSessionStore;
    store.append = async (key, messages, options) => {
      if (key === "agent:main:main") throw new Error("disk full");
      return inner.append(key, messages, options);
    };
    const runs = new FileRunRegistry(stateDir);
    const service = new SessionsService(store, runs, createScriptedRunner({ store }), 1);
    const runId = await spawnAndWatch(service, store, runs);
    expect((await runs.get(runId))?.announce).toMatchObject({
      status: "failed",
      attempts: 4,
      lastError: "disk full",
    });
  });
});
