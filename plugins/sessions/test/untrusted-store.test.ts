import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileRunRegistry, FileSessionStore } from "../src/index.js";
import { setup } from "./helpers.js";

// Stored state is untrusted input (issue 25): a file that cannot be read is set aside and rebuilt,
// and every id read back from the store is checked before it names a path.

const indexOf = (stateDir: string, agent = "main") =>
  path.join(stateDir, "agents", agent, "sessions", "sessions.json");

describe("a corrupt store is set aside and rebuilt with a warning", () => {
  it("sessions.json that is not JSON: the tools answer, the bad file is kept beside it under a timestamp", async () => {
    const warnings: string[] = [];
    const probe = setup();
    const store = new FileSessionStore(probe.stateDir, { onWarning: (m) => warnings.push(m) });
    const runs = new FileRunRegistry(probe.stateDir, { onWarning: (m) => warnings.push(m) });
    const t = setup({ store, runs });
    // a first session, then the index is torn (a full disk, an editor, another program)
    expect((await t.call("session_status", {})).isError).toBeFalsy();
    const file = indexOf(probe.stateDir);
    writeFileSync(file, '{"agent:main:main": {"key": "agent:main:ma');

    const listed = await t.json("sessions_list", {});
    expect(listed).toMatchObject({ count: 1 });
    expect(listed.sessions[0].key).toBe("main"); // the caller's session, created again
    const aside = readdirSync(path.dirname(file)).filter((n) => n.startsWith("sessions.json.corrupt-"));
    expect(aside).toHaveLength(1);
    expect(aside[0]).toMatch(/^sessions\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    expect(readFileSync(path.join(path.dirname(file), aside[0]!), "utf8")).toBe(
      '{"agent:main:main": {"key": "agent:main:ma',
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${file} could not be read (`);
    expect(warnings[0]).toContain(
      `; it was set aside as ${path.join(path.dirname(file), aside[0]!)} and rebuilt empty`,
    );
    expect(JSON.parse(readFileSync(file, "utf8"))).toHaveProperty(["agent:main:main"]);
  });

  it("runs.json holding an array or null is set aside too; spawning works again", async () => {
    const warnings: string[] = [];
    const probe = setup();
    const runs = new FileRunRegistry(probe.stateDir, { onWarning: (m) => warnings.push(m) });
    const t = setup({ runs, store: new FileSessionStore(probe.stateDir) });
    mkdirSync(path.dirname(runs.file), { recursive: true });
    for (const bad of ["[]", "null"]) {
      writeFileSync(runs.file, bad);
      expect(await t.json("subagents", {})).toMatchObject({ status: "ok", total: 0 });
    }
    expect(warnings.map((w) => w.split(" (")[1]?.split(")")[0])).toEqual([
      "not a JSON object",
      "not a JSON object",
    ]);
    expect((await t.json("sessions_spawn", { task: "again" })).status).toBe("accepted");
    await t.service.idle();
    expect((await t.json("subagents", {})).recent[0]).toMatchObject({ status: "done" });
  });
});

describe("ids read back from the store are checked before they name a path", () => {
  it('a sessionId of "../../../../escape" in sessions.json is never used: nothing is written outside the state dir', async () => {
    const t = setup();
    await t.call("session_status", {});
    const file = indexOf(t.stateDir);
    const index = JSON.parse(readFileSync(file, "utf8"));
    const now = Date.now();
    index["agent:main:evil"] = {
      key: "agent:main:evil",
      agentId: "main",
      sessionId: "../../../../escape",
      createdAt: now,
      updatedAt: now,
    };
    writeFileSync(file, JSON.stringify(index));
    const outside = path.resolve(path.dirname(file), "../../../../escape.jsonl");

    // not listed, not readable, not writable: the entry is treated as absent
    const listed = await t.json("sessions_list", {});
    expect(listed.sessions.map((s: { key: string }) => s.key)).not.toContain("agent:main:evil");
    expect(await t.json("sessions_history", { sessionKey: "agent:main:evil" })).toEqual({
      status: "error",
      error: "Session not found: agent:main:evil (use the full sessionKey from sessions_list)",
    });
    await expect(
      t.service.store.append("agent:main:evil", [{ role: "user", content: "x", timestamp: now }]),
    ).rejects.toThrow("Session not found: agent:main:evil");
    // the store rebuilds the entry with an id of its own when the session is used again
    const again = await t.service.store.create({ key: "agent:main:evil", agentId: "main" });
    expect(again.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(path.resolve(t.stateDir, "../escape.jsonl"))).toBe(false);
  });

  it("an agent id or sessionId that is a path is refused by name", async () => {
    const t = setup();
    const store = t.service.store as FileSessionStore;
    await expect(store.get("agent:../../..:main")).rejects.toThrow(
      'Invalid agent id "../../.." in a session key or store: expected [A-Za-z0-9][A-Za-z0-9_-]{0,63}',
    );
    await expect(store.create({ key: "agent:main:x", agentId: "main", sessionId: "../x" })).rejects.toThrow(
      'Invalid sessionId "../x" in the session store: expected a plain name [A-Za-z0-9._-]',
    );
    const history = await t.json("sessions_history", { sessionKey: "agent:..:main" });
    expect(history.status).toBe("error");
    expect(existsSync(path.join(t.stateDir, "sessions"))).toBe(false);
    // a directory under agents/ that is no agent's id is not listed
    mkdirSync(path.join(t.stateDir, "agents", ".hidden", "sessions"), { recursive: true });
    const keys = (await t.json("sessions_list", {})).sessions.map((s: { key: string }) => s.key);
    expect(keys).toEqual(keys.filter((k: string) => k === "main"));
  });
});
