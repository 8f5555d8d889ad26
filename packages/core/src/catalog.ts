/**
 * The catalog: sections, core tool definitions, profiles and groups. One source of truth
 * for listing and policy, whether or not a section's plugin is installed.
 * Profiles follow OpenClaw's catalog of April 2026 (`src/agents/tool-catalog.ts`: per-tool
 * `profiles`), which puts web_search, web_fetch and cron in `coding` as well.
 */

export const SECTION_IDS = [
  "fs",
  "runtime",
  "web",
  "memory",
  "sessions",
  "ui",
  "messaging",
  "automation",
  "nodes",
  "agents",
  "media",
] as const;
export type SectionId = (typeof SECTION_IDS)[number];

export const TOOL_PROFILE_IDS = ["minimal", "coding", "messaging", "full"] as const;
export type ToolProfileId = (typeof TOOL_PROFILE_IDS)[number];

export interface ToolSection {
  id: string;
  label: string;
}

export const CORE_SECTIONS: readonly ToolSection[] = [
  { id: "fs", label: "Files" },
  { id: "runtime", label: "Runtime" },
  { id: "web", label: "Web" },
  { id: "memory", label: "Memory" },
  { id: "sessions", label: "Sessions" },
  { id: "ui", label: "UI" },
  { id: "messaging", label: "Messaging" },
  { id: "automation", label: "Automation" },
  { id: "nodes", label: "Nodes" },
  { id: "agents", label: "Agents" },
  { id: "media", label: "Media" },
];

/** Metadata of a tool, core or plugin. */
export interface ToolMeta {
  id: string;
  label: string;
  description: string;
  sectionId: string;
  profiles: ToolProfileId[];
  includeInOpenClawGroup?: boolean;
  source: "core" | "plugin";
  pluginId?: string;
  optional?: boolean;
  /** The tool never changes anything (MCP readOnlyHint). */
  readOnly?: boolean;
  /** The tool may destroy or overwrite data (MCP destructiveHint). */
  destructive?: boolean;
  /** Only owner senders may use it. */
  ownerOnly?: boolean;
}

export type CoreToolDefinition = Omit<ToolMeta, "source" | "pluginId" | "optional">;

const def = (
  id: string,
  sectionId: SectionId,
  description: string,
  profiles: ToolProfileId[],
  extra: Partial<CoreToolDefinition> = {},
): CoreToolDefinition => ({ id, label: id, description, sectionId, profiles, ...extra });

const RO = { readOnly: true } as const;
const DESTRUCTIVE = { destructive: true } as const;
const OC = { includeInOpenClawGroup: true } as const;

export const CORE_TOOL_DEFINITIONS: readonly CoreToolDefinition[] = [
  def("read", "fs", "Read file contents", ["coding"], RO),
  def("write", "fs", "Create or overwrite files", ["coding"], DESTRUCTIVE),
  def("edit", "fs", "Make precise edits", ["coding"], DESTRUCTIVE),
  def("apply_patch", "fs", "Patch files (OpenAI)", ["coding"], DESTRUCTIVE),
  def("exec", "runtime", "Run shell commands", ["coding"], DESTRUCTIVE),
  def("process", "runtime", "Manage background processes", ["coding"], DESTRUCTIVE),
  def("web_search", "web", "Search the web", ["coding"], { ...OC, ...RO }),
  def("web_fetch", "web", "Fetch web content", ["coding"], { ...OC, ...RO }),
  def("memory_search", "memory", "Semantic memory search", ["coding"], { ...OC, ...RO }),
  def("memory_get", "memory", "Read memory files", ["coding"], { ...OC, ...RO }),
  def("sessions_list", "sessions", "List sessions", ["coding", "messaging"], { ...OC, ...RO }),
  def("sessions_history", "sessions", "Session history", ["coding", "messaging"], { ...OC, ...RO }),
  def("sessions_send", "sessions", "Send to session", ["coding", "messaging"], OC),
  def("sessions_spawn", "sessions", "Spawn sub-agent", ["coding"], OC),
  def("subagents", "sessions", "Manage sub-agents", ["coding"], OC),
  def("session_status", "sessions", "Session status", ["minimal", "coding", "messaging"], { ...OC, ...RO }),
  def("browser", "ui", "Control web browser", [], OC),
  def("canvas", "ui", "Control canvases", [], OC),
  def("message", "messaging", "Send messages", ["messaging"], OC),
  def("cron", "automation", "Schedule tasks", ["coding"], { ...OC, ownerOnly: true }),
  def("automations", "automation", "Schedule tasks (OpenClaw 9.6's name for cron)", ["coding"], {
    ...OC,
    ownerOnly: true,
  }),
  def("gateway", "automation", "Gateway control", [], { ...OC, ownerOnly: true }),
  def("nodes", "nodes", "Nodes + devices", [], { ...OC, ownerOnly: true }),
  def("agents_list", "agents", "List agents", [], { ...OC, ...RO }),
  def("image", "media", "Image understanding", ["coding"], OC),
  def("view_image", "media", "Image understanding (OpenClaw 9.6's name for image)", ["coding"], OC),
  def("tts", "media", "Text-to-speech conversion", [], OC),
];

