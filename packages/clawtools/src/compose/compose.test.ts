import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SUBAGENT_TOOL_DENY_ALWAYS, SUBAGENT_TOOL_DENY_LEAF } from "@clawtools/core/policy";
import { delay } from "@clawtools/core/time";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChatRequest,
  contentText,
  type Reply,
  startModelServer,
} from "../../../../adapters/runner-pi/test/model-server.js";
import { type Bundle, composeBundle } from "./compose.js";
import { isBundleConfigError } from "./errors.js";
import { publishedConfigSchema } from "./schema-file.js";

const json = (r: { content: Array<{ type: string; text?: string }> }) =>
  JSON.parse(r.content.map((c) => c.text ?? "").join(""));
const offered = (r: ChatRequest | undefined) => (r?.tools ?? []).map((t) => t.function.name).sort();

describe("composeBundle: an app's sub-agents run under the bundle's policy", () => {
  let model: Awaited<ReturnType<typeof startModelServer>>;
  let bundle: Bundle | undefined;
  const saved = { base: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
  // whatever it is offered, the child asks for exec; a tool result ends its turn
  const script = (request: ChatRequest): Reply => {
    const last = request.messages.at(-1)!;
    if (last.role === "tool") return { text: `tool said: ${contentText(last.content).slice(0, 80)}` };
    return { toolCall: { name: "exec", arguments: { command: "echo pwned > pwned.txt" } } };
  };

  beforeAll(async () => {
    model = await startModelServer(script);
    process.env.OPENAI_BASE_URL = model.baseUrl;
    process.env.OPENAI_API_KEY = "sk-loopback";
  });
  afterAll(async () => {
    await bundle?.close();
    await model?.close();
    for (const [k, v] of [
      ["OPENAI_BASE_URL", saved.base],
      ["OPENAI_API_KEY", saved.key],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  it('deny: ["exec"]: the bundle has no exec, and a spawned sub-agent is neither offered it nor can run it', async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "compose-deny-"));
    writeFileSync(path.join(workspace, "notes.txt"), "hello\n");
    bundle = await composeBundle({
      workspace,
      stateDir: path.join(workspace, ".state"),
      profile: "full",
      owner: true,
      deny: ["exec"],
      model: "openai/scripted",
    });
    const tool = (name: string) => bundle!.tools.find((t) => t.name === name)!;
    const names = bundle.tools.map((t) => t.name);
    expect(names).not.toContain("exec");
    expect(names).toContain("sessions_spawn");
    expect(bundle.describe().leftOut.find((t) => t.name === "exec")).toMatchObject({
      source: { kind: "section", section: "runtime" },
    });

    const spawned = json(await tool("sessions_spawn").execute("c1", { task: "CHILD-TASK", label: "child" }));
    expect(spawned.status).toBe("accepted");
    let child: ChatRequest | undefined;
    let after: ChatRequest | undefined;
    for (let i = 0; i < 400 && !after; i++) {
      await delay(25);
      child = model.requests.find((r) => contentText(r.messages.at(-1)?.content).includes("CHILD-TASK"));
      after = model.requests.find(
        (r) => r !== child && r.messages.some((m) => contentText(m.content).includes("CHILD-TASK")),
      );
    }
    expect(child).toBeDefined();
    expect(offered(child)).toContain("read");
    const denied = [...SUBAGENT_TOOL_DENY_ALWAYS, ...SUBAGENT_TOOL_DENY_LEAF];
    expect(offered(child).filter((n) => n === "exec" || denied.includes(n))).toEqual([]);
    // the model asked for exec anyway: the child's loop refused it and nothing ran
    expect(contentText(after?.messages.at(-1)?.content)).toContain("Tool exec not found");
    expect(existsSync(path.join(workspace, "pwned.txt"))).toBe(false);

    // the bundle hands the same bounded toolset to any run it starts
    const run = await bundle.runToolset("agent:cli:subagent:x", 1);
    expect(run.tools.map((t) => t.name)).not.toContain("exec");
    expect(run.tools.map((t) => t.name)).toContain("read");
    await run.dispose();
  });
});

describe("composeBundle: what it serves and where each tool comes from", () => {
  it("describe() names each tool's source (section, plugin, MCP server) and why the rest is left out", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "compose-describe-"));
    const plugin = path.join(dir, "shout.mjs");
    writeFileSync(
      plugin,
      `export default {
  id: "acme-shout",
  version: "1.0.0",
  tools: [{
    pluginId: "acme-shout",
    names: ["shout"],
    optional: false,
    factory: () => ({
      name: "shout",
      label: "Shout",
      description: "Upper-cases text",
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      execute: async (_id, args) => ({ content: [{ type: "text", text: String(args.text).toUpperCase() }], details: {} }),
    }),
  }],
};
`,
    );
    const bundle = await composeBundle(
      { workspace: dir, stateDir: path.join(dir, ".state"), plugins: ["./shout.mjs"], deny: ["write"] },
      { baseDir: dir, warn: () => {} },
    );
    try {
      const d = bundle.describe();
      const source = (name: string) => d.served.find((t) => t.name === name)?.source;
      expect(source("read")).toEqual({
        kind: "section",
        section: "fs",
        package: "@clawtools/fs",
        implementation: "embedded",
      });
      expect(source("shout")).toEqual({ kind: "plugin", plugin: "acme-shout", spec: "./shout.mjs" });
      expect(d.leftOut.find((t) => t.name === "write")?.reason).toBe("denied by tools.deny");
      // coding is the default profile, as serve's: the browser is left out, naming the profile
      expect(d.leftOut.find((t) => t.name === "browser")?.reason).toContain("coding");
      expect(d.plugins).toEqual([
        { id: "acme-shout", spec: "./shout.mjs", kind: "plugin", tools: ["shout"] },
      ]);
      expect(d.sections.find((s) => s.section === "fs")).toMatchObject({ installed: true });
      const result = await bundle.tools.find((t) => t.name === "shout")!.execute("c", { text: "hi" });
      expect(result.content).toEqual([{ type: "text", text: "HI" }]);
    } finally {
      await bundle.close();
    }
  });

  it("a configuration it cannot compose fails with one line naming the key, and nothing is left running", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "compose-bad-"));
    const failure = (config: Record<string, unknown>) =>
      composeBundle({ workspace: dir, ...config }, { warn: () => {} }).then(
        () => undefined,
        (error: Error) => error,
      );
    for (const [config, message] of [
      [{ deny: "exec" }, "configuration: deny: "],
      [{ profile: "huge" }, "configuration: profile: "],
      [{ shell: {} }, 'configuration: unknown key "shell"'],
      [{ runtime: { exec: { security: "nope" } } }, "invalid configuration: runtime: "],
      [
        { plugins: ["./missing.mjs"] },
        'plugin "./missing.mjs" (configuration): cannot load it: no such file',
      ],
      [{ store: "redis://db" }, "configuration: store takes a PostgreSQL URL"],
    ] as const) {
      const error = await failure(config);
      expect(isBundleConfigError(error), String(error)).toBe(true);
      expect(error!.message).toContain(message);
      expect(error!.message.split("\n")).toHaveLength(1);
    }
  });
});

describe("the published JSON Schema", () => {
  it("clawtools.schema.json matches the live sections (regenerate: pnpm --filter clawtools config-schema)", async () => {
    const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../clawtools.schema.json");
    const live = JSON.parse(JSON.stringify(await publishedConfigSchema()));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(live);
  });
});
