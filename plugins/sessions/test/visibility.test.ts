import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../src/index.js";
import { checkVisibility, type SessionAction, type Visibility, type VisibilityPolicy } from "../src/index.js";
import { setup } from "./helpers.js";

// caller agent:main:main spawned c1, which spawned g1; "other" is an unrelated session of the same
// agent; ops is another agent's main session.
const CALLER = { key: "agent:main:main", agentId: "main" };
const entry = (key: string, spawnedBy?: string): Pick<SessionEntry, "key" | "agentId" | "spawnedBy"> => ({
  key,
  agentId: /^agent:([^:]+):/.exec(key)![1]!,
  ...(spawnedBy ? { spawnedBy } : {}),
});
const SESSIONS = {
  self: entry("agent:main:main"),
  child: entry("agent:main:subagent:c1", "agent:main:main"),
  grandchild: entry("agent:main:subagent:g1", "agent:main:subagent:c1"),
  other: entry("agent:main:other"),
  ops: entry("agent:ops:main"),
  opsChild: entry("agent:ops:subagent:o1", "agent:main:main"),
};
const byKey = new Map(Object.values(SESSIONS).map((e) => [e.key, e]));
const LABEL: Record<SessionAction, string> = {
  list: "Session list",
  history: "Session history",
  send: "Session send",
  status: "Session status",
};
const ACTIONS: SessionAction[] = ["list", "history", "send", "status"];
type Target = keyof typeof SESSIONS;

const check = (action: SessionAction, target: Target, policy: VisibilityPolicy) =>
  checkVisibility(action, CALLER, SESSIONS[target], policy, byKey);
const visibleTo = (action: SessionAction, policy: VisibilityPolicy) =>
  (Object.keys(SESSIONS) as Target[]).filter((t) => check(action, t, policy).ok);

describe("checkVisibility: self | tree | agent | all × list | history | send | status", () => {
  const expected: Record<Visibility, Target[]> = {
    self: ["self"],
    tree: ["self", "child", "grandchild", "opsChild"],
    agent: ["self", "child", "grandchild", "other", "opsChild"],
    all: ["self", "child", "grandchild", "other", "opsChild"], // ops needs agent-to-agent
  };
  for (const visibility of Object.keys(expected) as Visibility[])
    for (const action of ACTIONS)
      it(`${visibility} / ${action}`, () => {
        expect(visibleTo(action, { visibility })).toEqual(expected[visibility]);
      });

  for (const action of ACTIONS)
    it(`denials name the setting (${action})`, () => {
      expect(check(action, "child", { visibility: "self" })).toEqual({
        ok: false,
        status: "forbidden",
        error: `${LABEL[action]} visibility is restricted to the current session (sessions.visibility=self).`,
      });
      expect(check(action, "other", { visibility: "tree" })).toEqual({
        ok: false,
        status: "forbidden",
        error: `${LABEL[action]} visibility is restricted to the current session tree (sessions.visibility=tree).`,
      });
      expect(check(action, "ops", { visibility: "agent" })).toEqual({
        ok: false,
        status: "forbidden",
        error: `${LABEL[action]} visibility is restricted. Set sessions.visibility=all to allow cross-agent access.`,
      });
    });

  it("cross-agent access needs visibility=all, agentToAgent.enabled and a match in agentToAgent.allow", () => {
    expect(check("history", "ops", { visibility: "all" })).toMatchObject({
      ok: false,
      error:
        "Agent-to-agent history is disabled. Set sessions.agentToAgent.enabled=true to allow cross-agent access.",
    });
    expect(check("send", "ops", { visibility: "all", agentToAgent: { enabled: false } })).toMatchObject({
      ok: false,
      error:
        "Agent-to-agent messaging is disabled. Set sessions.agentToAgent.enabled=true to allow cross-agent sends.",
    });
    expect(
      check("send", "ops", { visibility: "all", agentToAgent: { enabled: true, allow: ["dev*"] } }),
    ).toEqual({
      ok: false,
      status: "forbidden",
      error: "Agent-to-agent messaging denied by sessions.agentToAgent.allow.",
    });
    expect(
      check("send", "ops", { visibility: "all", agentToAgent: { enabled: true, allow: ["o?s"] } }),
    ).toEqual({
      ok: true,
    });
    expect(check("history", "ops", { visibility: "all", agentToAgent: { enabled: true } })).toEqual({
      ok: true,
    });
    // agent-to-agent never widens a narrower setting
    expect(check("history", "ops", { visibility: "agent", agentToAgent: { enabled: true } }).ok).toBe(false);
  });

  it("a sandboxed caller is clamped to the sessions it spawned, whatever the setting", () => {
    for (const visibility of ["tree", "agent", "all"] as Visibility[]) {
      const policy = { visibility, sandboxed: true, agentToAgent: { enabled: true } };
      expect(visibleTo("history", policy)).toEqual(["self", "child", "grandchild", "opsChild"]);
      expect(check("history", "other", policy)).toEqual({
        ok: false,
        status: "forbidden",
        error: "Session not visible from this sandboxed agent session: agent:main:other",
      });
      expect(check("send", "ops", policy)).toEqual({
        ok: false,
        status: "forbidden",
        error: "Session not visible from this sandboxed agent session.",
      });
    }
    expect(visibleTo("list", { visibility: "self", sandboxed: true })).toEqual(["self"]);
  });

  it("is pure: the same inputs give the same verdict, and nothing is changed", () => {
    const before = JSON.stringify([...byKey]);
    const a = check("status", "other", { visibility: "tree" });
    const b = check("status", "other", { visibility: "tree" });
    expect(a).toEqual(b);
    expect(JSON.stringify([...byKey])).toBe(before);
  });
});

