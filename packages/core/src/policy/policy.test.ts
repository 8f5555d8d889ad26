import { beforeEach, describe, expect, it } from "vitest";
import { getCoreToolCatalog } from "../catalog.js";
import { ToolAuthorizationError } from "../errors.js";
import type { AnyAgentTool } from "../tool.js";
import { expandToolGroups } from "./groups.js";
import {
  filterToolsByPolicy,
  isToolAllowedByPolicies,
  isToolAllowedByPolicy,
  mergeAlsoAllow,
} from "./match.js";
import { normalizeToolName } from "./normalize.js";
import { applyOwnerOnlyToolPolicy, isOwnerOnlyTool } from "./owner-only.js";
import {
  type ApplyToolPolicyPipelineParams,
  applyToolPolicyPipeline,
  resetPolicyWarnings,
  type ToolPolicyPipelineStep,
} from "./pipeline.js";
import { DEFAULT_SANDBOX_TOOL_POLICY, resolveSandboxToolPolicy } from "./sandbox.js";
import { resolveSubagentToolPolicy } from "./subagent.js";

type T = AnyAgentTool & { pluginId?: string };

function tool(name: string, extra: Partial<T> = {}): T {
  return {
    name,
    label: name,
    description: name,
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [{ type: "text", text: name }], details: undefined }),
    ...extra,
  };
}

const coreTools = getCoreToolCatalog().map((meta) => tool(meta.id));
const names = (tools: { name: string }[]) => tools.map((t) => t.name);

/** The policy pipeline over `tools` (core's by default), what it warns pushed to `warnings`. */
function pipeline(
  steps: ToolPolicyPipelineStep[],
  options: { toolMeta: ApplyToolPolicyPipelineParams<T>["toolMeta"]; tools?: T[]; warnings?: string[] },
): T[] {
  const { tools = coreTools, toolMeta, warnings = [] } = options;
  return applyToolPolicyPipeline({ tools, toolMeta, warn: (m) => warnings.push(m), steps });
}

describe("names and groups", () => {
  it("normalises case, whitespace and exactly two aliases", () => {
    expect(normalizeToolName("  Bash ")).toBe("exec");
    expect(normalizeToolName("APPLY-PATCH")).toBe("apply_patch");
    expect(normalizeToolName("shell")).toBe("shell");
    // names that are Object.prototype keys are names, not inherited members
    expect(normalizeToolName("constructor")).toBe("constructor");
    expect(normalizeToolName("__proto__")).toBe("__proto__");
    expect(normalizeToolName(" toString ")).toBe("tostring");
    // the second time comes from memory and is the same
    expect(normalizeToolName("  Bash ")).toBe("exec");
  });

  it("expands groups, de-duplicating in order", () => {
    expect(expandToolGroups(["exec", "group:runtime", "group:fs", "READ"])).toEqual([
      "exec",
      "process",
      "read",
      "write",
      "edit",
      "apply_patch",
    ]);
  });
});

