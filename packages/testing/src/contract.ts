import {
  type AnyAgentTool,
  type ClawtoolsPlugin,
  checkToolSchema,
  getCoreToolDefinition,
  normalizeToolName,
  normalizeToolParameters,
  type ToolContext,
  ToolRegistry,
} from "@clawtools/core";

export interface ContractReport {
  ok: boolean;
  problems: string[];
}

const NAME = /^[a-z][a-z0-9_]*$/;

/**
 * Checks one tool against the AgentTool contract without calling it: name, label,
 * description, an object schema inside the provider guardrails, schema survives normalisation.
 */
export async function checkToolContract(tool: AnyAgentTool): Promise<ContractReport> {
  const problems: string[] = [];
  const name = typeof tool?.name === "string" ? tool.name : "";
  const at = name || "<unnamed>";
  if (!NAME.test(name)) problems.push(`${at}: name must match ${NAME} (got ${JSON.stringify(tool?.name)})`);
  if (typeof tool?.label !== "string" || !tool.label.trim())
    problems.push(`${at}: label must be a non-empty string`);
  if (typeof tool?.description !== "string" || !tool.description.trim()) {
    problems.push(`${at}: description must be a non-empty string`);
  }
  if (typeof tool?.execute !== "function") problems.push(`${at}: execute must be a function`);
  else if (tool.execute.length > 4)
    problems.push(`${at}: execute takes (toolCallId, params, signal?, onUpdate?)`);
  if (typeof tool?.parameters !== "object" || tool.parameters === null) {
    problems.push(`${at}: parameters must be a JSON Schema object`);
  } else {
    for (const issue of checkToolSchema(tool.parameters))
      problems.push(`${at}: schema ${issue.path || "(root)"}: ${issue.message}`);
    try {
      const normalized = normalizeToolParameters(tool.parameters);
      JSON.stringify(normalized);
    } catch (error) {
      problems.push(`${at}: schema cannot be serialised: ${(error as Error).message}`);
    }
  }
  return { ok: problems.length === 0, problems };
}

/**
 * Checks a plugin: registrations are well formed, factories build in the given context
 * exactly the names they declare, only a section plugin provides core ids, and every tool
 * passes `checkToolContract`.
 */
export async function checkPluginContract(
  plugin: ClawtoolsPlugin,
  ctx: ToolContext = {},
): Promise<ContractReport> {
  const problems: string[] = [];
  if (!plugin?.id?.trim()) problems.push("plugin: id must be a non-empty string");
  if (typeof plugin?.version !== "string") problems.push(`${plugin?.id}: version must be a string`);
  const declared = new Set<string>();
  for (const [index, reg] of (plugin?.tools ?? []).entries()) {
    const where = `${plugin.id} tools[${index}]`;
    if (!Array.isArray(reg.names) || reg.names.length === 0)
      problems.push(`${where}: names must list the tool names`);
    if (typeof reg.factory !== "function") problems.push(`${where}: factory must be a function`);
    if (reg.pluginId !== plugin.id)
      problems.push(`${where}: pluginId ${reg.pluginId} does not match plugin id ${plugin.id}`);
    for (const name of reg.names ?? []) {
      const id = normalizeToolName(name);
      if (declared.has(id)) problems.push(`${where}: tool name "${id}" declared twice`);
      declared.add(id);
      const core = getCoreToolDefinition(id);
      if (core && core.sectionId !== plugin.section) {
        problems.push(
          `${where}: "${id}" is a core ${core.sectionId} tool; only the ${core.sectionId} section plugin may provide it`,
        );
      }
    }
    if (typeof reg.factory !== "function") continue;
    let built: AnyAgentTool[] = [];
    try {
      const out = reg.factory(ctx);
      built = out == null ? [] : Array.isArray(out) ? out : [out];
    } catch (error) {
      // A factory may decline a context it cannot serve; that is reported, not fatal.
      if ((error as Error)?.name !== "ToolUnavailableError")
        problems.push(`${where}: factory threw ${(error as Error).message}`);
    }
    for (const tool of built) {
      if (!reg.names.map(normalizeToolName).includes(normalizeToolName(tool.name ?? ""))) {
        problems.push(
          `${where}: factory built "${tool.name}" which is not in names [${reg.names.join(", ")}]`,
        );
      }
      problems.push(...(await checkToolContract(tool)).problems);
    }
  }
  const registry = new ToolRegistry();
  for (const d of registry.registerPlugin(plugin)) problems.push(`registry: ${d.message}`);
  return { ok: problems.length === 0, problems };
}
