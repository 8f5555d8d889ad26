import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileRunRegistry, FileSessionStore, type RunRecord, type SessionEntry } from "../src/index.js";
import { setup } from "./helpers.js";

/** What a store was asked: whole-store reads and the entries its pages handed out. */
function counted(store: FileSessionStore) {
  const asked = { lists: 0, paged: 0 };
  const spy = Object.create(store) as FileSessionStore;
  spy.list = (filter) => {
    asked.lists++;
    return store.list(filter);
  };
  spy.listPage = async (query) => {
    const page = await store.listPage(query);
    asked.paged += page.entries.length;
    return page;
  };
  return { spy, asked };
}

/**
 * 400 sessions written as another process would leave them: every third a sub-agent of main with
 * a run, the rest chats and cron sessions; newest first by index.
 */
function seed(stateDir: string) {
  const dir = path.join(stateDir, "agents", "main", "sessions");
  mkdirSync(dir, { recursive: true });
  mkdirSync(path.join(stateDir, "subagents"), { recursive: true });
  const now = Date.now() - 10_000;
  const index: Record<string, SessionEntry> = {
    "agent:main:main": {
      key: "agent:main:main",
      sessionId: "m0",
      agentId: "main",
      createdAt: now,
      updatedAt: now,
    },
  };
  const runs: Record<string, RunRecord> = {};
  for (let i = 1; i < 400; i++) {
    const kind = i % 3 === 0 ? "subagent" : i % 3 === 1 ? "chat" : "cron";
    const key = `agent:main:${kind}:${String(i).padStart(3, "0")}`;
    const t = now - i * 1000;
    index[key] = {
      key,
      sessionId: `s${i}`,
      agentId: "main",
      createdAt: t,
      updatedAt: t,
      ...(kind === "subagent" ? { spawnedBy: "agent:main:main", depth: 1, status: "done" } : {}),
    };
    if (kind === "subagent")
      runs[`r${i}`] = {
        runId: `r${i}`,
        childSessionKey: key,
        requesterSessionKey: "agent:main:main",
        task: `job ${i}`,
        cleanup: "keep",
        depth: 1,
        createdAt: t,
        status: "done",
        announce: { status: "delivered", attempts: 1, idempotencyKey: `announce:r${i}` },
      };
  }
  writeFileSync(path.join(dir, "sessions.json"), JSON.stringify(index));
  writeFileSync(path.join(stateDir, "subagents", "runs.json"), JSON.stringify(runs));
}

