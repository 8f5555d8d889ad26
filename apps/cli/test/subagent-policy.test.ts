import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SUBAGENT_TOOL_DENY_ALWAYS, SUBAGENT_TOOL_DENY_LEAF } from "@clawtools/core/policy";
import { delay } from "@clawtools/core/time";
import { createClawtools } from "clawtools";
import { runPolicy, runToolset } from "clawtools/compose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChatRequest,
  contentText,
  type Reply,
  startModelServer,
} from "../../../adapters/runner-pi/test/model-server.js";
import { parseCommonOptions } from "../src/options.js";
import { buildToolset, type CliToolset } from "../src/toolset.js";

// Policy follows the work (issue 25): every run the server starts on the operator's behalf is
// bounded by the operator's policy and core's sub-agent lists, and is never offered what it may not call.

const json = (r: { content: Array<{ type: string; text?: string }> }) =>
  JSON.parse(r.content.map((c) => c.text ?? "").join(""));
const names = (r: ChatRequest | undefined) => (r?.tools ?? []).map((t) => t.function.name).sort();
const DENIED_TO_LEAVES = [...SUBAGENT_TOOL_DENY_ALWAYS, ...SUBAGENT_TOOL_DENY_LEAF];

describe("runPolicy / runToolset (the toolset of a run the server starts)", () => {
  it("a leaf sub-agent is offered none of the tools core's sub-agent lists deny, under every profile", async () => {
    const clawtools = await createClawtools();
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-child-"));
    const context = { workspaceDir: workspace, stateDir: path.join(workspace, ".state"), agentId: "cli" };
    try {
      for (const profile of ["full", "coding", "messaging"]) {
        const set = runToolset({
          plugins: clawtools.tools.plugins(),
          context,
          sessionKey: "agent:cli:subagent:1",
          depth: 1,
          operator: { profile },
        });
        const offered = set.tools.map((t) => t.name);
        expect(offered.filter((n) => DENIED_TO_LEAVES.includes(n))).toEqual([]);
        for (const n of DENIED_TO_LEAVES)
          if (
            set.diagnostics.some((d) => d.toolId === n && /^(not allowed|denied) by subagent/.test(d.reason))
          )
            expect(offered).not.toContain(n);
        await set.dispose();
      }
    } finally {
      await clawtools.tools.dispose();
    }
  });

  it("the operator's deny bounds a child at any depth; a child that may spawn keeps sessions_spawn", async () => {
    const clawtools = await createClawtools();
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-child-"));
    const context = {
      workspaceDir: workspace,
      stateDir: path.join(workspace, ".state"),
      agentId: "cli",
      config: { sessions: { maxSpawnDepth: 3 } },
    };
    try {
      for (const depth of [0, 1, 2, 3]) {
        const set = runToolset({
          plugins: clawtools.tools.plugins(),
          context,
          sessionKey: depth === 0 ? "agent:cli:main" : `agent:cli:subagent:${depth}`,
          depth,
          operator: { profile: "full", deny: ["exec", "group:web"] },
        });
        const offered = set.tools.map((t) => t.name);
        expect(offered).not.toContain("exec");
        expect(offered).not.toContain("web_fetch");
        expect(offered).toContain("read");
        if (depth >= 1) for (const n of SUBAGENT_TOOL_DENY_ALWAYS) expect(offered).not.toContain(n);
        // depth 3 is the last allowed (maxSpawnDepth 3): a leaf
        // (the discovered sessions section has no runner, so spawn is left out for that reason only)
        const spawnRefusal = set.diagnostics.find((d) => d.toolId === "sessions_spawn")?.reason;
        if (depth === 1 || depth === 2) expect(spawnRefusal).toContain("no agent runner");
        if (depth === 1 || depth === 2) expect(offered).toContain("subagents");
        if (depth === 3) for (const n of SUBAGENT_TOOL_DENY_LEAF) expect(offered).not.toContain(n);
        await set.dispose();
      }
    } finally {
      await clawtools.tools.dispose();
    }
  });

  it("a top-level run (cron turn, follow-up) gets the operator's policy and no sub-agent step", () => {
    expect(runPolicy({ profile: "coding", deny: ["exec"] }, 0)).toEqual({
      profile: "coding",
      global: { deny: ["exec"] },
    });
    expect(runPolicy({ allow: ["read"] }, 1).subagent?.deny).toEqual(DENIED_TO_LEAVES);
  });
});

