import { once } from "node:events";
import { createToolset, parseSectionConfig } from "@clawtools/core";
import { describe, expect, it } from "vitest";
import { agentToAgentEvents, followUpsIdle, SessionsConfigSchema } from "../src/index.js";
import { createScriptedRunner, type ScriptedTurn } from "../src/testing.js";
import { gate, json, setup } from "./helpers.js";

const PEER = "agent:main:peer";
const MAIN = "agent:main:main";

/** The target answers the first message R1; each reply step answers "<role> answers <message>"; the announce says Final. */
function conversation(
  overrides: { reply?: (t: ScriptedTurn) => string | undefined; announce?: string } = {},
) {
  return (t: ScriptedTurn): string | Promise<string> => {
    const prompt = t.extraSystemPrompt ?? "";
    if (prompt.startsWith("Agent-to-agent message context:")) return "R1";
    if (prompt.startsWith("Agent-to-agent reply step:"))
      return overrides.reply?.(t) ?? `${t.sessionKey === PEER ? "target" : "requester"} answers ${t.message}`;
    if (prompt.startsWith("Agent-to-agent announce step:")) return overrides.announce ?? "Final";
    return `Done: ${t.message}`;
  };
}

async function peerSetup(options: Parameters<typeof setup>[0] = {}) {
  const t = setup({ visibility: "agent", ...options });
  await t.service.store.create({ key: PEER, agentId: "main", channel: "telegram" });
  return t;
}

const turnsOf = (t: ReturnType<typeof setup>) =>
  [...t.runner().runs.values()].map((r) => ({
    sessionKey: r.sessionKey,
    message: r.message,
    prompt: r.extraSystemPrompt,
  }));