describe("matching", () => {
  it("supports `*` and `web_*` globs with anchored matching", () => {
    expect(names(filterToolsByPolicy(coreTools, { allow: ["web_*"] }))).toEqual(["web_search", "web_fetch"]);
    expect(filterToolsByPolicy(coreTools, { allow: ["*"] })).toHaveLength(coreTools.length);
    expect(isToolAllowedByPolicy("my_web_x", { allow: ["web_*"] })).toBe(false);
    expect(isToolAllowedByPolicy("sessions_list", { allow: ["*_list"] })).toBe(true);
    expect(isToolAllowedByPolicy("a.b", { allow: ["a.*"] })).toBe(true);
    expect(isToolAllowedByPolicy("axb", { allow: ["a.b"] })).toBe(false);
  });

  it("matches wildcards through picomatch with OpenClaw's semantics: only `*` is special", () => {
    const allowed = (name: string, pattern: string) => isToolAllowedByPolicy(name, { allow: [pattern] });
    expect(allowed("mcp__srv/tool.x", "mcp__*")).toBe(true);
    expect(allowed("a.b.c", "a*c")).toBe(true);
    expect(allowed("axb", "a?b*")).toBe(false);
    expect(allowed("a?bz", "a?b*")).toBe(true);
    expect(allowed("a", "{a,b}*")).toBe(false);
    expect(allowed("{a,b}x", "{a,b}*")).toBe(true);
    expect(allowed("[x]y", "[x]*")).toBe(true);
    expect(allowed("xy", "[x]*")).toBe(false);
    expect(allowed("!x", "!x*")).toBe(true);
    expect(allowed("web_search", "!web*")).toBe(false);
    expect(allowed("plugin(1)_tool", "plugin(1)*")).toBe(true);
    expect(allowed("pre_mid_post", "pre*mid*post")).toBe(true);
    expect(allowed("pre_post", "pre*mid*post")).toBe(false);
  });

  it("deny wins over allow, also with a group inside deny", () => {
    const policy = { allow: ["*"], deny: ["group:runtime"] };
    const kept = names(filterToolsByPolicy(coreTools, policy));
    expect(kept).not.toContain("exec");
    expect(kept).not.toContain("process");
    expect(kept).toContain("read");
    expect(isToolAllowedByPolicy("exec", { allow: ["exec"], deny: ["exec"] })).toBe(false);
  });

  it("an absent allow allows everything not denied; an empty one allows nothing (fail closed)", () => {
    expect(isToolAllowedByPolicy("browser", { deny: ["canvas"] })).toBe(true);
    expect(isToolAllowedByPolicy("browser", undefined)).toBe(true);
    expect(isToolAllowedByPolicy("browser", { allow: [] })).toBe(false);
    expect(isToolAllowedByPolicy("browser", { allow: ["", "  "] })).toBe(false);
    expect(isToolAllowedByPolicy("exec", { allow: [], alsoAllow: ["exec"] })).toBe(true);
    expect(isToolAllowedByPolicy("read", { allow: [], alsoAllow: ["exec"] })).toBe(false);
  });

  it("apply_patch follows write", () => {
    expect(isToolAllowedByPolicy("apply_patch", { allow: ["write"] })).toBe(true);
    expect(isToolAllowedByPolicy("apply_patch", { deny: ["write"] })).toBe(false);
    expect(isToolAllowedByPolicy("apply_patch", { allow: ["read"] })).toBe(false);
    expect(isToolAllowedByPolicy("apply-patch", { allow: ["write"], deny: ["apply_patch"] })).toBe(false);
  });

  it("a tool must pass every policy", () => {
    expect(isToolAllowedByPolicies("exec", [{ allow: ["exec"] }, { deny: ["bash"] }])).toBe(false);
    expect(isToolAllowedByPolicies("exec", [{ allow: ["exec"] }, { allow: ["group:runtime"] }])).toBe(true);
  });

  it("alsoAllow unions with allow and never restricts without it", () => {
    expect(mergeAlsoAllow({ allow: ["read"], alsoAllow: ["exec"] })).toEqual({ allow: ["read", "exec"] });
    expect(mergeAlsoAllow({ alsoAllow: ["exec"] })).toEqual({ allow: ["*", "exec"] });
    expect(filterToolsByPolicy(coreTools, { alsoAllow: ["exec"] })).toHaveLength(coreTools.length);
  });
});

