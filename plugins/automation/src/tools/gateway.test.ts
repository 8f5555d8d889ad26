import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type AgentToolResult, createToolset, Type } from "@clawtools/core";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers.js";
import { AutomationConfigSchema } from "../config.js";
import { REDACTED } from "../gateway/config-doc.js";
import { createAutomationPlugin } from "../plugin.js";
import { NO_RESTART_HOOK, NO_UPDATER, RESTART_DISABLED, WRITES_DISABLED } from "./gateway-schema.js";

const AppSchema = Type.Object(
  {
    web: Type.Optional(
      Type.Object(
        {
          fetch: Type.Optional(
            Type.Object(
              {
                maxChars: Type.Optional(Type.Integer({ minimum: 100 })),
                apiKey: Type.Optional(Type.String()),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    runtime: Type.Optional(
      Type.Object(
        {
          exec: Type.Optional(
            Type.Object({ security: Type.Optional(Type.String()) }, { additionalProperties: false }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    agents: Type.Optional(
      Type.Array(Type.Object({ id: Type.String(), model: Type.Optional(Type.String()) })),
    ),
    automation: Type.Optional(AutomationConfigSchema),
  },
  { additionalProperties: false },
);

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const body = (r: AgentToolResult<unknown>) => JSON.parse(text(r));
const errorOf = (r: AgentToolResult<unknown>) =>
  r.isError ? String(body(r).error) : `not an error: ${text(r)}`;

function setup(options: { writes?: boolean; restart?: boolean; hooks?: boolean } = {}) {
  const dir = tempDir();
  const file = path.join(dir, "clawtools.json");
  const config = {
    web: { fetch: { maxChars: 5000, apiKey: "sk-secret" } },
    runtime: { exec: { security: "allowlist" } },
    agents: [{ id: "main", model: "a/b" }],
    automation: {
      gateway: { allowConfigWrites: options.writes ?? false, allowRestart: options.restart ?? false },
    },
  };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  const restarts: unknown[] = [];
  const plugin = createAutomationPlugin({
    appConfig: {
      config,
      path: file,
      schema: AppSchema,
      ...(options.hooks ? { restart: (request) => void restarts.push(request) } : {}),
    },
  });
  const set = createToolset({
    plugins: [plugin],
    context: { workspaceDir: dir, stateDir: path.join(dir, "state"), config, sessionKey: "agent:main:main" },
    policy: { profile: "full" },
    senderIsOwner: true,
  });
  const tool = set.tools.find((t) => t.name === "gateway")!;
  const call = (args: Record<string, unknown>) =>
    tool.execute("g", args as never) as Promise<AgentToolResult<unknown>>;
  const fileText = () => readFileSync(file, "utf8");
  return { call, file, fileText, restarts, set };
}

describe("gateway: reading", () => {
  it("config.get returns the configuration with secrets redacted and its hash", async () => {
    const { call, file, set } = setup();
    const result = body(await call({ action: "config.get" }));
    expect(result.ok).toBe(true);
    expect(result.result.config.web.fetch).toEqual({ maxChars: 5000, apiKey: REDACTED });
    expect(result.result.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.result.path).toBe(file);
    await set.dispose();
  });

  it("config.schema.lookup returns the JSON Schema of a path", async () => {
    const { call } = setup();
    expect(body(await call({ action: "config.schema.lookup", path: "web.fetch.maxChars" }))).toEqual({
      ok: true,
      result: { path: "web.fetch.maxChars", schema: { type: "integer", minimum: 100 } },
    });
    expect(
      body(await call({ action: "config.schema.lookup", path: "agents.0.model" })).result.schema,
    ).toEqual({ type: "string" });
    expect(errorOf(await call({ action: "config.schema.lookup", path: "web.nope" }))).toBe(
      "config path not found in schema: web.nope",
    );
    expect(errorOf(await call({ action: "config.schema.lookup" }))).toBe("path required");
  });
});

describe("gateway: writing", () => {
  it("is read-only by default: config.patch and config.apply are refused and nothing is written", async () => {
    const { call, fileText } = setup();
    const before = fileText();
    const { hash } = body(await call({ action: "config.get" })).result;
    expect(
      errorOf(
        await call({ action: "config.patch", raw: '{"web":{"fetch":{"maxChars":9000}}}', baseHash: hash }),
      ),
    ).toBe(WRITES_DISABLED("config.patch"));
    expect(errorOf(await call({ action: "config.apply", raw: "{}", baseHash: hash }))).toBe(
      WRITES_DISABLED("config.apply"),
    );
    expect(fileText()).toBe(before);
  });

  it("applies a valid patch atomically, keeping redacted secrets and merging arrays by id", async () => {
    const { call, fileText } = setup({ writes: true });
    const { hash, config } = body(await call({ action: "config.get" })).result;
    const patch = {
      web: { fetch: { maxChars: 9000, apiKey: config.web.fetch.apiKey } },
      agents: [{ id: "main", model: "c/d" }],
    };
    const result = body(await call({ action: "config.patch", raw: JSON.stringify(patch), baseHash: hash }));
    expect(result.ok).toBe(true);
    expect(result.hash).not.toBe(hash);
    const written = JSON.parse(fileText());
    expect(written.web.fetch).toEqual({ maxChars: 9000, apiKey: "sk-secret" });
    expect(written.agents).toEqual([{ id: "main", model: "c/d" }]);
    expect(body(await call({ action: "config.get" })).result.hash).toBe(result.hash);
  });

  it("refuses an invalid patch with the validation error, and writes nothing", async () => {
    const { call, file, fileText } = setup({ writes: true });
    const before = fileText();
    const mtime = statSync(file).mtimeMs;
    const { hash } = body(await call({ action: "config.get" })).result;
    const error = errorOf(
      await call({ action: "config.patch", raw: '{"web":{"fetch":{"maxChars":5}}}', baseHash: hash }),
    );
    expect(error).toBe(
      "gateway config.patch refused: invalid configuration (nothing written)\n  - web.fetch.maxChars: must be >= 100",
    );
    expect(errorOf(await call({ action: "config.patch", raw: "{nope", baseHash: hash }))).toMatch(
      /^raw must be valid JSON: /,
    );
    expect(errorOf(await call({ action: "config.patch", raw: '{"a":1}' }))).toBe(
      "baseHash required (take it from config.get)",
    );
    expect(fileText()).toBe(before);
    expect(statSync(file).mtimeMs).toBe(mtime);
  });

  it("refuses changes to protected paths (exec security, the gateway's own switches)", async () => {
    const { call, fileText } = setup({ writes: true });
    const before = fileText();
    const { hash } = body(await call({ action: "config.get" })).result;
    expect(
      errorOf(
        await call({
          action: "config.patch",
          raw: '{"runtime":{"exec":{"security":"full"}}}',
          baseHash: hash,
        }),
      ),
    ).toBe("gateway config.patch cannot change protected config paths: runtime.exec.security");
    expect(
      errorOf(
        await call({
          action: "config.patch",
          raw: '{"automation":{"gateway":{"allowRestart":true}}}',
          baseHash: hash,
        }),
      ),
    ).toBe("gateway config.patch cannot change protected config paths: automation.gateway.allowRestart");
    expect(fileText()).toBe(before);
  });

  it("of two concurrent patches with the same baseHash exactly one wins", async () => {
    const { call, fileText } = setup({ writes: true });
    const { hash } = body(await call({ action: "config.get" })).result;
    const results = await Promise.all([
      call({ action: "config.patch", raw: '{"web":{"fetch":{"maxChars":111}}}', baseHash: hash }),
      call({ action: "config.patch", raw: '{"web":{"fetch":{"maxChars":222}}}', baseHash: hash }),
    ]);
    const won = results.filter((r) => !r.isError);
    const lost = results.filter((r) => r.isError);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(errorOf(lost[0]!)).toMatch(
      new RegExp(
        `^config changed since baseHash ${hash.slice(0, 12)} \\(current hash [0-9a-f]{64}\\); run config.get and retry$`,
      ),
    );
    const winner = results.indexOf(won[0]!) === 0 ? 111 : 222;
    expect(JSON.parse(fileText()).web.fetch.maxChars).toBe(winner);
  });

  it("config.apply replaces the whole configuration", async () => {
    const { call, fileText } = setup({ writes: true });
    const { hash, config } = body(await call({ action: "config.get" })).result;
    const next = { ...config, agents: [] };
    expect(body(await call({ action: "config.apply", raw: JSON.stringify(next), baseHash: hash })).ok).toBe(
      true,
    );
    expect(JSON.parse(fileText())).toEqual({
      ...config,
      web: { fetch: { maxChars: 5000, apiKey: "sk-secret" } },
      agents: [],
    });
  });
});

describe("gateway: restart and update.run", () => {
  it("restart is refused unless enabled, and then calls the app's hook", async () => {
    expect(errorOf(await setup({ hooks: true }).call({ action: "restart" }))).toBe(RESTART_DISABLED);
    expect(errorOf(await setup({ restart: true }).call({ action: "restart" }))).toBe(NO_RESTART_HOOK);
    const { call, restarts } = setup({ restart: true, hooks: true });
    expect(body(await call({ action: "restart", delayMs: 999_999, reason: "new config" }))).toEqual({
      ok: true,
      delayMs: 60_000,
      mode: "hook",
    });
    expect(restarts).toEqual([{ delayMs: 60_000, reason: "new config", sessionKey: "agent:main:main" }]);
  });

  it("update.run is refused with the reason when the app supplies no updater", async () => {
    expect(errorOf(await setup().call({ action: "update.run" }))).toBe(NO_UPDATER);
  });
});