describe("sessions_send agent-to-agent follow-up", () => {
  it("plays up to 5 turns between requester and target, then the announce step, after the tool returned", async () => {
    const t = await peerSetup({ script: conversation() });
    const events = agentToAgentEvents(t.service);
    const announces: unknown[] = [];
    events.on("announce", (a) => announces.push(a));
    const done = once(events, "done");
    const sent = await t.json("sessions_send", { sessionKey: PEER, message: "Plan the release" });
    expect(sent).toEqual({
      runId: "run-1",
      status: "ok",
      reply: "R1",
      sessionKey: PEER,
      delivery: { status: "pending", mode: "announce" },
    });
    expect(await done).toEqual([{ targetSessionKey: PEER, turns: 5, announced: true }]);
    const turns = turnsOf(t);
    expect(turns[0]).toEqual({
      sessionKey: PEER,
      message: "Plan the release",
      prompt: `Agent-to-agent message context:\nAgent 1 (requester) session: ${MAIN}.\nAgent 2 (target) session: ${PEER}.`,
    });
    expect(turns.slice(1).map((r) => [r.sessionKey, r.message])).toEqual([
      [MAIN, "R1"],
      [PEER, "requester answers R1"],
      [MAIN, "target answers requester answers R1"],
      [PEER, "requester answers target answers requester answers R1"],
      [MAIN, "target answers requester answers target answers requester answers R1"],
      [PEER, "Agent-to-agent announce step."],
    ]);
    expect(turns[1]!.prompt).toBe(
      [
        "Agent-to-agent reply step:",
        "Current agent: Agent 1 (requester).",
        "Turn 1 of 5.",
        `Agent 1 (requester) session: ${MAIN}.`,
        `Agent 2 (target) session: ${PEER}.`,
        "Agent 2 (target) channel: telegram.",
        'If you want to stop the ping-pong, reply exactly "REPLY_SKIP".',
      ].join("\n"),
    );
    expect(turns[2]!.prompt).toContain("Current agent: Agent 2 (target).\nTurn 2 of 5.");
    expect(turns[6]!.prompt).toBe(
      [
        "Agent-to-agent announce step:",
        `Agent 1 (requester) session: ${MAIN}.`,
        `Agent 2 (target) session: ${PEER}.`,
        "Agent 2 (target) channel: telegram.",
        "Original request: Plan the release",
        "Round 1 reply: R1",
        "Latest reply: requester answers target answers requester answers target answers requester answers R1",
        'If you want to remain silent, reply exactly "ANNOUNCE_SKIP".',
        "Any other reply will be posted to the target channel.",
        "After this reply, the agent-to-agent conversation is over.",
      ].join("\n"),
    );
    expect(announces).toEqual([
      { requesterSessionKey: MAIN, targetSessionKey: PEER, channel: "telegram", message: "Final" },
    ]);
    // the turns are real runs in both sessions' transcripts
    const mainText = (await t.service.store.history(MAIN)).map((m) => m.role);
    expect(mainText).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
  });

  it("runs in the background: the tool answers while the first ping-pong turn is still going", async () => {
    // the requester's first turn waits for the gate
    const turn = gate();
    const started = gate<void>();
    const script = conversation();
    const t = await peerSetup({
      script: (s) => {
        if (!s.extraSystemPrompt?.startsWith("Agent-to-agent reply step:") || s.sessionKey !== MAIN)
          return script(s);
        started.open();
        return turn.promise;
      },
    });
    const done = once(agentToAgentEvents(t.service), "done");
    const sent = await t.json("sessions_send", { sessionKey: PEER, message: "hi" });
    expect(sent).toMatchObject({ status: "ok", reply: "R1" });
    await started.promise;
    expect(turnsOf(t).map((r) => r.sessionKey)).toEqual([PEER, MAIN]); // turn 1 started, not finished
    turn.open("REPLY_SKIP");
    expect(await done).toEqual([{ targetSessionKey: PEER, turns: 0, announced: true }]);
  });

  it("stops the ping-pong at REPLY_SKIP and still runs the announce step", async () => {
    const t = await peerSetup({
      script: conversation({ reply: (s) => (s.sessionKey === PEER ? "  REPLY_SKIP \n" : undefined) }),
    });
    const done = once(agentToAgentEvents(t.service), "done");
    await t.json("sessions_send", { sessionKey: PEER, message: "hi" });
    expect(await done).toEqual([{ targetSessionKey: PEER, turns: 1, announced: true }]);
    const turns = turnsOf(t);
    expect(turns.map((r) => r.sessionKey)).toEqual([PEER, MAIN, PEER, PEER]);
    expect(turns[3]!.prompt).toContain("Round 1 reply: R1\nLatest reply: requester answers R1\n");
  });

  it("ANNOUNCE_SKIP keeps the exchange silent", async () => {
    const t = await peerSetup({
      script: conversation({ announce: "ANNOUNCE_SKIP" }),
      agentToAgent: { maxPingPongTurns: 1 },
    });
    const events = agentToAgentEvents(t.service);
    let announced = 0;
    events.on("announce", () => announced++);
    const done = once(events, "done");
    await t.json("sessions_send", { sessionKey: PEER, message: "hi" });
    expect(await done).toEqual([{ targetSessionKey: PEER, turns: 1, announced: false }]);
    expect(announced).toBe(0);
    expect(turnsOf(t).map((r) => r.prompt?.split("\n")[0])).toEqual([
      "Agent-to-agent message context:",
      "Agent-to-agent reply step:",
      "Agent-to-agent announce step:",
    ]);
    expect(turnsOf(t)[1]!.prompt).toContain("Turn 1 of 1.");
  });

  it("maxPingPongTurns 0 goes straight to the announce; the config refuses more than 5", async () => {
    const t = await peerSetup({ script: conversation(), agentToAgent: { maxPingPongTurns: 0 } });
    const done = once(agentToAgentEvents(t.service), "done");
    await t.json("sessions_send", { sessionKey: PEER, message: "hi" });
    expect(await done).toEqual([{ targetSessionKey: PEER, turns: 0, announced: true }]);
    expect(turnsOf(t).map((r) => r.sessionKey)).toEqual([PEER, PEER]);
    expect(() =>
      parseSectionConfig("sessions", SessionsConfigSchema, { agentToAgent: { maxPingPongTurns: 6 } }),
    ).toThrow(/maxPingPongTurns/);
  });

  it("with timeoutSeconds 0 waits for the target's run first, then follows up", async () => {
    const reply = gate();
    const script = conversation();
    const t = await peerSetup({
      script: (s) =>
        s.extraSystemPrompt?.startsWith("Agent-to-agent message context:") ? reply.promise : script(s),
      agentToAgent: { maxPingPongTurns: 2 },
    });
    const done = once(agentToAgentEvents(t.service), "done");
    const sent = await t.json("sessions_send", { sessionKey: PEER, message: "hi", timeoutSeconds: 0 });
    expect(sent).toMatchObject({ status: "accepted", runId: "run-1" });
    expect(turnsOf(t)).toHaveLength(1);
    reply.open("late R1");
    expect(await done).toEqual([{ targetSessionKey: PEER, turns: 2, announced: true }]);
    expect(turnsOf(t).map((r) => [r.sessionKey, r.message])).toEqual([
      [PEER, "hi"],
      [MAIN, "late R1"],
      [PEER, "requester answers late R1"],
      [PEER, "Agent-to-agent announce step."],
    ]);
  });

  it("no ping-pong when the caller sends to itself or names no session; the requester channel is named", async () => {
    const t = await peerSetup({ script: conversation() });
    const self = once(agentToAgentEvents(t.service), "done");
    await t.json("sessions_send", { sessionKey: MAIN, message: "note to self" });
    // MAIN has no channel: no announce turn either
    expect(await self).toEqual([{ targetSessionKey: MAIN, turns: 0, announced: false }]);
    expect(turnsOf(t).map((r) => r.sessionKey)).toEqual([MAIN]);

    // a caller whose context names no session: no requester, so no ping-pong
    const anonymous = createToolset({
      plugins: [t.plugin],
      context: {
        workspaceDir: t.workspaceDir,
        stateDir: t.stateDir,
        agentId: "main",
        messageChannel: "slack",
      },
      policy: { profile: "full" },
      senderIsOwner: true,
    });
    const send = anonymous.tools.find((x) => x.name === "sessions_send")!;
    const done = once(agentToAgentEvents(t.service), "done");
    json(await send.execute("c", { sessionKey: PEER, message: "from nowhere" }));
    expect(await done).toEqual([{ targetSessionKey: PEER, turns: 0, announced: true }]);
    const turns = turnsOf(t).slice(1);
    expect(turns[0]!.prompt).toBe(
      `Agent-to-agent message context:\nAgent 1 (requester) channel: slack.\nAgent 2 (target) session: ${PEER}.`,
    );
    expect(turns.map((r) => r.sessionKey)).toEqual([PEER, PEER]);
    await followUpsIdle(t.service);
  });

  it("a requester turn waits for the requester's live run to end (one run at a time in a session)", async () => {
    const childRun = gate();
    const secondWait = gate<void>();
    const script = conversation();
    let childKey = "";
    const t = setup({
      visibility: "all",
      noRunner: true,
      runner: ({ store }) => {
        const inner = createScriptedRunner({
          store,
          script: (s) => {
            if (s.message.includes("[Subagent Task]: coordinate")) return childRun.promise;
            return script(s);
          },
        });
        const waits = new Map<string, number>();
        return {
          ...inner,
          wait: (runId, timeoutMs) => {
            const n = (waits.get(runId) ?? 0) + 1;
            waits.set(runId, n);
            // the spawn's own watcher waits first; the follow-up's wait is the second
            if (n === 2 && runId === "run-1") secondWait.open();
            return inner.wait(runId, timeoutMs);
          },
        };
      },
    });
    await t.service.store.create({ key: PEER, agentId: "main" });
    const spawned = await t.json("sessions_spawn", { task: "coordinate" });
    childKey = spawned.childSessionKey;
    const done = once(agentToAgentEvents(t.service), "done");
    const sent = await t.as(childKey).json("sessions_send", { sessionKey: PEER, message: "hi" });
    expect(sent).toMatchObject({ status: "ok", reply: "R1" });
    await secondWait.promise; // the follow-up is waiting for the child's run
    childRun.open("child done");
    expect(await done).toEqual([{ targetSessionKey: PEER, turns: 5, announced: false }]);
    const child = (await t.service.store.history(childKey)).map((m) => m.role);
    // the child's own turn is complete before the first ping-pong message
    expect(child.slice(0, 4)).toEqual(["user", "assistant", "user", "assistant"]);
    const first = await t.service.store.history(childKey);
    expect(first[1]!.content).toEqual([{ type: "text", text: "child done" }]);
  });

  it("a target with no channel to post to gets the message and the ping-pong, but no announce turn (as 9.6)", async () => {
    const t = setup({ visibility: "agent", script: conversation(), agentToAgent: { maxPingPongTurns: 1 } });
    const quiet = "agent:main:quiet";
    await t.service.store.create({ key: quiet, agentId: "main" });
    const events = agentToAgentEvents(t.service);
    let announced = 0;
    events.on("announce", () => announced++);
    const done = once(events, "done");
    const sent = await t.json("sessions_send", { sessionKey: quiet, message: "Plan the release" });
    expect(sent).toMatchObject({ status: "ok", reply: "R1" });
    expect(await done).toEqual([{ targetSessionKey: quiet, turns: 1, announced: false }]);
    expect(announced).toBe(0);
    expect(turnsOf(t).map((r) => [r.sessionKey, r.message])).toEqual([
      [quiet, "Plan the release"],
      [MAIN, "R1"],
    ]);
    // the target's transcript holds the message and its reply, nothing more
    const target = await t.service.store.history(quiet);
    expect(target.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(target)).not.toContain("Agent-to-agent announce step.");
  });

  it("a failed or timed-out first reply ends the follow-up without an announce", async () => {
    const t = await peerSetup({
      script: (s) => {
        if (s.extraSystemPrompt?.startsWith("Agent-to-agent message context:")) throw new Error("model down");
        return "unexpected";
      },
    });
    const done = once(agentToAgentEvents(t.service), "done");
    const sent = await t.json("sessions_send", { sessionKey: PEER, message: "hi", timeoutSeconds: 0 });
    expect(sent.status).toBe("accepted");
    expect(await done).toEqual([{ targetSessionKey: PEER, turns: 0, announced: false }]);
    expect(turnsOf(t)).toHaveLength(1);
  });
});
