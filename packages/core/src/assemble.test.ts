import { describe, expect, it } from "vitest";
import { createToolset } from "./assemble.js";
import { type ClawtoolsPlugin, definePlugin } from "./plugin.js";
import { resetPolicyWarnings } from "./policy/pipeline.js";
import { Type } from "./schema.js";
import type { AnyAgentTool } from "./tool.js";

const tool = (
  name: string,
  parameters: object = Type.Object({ path: Type.String({ pattern: "^a" }) }),
): AnyAgentTool => ({
  name,
  label: name,
  description: `${name} tool`,
  parameters,
  execute: async (_id, params) => ({ content: [{ type: "text", text: `${name} ran` }], details: params }),
});

const fs = definePlugin({
  id: "@clawtools/fs",
  version: "1.0.0",
  section: "fs",
  tools: [
    {
      names: ["write", "read", "apply_patch"],
      factory: () => [tool("write"), tool("read"), tool("apply_patch")],
    },
    { names: ["grep"], factory: () => tool("grep"), meta: { profiles: ["coding"], readOnly: true } },
  ],
});
const extra = definePlugin({
  id: "acme",
  version: "1.0.0",
  tools: [
    { names: ["acme_lookup"], factory: () => tool("acme_lookup") },
    { names: ["acme_secret"], optional: true, factory: () => tool("acme_secret") },
    { names: ["acme_admin"], factory: () => ({ ...tool("acme_admin"), ownerOnly: true }) },
  ],
});