describe("sessions_list and sessions_history agree on who is visible", () => {
  async function world(config: Record<string, unknown>, sandboxed = false) {
    const t = setup();
    const store = t.service.store;
    await t.service.ensure("agent:main:main");
    await store.create({
      key: "agent:main:subagent:c1",
      agentId: "main",
      spawnedBy: "agent:main:main",
      depth: 1,
    });
    await store.create({
      key: "agent:main:subagent:g1",
      agentId: "main",
      spawnedBy: "agent:main:subagent:c1",
      depth: 2,
    });
    await store.create({ key: "agent:main:other", agentId: "main" });
    await store.create({ key: "agent:ops:main", agentId: "ops" });
    for (const key of ["agent:main:subagent:c1", "agent:main:other", "agent:ops:main"])
      await store.append(key, [{ role: "user", content: `hello ${key}`, timestamp: Date.now() }]);
    return t.as("main", { config, sandboxed });
  }
  const ALL = [
    "agent:main:main",
    "agent:main:subagent:c1",
    "agent:main:subagent:g1",
    "agent:main:other",
    "agent:ops:main",
  ];
  const cases: Array<[string, Record<string, unknown>, boolean, string[]]> = [
    ["self", { visibility: "self" }, false, ["agent:main:main"]],
    ["tree", { visibility: "tree" }, false, ALL.slice(0, 3)],
    ["agent", { visibility: "agent" }, false, ALL.slice(0, 4)],
    ["all without agent-to-agent", { visibility: "all" }, false, ALL.slice(0, 4)],
    ["all with agent-to-agent", { visibility: "all", agentToAgent: { enabled: true } }, false, ALL],
    ["all, sandboxed", { visibility: "all", agentToAgent: { enabled: true } }, true, ALL.slice(0, 3)],
  ];
  for (const [name, config, sandboxed, visible] of cases)
    it(name, async () => {
      const caller = await world(config, sandboxed);
      const listed = (await caller.json("sessions_list")).sessions.map((s: { key: string }) =>
        s.key === "main" ? "agent:main:main" : s.key,
      );
      expect([...listed].sort()).toEqual([...visible].sort());
      for (const key of ALL) {
        const history = await caller.json("sessions_history", { sessionKey: key });
        expect(history.status === "forbidden" ? "hidden" : "visible").toBe(
          visible.includes(key) ? "visible" : "hidden",
        );
        if (history.status === "forbidden") expect(typeof history.error).toBe("string");
        else expect(history.sessionKey).toBe(key);
      }
    });

  it("an unknown session is named in the error", async () => {
    const caller = await world({ visibility: "all" });
    expect(await caller.json("sessions_history", { sessionKey: "agent:main:nope" })).toEqual({
      status: "error",
      error: "Session not found: agent:main:nope (use the full sessionKey from sessions_list)",
    });
  });
});