const CORE_BY_ID = new Map(CORE_TOOL_DEFINITIONS.map((tool) => [tool.id, tool]));

export function getCoreToolDefinition(id: string): CoreToolDefinition | undefined {
  return CORE_BY_ID.get(id);
}

export function isKnownCoreToolId(id: string): boolean {
  return CORE_BY_ID.has(id);
}

/** The catalog as ToolMeta (source "core"), in display order. */
export function getCoreToolCatalog(): ToolMeta[] {
  return CORE_TOOL_DEFINITIONS.map((tool) => ({
    ...tool,
    profiles: [...tool.profiles],
    source: "core" as const,
  }));
}

export function getCoreSections(): ToolSection[] {
  return CORE_SECTIONS.map((section) => ({ ...section }));
}

/**
 * One tool under two names (the seeds' and OpenClaw 9.6's): a policy entry naming either names
 * both, so `deny: ["cron"]` (a sandbox, sub-agents, `--deny cron`) also keeps `automations` out.
 */
export const CORE_TOOL_TWINS: Readonly<Record<string, string>> = Object.freeze({
  cron: "automations",
  image: "view_image",
});

const twinEntries = Object.entries(CORE_TOOL_TWINS).flatMap(([a, b]) => [
  [a, [a, b]],
  [b, [b, a]],
]);

/** `group:<section>` for every section plus `group:openclaw`, and each twin name standing for both. */
export const CORE_TOOL_GROUPS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  ...Object.fromEntries(twinEntries),
  "group:openclaw": CORE_TOOL_DEFINITIONS.filter((t) => t.includeInOpenClawGroup).map((t) => t.id),
  ...Object.fromEntries(
    CORE_SECTIONS.map((s) => [
      `group:${s.id}`,
      CORE_TOOL_DEFINITIONS.filter((t) => t.sectionId === s.id).map((t) => t.id),
    ]),
  ),
});

export interface ToolPolicy {
  allow?: string[];
  deny?: string[];
  alsoAllow?: string[];
}

/** The allowlist of a profile; `full` and unknown profiles mean "no policy" (undefined). */
export function resolveCoreToolProfilePolicy(profile: string | undefined): ToolPolicy | undefined {
  if (!profile || profile === "full") return undefined;
  if (!(TOOL_PROFILE_IDS as readonly string[]).includes(profile)) return undefined;
  const allow = CORE_TOOL_DEFINITIONS.filter((t) => t.profiles.includes(profile as ToolProfileId)).map(
    (t) => t.id,
  );
  return { allow };
}

/** Catalog position used to order assembled tools; unknown (plugin) tools sort last. */
export function catalogIndex(id: string): number {
  const index = CORE_TOOL_DEFINITIONS.findIndex((tool) => tool.id === id);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}