describe("createToolset", () => {
  it("orders core tools by catalog, then plugin tools, and drops apply_patch for non-OpenAI providers", () => {
    const set = createToolset({ plugins: [fs, extra], provider: "anthropic" });
    expect(set.tools.map((t) => t.name)).toEqual(["read", "write", "grep", "acme_lookup"]);
    const messages = set.diagnostics.map((d) => d.message).join("\n");
    expect(messages).toContain("fs/apply_patch: offered to OpenAI providers only");
    expect(messages).toContain("acme_admin: owner-only tool and the sender is not the owner");
    expect(createToolset({ plugins: [fs], provider: "openai" }).tools.map((t) => t.name)).toContain(
      "apply_patch",
    );
    expect(
      createToolset({
        plugins: [fs],
        provider: "gemini",
        policy: { global: { allow: ["read", "apply_patch"] } },
      }).tools.map((t) => t.name),
    ).toEqual(["read", "apply_patch"]);
  });

  it("keeps plugin tools that declare the profile and reports each policy removal with its step", () => {
    resetPolicyWarnings();
    const set = createToolset({
      plugins: [fs, extra],
      provider: "openai",
      policy: { profile: "coding", agentId: "main", agent: { deny: ["write"] } },
    });
    // apply_patch follows write: denying write denies it too.
    expect(set.tools.map((t) => t.name)).toEqual(["read", "grep"]);
    const messages = set.diagnostics.map((d) => d.message);
    expect(messages).toContain("acme/acme_lookup: not allowed by tools.profile (coding)");
    expect(messages).toContain("fs/write: denied by agents.main.tools.deny");
    expect(messages).toContain("fs/apply_patch: denied by agents.main.tools.deny");
  });

  it("unlocks optional plugin tools only when an allowlist names them, and warns about unknown entries", () => {
    resetPolicyWarnings();
    expect(createToolset({ plugins: [extra] }).tools.map((t) => t.name)).toEqual(["acme_lookup"]);
    const set = createToolset({
      plugins: [extra],
      policy: { global: { allow: ["acme_secret", "nonesuch"] } },
    });
    expect(set.tools.map((t) => t.name)).toEqual(["acme_secret"]);
    expect(set.warnings).toEqual([
      "tools: tools.allow allowlist contains unknown entries (nonesuch). These entries won't match any tool unless the plugin is enabled.",
    ]);
  });

  it("does not warn about a profile's own tools that were left out earlier (owner-only, unavailable here)", () => {
    resetPolicyWarnings();
    const coding = definePlugin({
      id: "coding-extras",
      version: "1.0.0",
      tools: [
        {
          names: ["owner_tool"],
          factory: () => tool("owner_tool"),
          meta: { profiles: ["coding"], ownerOnly: true },
        },
        { names: ["plain_tool"], factory: () => tool("plain_tool"), meta: { profiles: ["coding"] } },
      ],
    });
    const set = createToolset({ plugins: [coding], policy: { profile: "coding" } });
    expect(set.tools.map((t) => t.name)).toEqual(["plain_tool"]);
    expect(set.warnings).toEqual([]);
    // a name the registry does not hold is still reported
    const named = createToolset({
      plugins: [coding],
      policy: { profile: "coding", global: { allow: ["plain_tool", "owner_tool", "nonesuch"] } },
    });
    expect(named.warnings).toEqual([
      "tools: tools.allow allowlist contains unknown entries (owner_tool, nonesuch). These entries won't match any tool unless the plugin is enabled.",
    ]);
  });

  it("gives owners their owner-only tools and normalises schemas for the provider while validating with the original", async () => {
    const owner = createToolset({ plugins: [extra], senderIsOwner: true, provider: "gemini" });
    const admin = owner.tools.find((t) => t.name === "acme_admin")!;
    expect(admin.parameters).toEqual({
      type: "object",
      properties: { path: { type: "string", description: "Constraints: pattern ^a." } },
      required: ["path"],
    });
    const refused = await admin.execute("c", { path: "zzz" });
    expect(refused.isError).toBe(true);
    expect((refused.details as { error: string }).error).toContain('path: must match pattern "^a"');
    expect((await admin.execute("c", { path: "abc" })).content).toEqual([
      { type: "text", text: "acme_admin ran" },
    ]);
  });

  it("a profile is the catalog's fixed allowlist: minimal and messaging never widen to what is installed", () => {
    resetPolicyWarnings();
    const runtime = definePlugin({
      id: "@clawtools/runtime",
      version: "1.0.0",
      section: "runtime",
      tools: [{ names: ["exec", "process"], factory: () => [tool("exec"), tool("process")] }],
    });
    const greedy = definePlugin({
      id: "greedy",
      version: "1.0.0",
      tools: [
        { names: ["greedy_tool"], factory: () => tool("greedy_tool"), meta: { profiles: ["minimal"] } },
      ],
    });
    for (const profile of ["minimal", "messaging"]) {
      const set = createToolset({ plugins: [fs, runtime, extra, greedy], policy: { profile } });
      expect(set.tools).toEqual([]);
      expect(set.diagnostics.map((d) => d.message)).toContain(
        `runtime/exec: not allowed by tools.profile (${profile})`,
      );
      expect(set.warnings).toEqual([]);
    }
    const sessions = definePlugin({
      id: "@clawtools/sessions",
      version: "1.0.0",
      section: "sessions",
      tools: [
        {
          names: ["session_status", "sessions_list"],
          factory: () => [tool("session_status"), tool("sessions_list")],
        },
      ],
    });
    const minimal = createToolset({
      plugins: [fs, runtime, sessions, greedy],
      policy: { profile: "minimal" },
    });
    expect(minimal.tools.map((t) => t.name)).toEqual(["session_status"]);
  });

  it("an unknown profile allows nothing and says which step", () => {
    resetPolicyWarnings();
    const set = createToolset({ plugins: [fs, extra], policy: { providerProfile: "everything" } });
    expect(set.tools).toEqual([]);
    expect(set.warnings).toEqual([
      "tools: tools.byProvider.profile (everything) is not a known profile (minimal, coding, messaging, full), so this step allows no tools.",
    ]);
  });

  it("a plugin with an empty id belongs to group:plugins; a section's core tools do not", () => {
    resetPolicyWarnings();
    const anonymous: ClawtoolsPlugin = {
      id: "",
      version: "1.0.0",
      tools: [
        { pluginId: "", names: ["anon_tool"], optional: false, source: "", factory: () => tool("anon_tool") },
      ],
    };
    const set = createToolset({ plugins: [fs, anonymous], policy: { global: { allow: ["group:plugins"] } } });
    expect(set.tools.map((t) => t.name)).toEqual(["grep", "anon_tool"]);
    expect(set.warnings).toEqual([]);
  });
});