describe("serve's toolset with --deny exec and a model (the CLI path, in process)", () => {
  let model: Awaited<ReturnType<typeof startModelServer>>;
  const saved = { base: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
  let set: CliToolset | undefined;

  // a child tries exec whatever it is offered; a tool result ends its turn
  const script = (request: ChatRequest): Reply => {
    const last = request.messages.at(-1)!;
    if (last.role === "tool") return { text: `tool said: ${contentText(last.content).slice(0, 80)}` };
    return { toolCall: { name: "exec", arguments: { command: "echo pwned > pwned.txt" } } };
  };

  // polls the model's requests until one matches (an event that proves a step happened)
  const modelGets = async (what: string, match: (r: ChatRequest) => boolean): Promise<ChatRequest> => {
    for (let i = 0; i < 400; i++) {
      const found = model.requests.find(match);
      if (found) return found;
      await delay(25);
    }
    throw new Error(`the model never received ${what}`);
  };

  beforeAll(async () => {
    model = await startModelServer(script);
    process.env.OPENAI_BASE_URL = model.baseUrl;
    process.env.OPENAI_API_KEY = "sk-loopback";
  });
  afterAll(async () => {
    await set?.close();
    await model?.close();
    for (const [k, v] of [
      ["OPENAI_BASE_URL", saved.base],
      ["OPENAI_API_KEY", saved.key],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  it("a sub-agent and a cron agentTurn are offered neither exec nor the sub-agent-denied tools, and cannot run exec", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "cli-deny-"));
    writeFileSync(path.join(workspace, "notes.txt"), "hello\n");
    const options = parseCommonOptions(
      [
        "--workspace",
        workspace,
        "--state-dir",
        path.join(workspace, ".state"),
        "--profile",
        "full",
        "--owner",
        "--deny",
        "exec",
        "--model",
        "openai/scripted",
      ],
      "serve",
    );
    set = await buildToolset(options);
    const tool = (name: string) => set!.tools.find((t) => t.name === name)!;
    expect(set.tools.map((t) => t.name)).not.toContain("exec");

    const spawned = json(await tool("sessions_spawn").execute("c1", { task: "CHILD-TASK", label: "child" }));
    expect(spawned.status).toBe("accepted");
    let subagents = json(await tool("subagents").execute("c2", {}));
    for (let i = 0; i < 200 && subagents.active.length > 0; i++) {
      await delay(25);
      subagents = json(await tool("subagents").execute("c2", {}));
    }
    const child = model.requests.find((r) => contentText(r.messages.at(-1)?.content).includes("CHILD-TASK"));
    expect(child).toBeDefined();
    const offered = names(child);
    expect(offered).toContain("read");
    expect(offered.filter((n) => n === "exec" || DENIED_TO_LEAVES.includes(n))).toEqual([]);
    // the model asked for exec anyway: the loop refused it, nothing ran
    const after = model.requests.find(
      (r) => r !== child && r.messages.some((m) => contentText(m.content).includes("CHILD-TASK")),
    );
    expect(contentText(after?.messages.at(-1)?.content)).toContain("Tool exec not found");

    const job = json(
      await tool("cron").execute("c3", {
        action: "add",
        job: {
          name: "nightly",
          schedule: { kind: "every", everyMs: 3_600_000 },
          payload: { kind: "agentTurn", message: "CRON-TASK" },
        },
      }),
    );
    await tool("cron").execute("c4", { action: "run", jobId: job.id });
    const cron = await modelGets("the cron turn", (r) =>
      contentText(r.messages.at(-1)?.content).includes("CRON-TASK"),
    );
    expect(names(cron)).toContain("read");
    expect(names(cron)).not.toContain("exec");
    // the cron turn asked for exec too: its answer (refused) reaching the model proves the call
    // was handled, so the file's absence below is not just "not yet"
    const cronAfter = await modelGets(
      "the cron turn's tool result",
      (r) =>
        r.messages.at(-1)?.role === "tool" &&
        r.messages.some((m) => contentText(m.content).includes("CRON-TASK")),
    );
    expect(contentText(cronAfter.messages.at(-1)?.content)).toContain("Tool exec not found");
    const { existsSync } = await import("node:fs");
    expect(existsSync(path.join(workspace, "pwned.txt"))).toBe(false);
  });
});