describe("applyToolPolicyPipeline", () => {
  beforeEach(() => resetPolicyWarnings());
  const toolMeta = (t: T) => (t.pluginId ? { pluginId: t.pluginId } : undefined);

  it("a deny in a later step beats an allow in an earlier one", () => {
    const out = pipeline(
      [
        { label: "tools.profile (coding)", policy: { allow: ["read", "exec", "process"] }, isProfile: true },
        { label: "tools.allow", policy: { deny: ["exec"] } },
        { label: "agents.main.tools.allow", policy: undefined },
      ],
      { toolMeta },
    );
    expect(names(out)).toEqual(["read", "process"]);
  });

  it("warns once about unknown allowlist entries with the reference text", () => {
    const warnings: string[] = [];
    const run = () =>
      pipeline([{ label: "tools.allow", policy: { allow: ["read", "frobnicate", "browser"] } }], {
        toolMeta,
        tools: coreTools.filter((t) => t.name !== "browser"),
        warnings,
      });
    expect(names(run())).toEqual(["read"]);
    run();
    expect(warnings).toEqual([
      "tools: tools.allow allowlist contains unknown entries (frobnicate, browser). Some entries are shipped core tools but unavailable in the current runtime/provider/model/config; other entries won't match any tool unless the plugin is enabled.",
    ]);
  });

  it("uses the single-kind suffixes and spares gated core ids in a profile step", () => {
    const warnings: string[] = [];
    const tools = coreTools.filter((t) => t.name !== "apply_patch");
    pipeline(
      [
        { label: "tools.profile (coding)", policy: { allow: ["read", "apply_patch"] }, isProfile: true },
        { label: "tools.allow", policy: { allow: ["read", "apply_patch"] } },
        { label: "group tools.allow", policy: { allow: ["read", "nope"] } },
      ],
      { toolMeta, tools, warnings },
    );
    expect(warnings).toEqual([
      "tools: tools.allow allowlist contains unknown entries (apply_patch). These entries are shipped core tools but unavailable in the current runtime/provider/model/config.",
      "tools: group tools.allow allowlist contains unknown entries (nope). These entries won't match any tool unless the plugin is enabled.",
    ]);
  });

  it("keeps an allowlist naming only plugin tools, so core tools disappear", () => {
    const tools = [
      ...coreTools,
      tool("jira_search", { pluginId: "jira" }),
      tool("jira_create", { pluginId: "jira" }),
    ];
    const run = (allow: string[]) =>
      names(pipeline([{ label: "tools.allow", policy: { allow } }], { toolMeta, tools }));
    expect(run(["jira_search"])).toEqual(["jira_search"]);
    expect(run(["jira"])).toEqual(["jira_search", "jira_create"]);
    expect(run(["group:plugins", "read"])).toEqual(["read", "jira_search", "jira_create"]);
    const denied = pipeline([{ label: "tools.allow", policy: { deny: ["jira"] } }], { toolMeta, tools });
    expect(names(denied)).not.toContain("jira_create");
  });

  it("applies alsoAllow without allow as additive", () => {
    const out = pipeline(
      [
        { label: "tools.profile (minimal)", policy: { allow: ["session_status"] }, isProfile: true },
        { label: "tools.allow", policy: { alsoAllow: ["exec"] } },
      ],
      { toolMeta },
    );
    expect(names(out)).toEqual(["session_status"]);
    const widened = pipeline(
      [{ label: "tools.profile (minimal)", policy: { allow: ["session_status"], alsoAllow: ["exec"] } }],
      { toolMeta },
    );
    expect(names(widened)).toEqual(["exec", "session_status"]);
  });
});

describe("empty never means everything", () => {
  beforeEach(() => resetPolicyWarnings());
  const toolMeta = (t: T) => (t.pluginId !== undefined ? { pluginId: t.pluginId } : undefined);

  it("an explicit empty allowlist allows nothing and names its step", () => {
    const warnings: string[] = [];
    const out = pipeline([{ label: "agents.main.tools.allow", policy: { allow: [" "] } }], {
      toolMeta,
      warnings,
    });
    expect(out).toEqual([]);
    expect(warnings).toEqual([
      "tools: agents.main.tools.allow allowlist is empty, so this step allows no tools. Remove the allowlist to allow every tool, or name the tools to allow.",
    ]);
  });

  it("`group:plugins` with no plugin tools matches nothing and is reported as unknown", () => {
    const warnings: string[] = [];
    const out = pipeline([{ label: "tools.allow", policy: { allow: ["group:plugins"] } }], {
      toolMeta,
      warnings,
    });
    expect(out).toEqual([]);
    expect(warnings).toEqual([
      "tools: tools.allow allowlist contains unknown entries (group:plugins). These entries won't match any tool unless the plugin is enabled.",
    ]);
  });

  it("a plugin with an empty id still belongs to group:plugins; core tools of a section plugin do not", () => {
    const tools = [
      tool("read"),
      tool("anon_tool", { pluginId: "" }),
      tool("jira_search", { pluginId: "jira" }),
    ];
    const meta = (t: T) => (t.name === "read" ? { pluginId: "fs", source: "core" } : toolMeta(t));
    const out = pipeline([{ label: "tools.allow", policy: { allow: ["group:plugins"] } }], {
      toolMeta: meta,
      tools,
    });
    expect(names(out)).toEqual(["anon_tool", "jira_search"]);
  });
});

describe("owner-only", () => {
  it("removes owner-only tools for non-owners (undefined is not the owner)", () => {
    const tools = [
      tool("read"),
      tool("cron"),
      tool("gateway"),
      tool("nodes"),
      tool("mine", { ownerOnly: true }),
    ];
    expect(names(applyOwnerOnlyToolPolicy(tools, undefined))).toEqual(["read"]);
    expect(names(applyOwnerOnlyToolPolicy(tools, false))).toEqual(["read"]);
    expect(names(applyOwnerOnlyToolPolicy(tools, true))).toHaveLength(5);
    expect(isOwnerOnlyTool(tool("whatsapp_login"))).toBe(true);
  });
});