describe("sessions_list answers a page without reading the store whole", () => {
  /** The tools over a seeded state directory, its session store counted. */
  const open = (visibility: "tree" | "agent") => {
    const stateDir = mkdtempSync(path.join(tmpdir(), "sessions-paging-"));
    seed(stateDir);
    const { spy, asked } = counted(new FileSessionStore(stateDir));
    const t = setup({ noRunner: true, store: spy, runs: new FileRunRegistry(stateDir), visibility });
    return { t, asked, stateDir };
  };

  it("limit 5 gives the 5 newest visible sessions with their runs, from one page of the store", async () => {
    const { t, asked } = open("agent");
    const listed = await t.json("sessions_list", { limit: 5 });
    expect(listed.sessions.map((s: { key: string }) => s.key)).toEqual([
      "main",
      "agent:main:chat:001",
      "agent:main:cron:002",
      "agent:main:subagent:003",
      "agent:main:chat:004",
    ]);
    expect(listed.sessions[0].childSessions).toHaveLength(133);
    expect(listed.sessions[3]).toMatchObject({
      spawnedBy: "agent:main:main",
      announce: { status: "delivered", attempts: 1 },
    });
    expect(asked.lists).toBe(0);
    expect(asked.paged).toBeLessThanOrEqual(64);
    // without a limit a page of 100, and the way to the next one; the cursors walk every
    // visible session once, newest first, and the last page says nothing more
    const first = await t.json("sessions_list", {});
    expect(first.count).toBe(100);
    expect(first.note).toBe(
      `More sessions: call sessions_list again with cursor="${first.nextCursor}" (and the same filters) for the next page.`,
    );
    const keys: string[] = first.sessions.map((s: { key: string }) => s.key);
    let page = first;
    while (page.nextCursor) {
      page = await t.json("sessions_list", { cursor: page.nextCursor });
      keys.push(...page.sessions.map((s: { key: string }) => s.key));
    }
    expect(page.note).toBeUndefined();
    expect(keys).toHaveLength(400);
    expect(new Set(keys).size).toBe(400);
    expect(keys.slice(0, 3)).toEqual(["main", "agent:main:chat:001", "agent:main:cron:002"]);
    expect(keys.at(-1)).toBe("agent:main:subagent:399");
    expect(asked.lists).toBe(0);
  });

  it("pages with filters: a kinds filter walks its own rows by cursor; a cursor it never gave is refused by name", async () => {
    const { t } = open("agent");
    const crons: string[] = [];
    let page = await t.json("sessions_list", { kinds: ["cron"], limit: 50 });
    crons.push(...page.sessions.map((s: { key: string }) => s.key));
    while (page.nextCursor) {
      page = await t.json("sessions_list", { kinds: ["cron"], limit: 50, cursor: page.nextCursor });
      crons.push(...page.sessions.map((s: { key: string }) => s.key));
    }
    // i % 3 === 2 for i in 1..399: 133 cron sessions, each once, in order
    expect(crons).toEqual(
      Array.from({ length: 133 }, (_, j) => `agent:main:cron:${String(3 * j + 2).padStart(3, "0")}`),
    );
    const bad = await t.call("sessions_list", { cursor: "not-a-cursor" });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain(
      "cursor is not one sessions_list gave: pass the nextCursor of the previous result, or leave it out for the first page",
    );
  });

  it("tree visibility and kinds filter while walking: hidden rows are skipped, the page is still full", async () => {
    const { t, asked } = open("tree");
    const tree = await t.json("sessions_list", { limit: 4 });
    expect(tree.sessions.map((s: { key: string }) => s.key)).toEqual([
      "main",
      "agent:main:subagent:003",
      "agent:main:subagent:006",
      "agent:main:subagent:009",
    ]);
    // a sub-agent sees only itself under tree visibility
    const sub = await t.as("agent:main:subagent:003").json("sessions_list", { limit: 3 });
    expect(sub.sessions.map((s: { key: string }) => s.key)).toEqual(["agent:main:subagent:003"]);
    const crons = await open("agent").t.json("sessions_list", { limit: 2, kinds: ["cron"] });
    expect(crons.sessions.map((s: { key: string }) => s.key)).toEqual([
      "agent:main:cron:002",
      "agent:main:cron:005",
    ]);
    expect(asked.lists).toBe(0);
  });

  it("a session another process adds is listed first at the next call", async () => {
    const { t, stateDir } = open("agent");
    await t.json("sessions_list", { limit: 2 });
    // another process: its own store instance on the same files
    const other = new FileSessionStore(stateDir);
    await other.create({ key: "agent:main:late", agentId: "main" });
    const next = await t.json("sessions_list", { limit: 2 });
    expect(next.sessions.map((s: { key: string }) => s.key)[0]).toBe("agent:main:late");
  });
});

describe("subagents list and sessions_spawn look at the caller's runs only", () => {
  it("no whole-registry read per call; the caller's lost runs are still ended", async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), "sessions-paging-"));
    seed(stateDir);
    const registry = new FileRunRegistry(stateDir);
    let wholeReads = 0;
    const runs = Object.create(registry) as FileRunRegistry;
    runs.list = () => {
      wholeReads++;
      return registry.list();
    };
    // a run of a sub-agent's own, held by a process that is gone
    await registry.record({
      runId: "orphan",
      childSessionKey: "agent:main:subagent:orphan",
      requesterSessionKey: "agent:main:subagent:003",
      task: "left behind",
      cleanup: "keep",
      depth: 2,
      createdAt: Date.now() - 60_000,
      status: "running",
      owner: { instance: "gone", pid: 2 ** 22 + 7, host: "elsewhere" },
      heartbeatAt: Date.now() - 60_000,
      announce: { status: "pending", attempts: 0, idempotencyKey: "announce:orphan" },
    });
    const t = setup({ noRunner: true, store: new FileSessionStore(stateDir), runs });
    await t.service.reapLost(); // the start-up pass over the whole registry
    const before = wholeReads;
    const listed = await t.json("subagents", {});
    expect(listed.total).toBe(133);
    const sub = await t.as("agent:main:subagent:003").json("subagents", {});
    expect(sub.recent[0]).toMatchObject({ runId: "orphan", status: "lost" });
    expect(wholeReads).toBe(before);
  });
});