describe("sandbox and sub-agent defaults", () => {
  it("sandbox allows the coding core and denies UI / control-plane tools and channels", () => {
    expect(DEFAULT_SANDBOX_TOOL_POLICY.deny).toEqual(["browser", "canvas", "nodes", "cron", "gateway"]);
    const policy = resolveSandboxToolPolicy({ channelIds: ["whatsapp"] });
    expect(policy.deny).toContain("whatsapp");
    const kept = names(filterToolsByPolicy(coreTools, policy));
    expect(kept).toEqual(
      expect.arrayContaining([
        "exec",
        "process",
        "read",
        "write",
        "edit",
        "apply_patch",
        "image",
        "sessions_spawn",
      ]),
    );
    expect(kept).not.toContain("browser");
    expect(kept).not.toContain("web_fetch");
  });

  it("an override with only alsoAllow keeps the default deny list, minus what it re-allows by name", () => {
    const policy = resolveSandboxToolPolicy({ override: { alsoAllow: ["web_fetch"] } });
    expect(policy.deny).toEqual(["browser", "canvas", "nodes", "cron", "gateway"]);
    expect(policy.allow).toEqual([...DEFAULT_SANDBOX_TOOL_POLICY.allow, "web_fetch"]);
    const kept = names(filterToolsByPolicy(coreTools, policy));
    expect(kept).toContain("web_fetch");
    for (const name of ["browser", "canvas", "nodes", "cron", "gateway"]) expect(kept).not.toContain(name);
    const browser = resolveSandboxToolPolicy({ override: { alsoAllow: ["browser"] }, channelIds: ["slack"] });
    expect(browser.deny).toEqual(["canvas", "nodes", "cron", "gateway", "slack"]);
  });

  it("an explicit sandbox allowlist keeps image unless image is denied; an explicit deny replaces the default", () => {
    expect(resolveSandboxToolPolicy({ override: { allow: ["read", "exec"] } })).toEqual({
      allow: ["read", "exec", "image"],
      deny: ["browser", "canvas", "nodes", "cron", "gateway"],
    });
    expect(resolveSandboxToolPolicy({ override: { allow: ["read"], deny: ["group:media"] } })).toEqual({
      allow: ["read"],
      deny: ["group:media"],
    });
    expect(resolveSandboxToolPolicy({ override: { allow: [] } }).allow).toEqual([]);
  });

  it("a sub-agent policy with both allow and alsoAllow keeps both", () => {
    const policy = resolveSubagentToolPolicy({
      depth: 1,
      config: { allow: ["read"], alsoAllow: ["exec"] },
    });
    expect(policy?.allow).toEqual(["read", "exec"]);
    expect(names(filterToolsByPolicy(coreTools, policy))).toEqual(["read", "exec"]);
    expect(resolveSubagentToolPolicy({ depth: 1, config: { alsoAllow: ["exec"] } })?.allow).toBeUndefined();
  });

  it("denies leaf and non-leaf sub-agents their lists; allow releases, deny appends", () => {
    expect(resolveSubagentToolPolicy({ depth: 0 })).toBeUndefined();
    expect(resolveSubagentToolPolicy({ depth: 1 })?.deny).toEqual([
      "gateway",
      "agents_list",
      "whatsapp_login",
      "session_status",
      "cron",
      "sessions_send",
      "subagents",
      "sessions_list",
      "sessions_history",
      "sessions_spawn",
    ]);
    expect(resolveSubagentToolPolicy({ depth: 1, maxSpawnDepth: 2 })?.deny).toEqual([
      "gateway",
      "agents_list",
      "whatsapp_login",
      "session_status",
      "cron",
      "sessions_send",
    ]);
    const custom = resolveSubagentToolPolicy({
      depth: 1,
      config: { alsoAllow: ["sessions_list"], deny: ["Bash"] },
    });
    expect(custom?.deny).not.toContain("sessions_list");
    expect(custom?.deny?.at(-1)).toBe("exec");
  });
});

describe("owner-only execute guard", () => {
  it("throws the spec's error when a non-owner calls a guarded tool", async () => {
    const { guardOwnerOnlyTool } = await import("./owner-only.js");
    const guarded = guardOwnerOnlyTool(tool("cron"), false);
    await expect(guarded.execute("1", {})).rejects.toThrow(ToolAuthorizationError);
    await expect(guarded.execute("1", {})).rejects.toThrow("Tool restricted to owner senders.");
  });
});
