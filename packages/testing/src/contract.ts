import {
  type AnyAgentTool,
  type ClawtoolsPlugin,
  checkToolSchema,
  type JsonSchema,
  type ToolContext,
  ToolRegistry,
} from "@clawtools/core";
import { normalizeToolName } from "@clawtools/core/policy";
import { getCoreToolDefinition } from "@clawtools/core/catalog";
import { wrapTool } from "@clawtools/core/wrap";
import { toolInputSchema, PROVIDER_IDS, type ProviderId, toProviderTools } from "@clawtools/core/providers";

export interface ContractReport {
  ok: boolean;
  problems: string[];
}

// valid for every provider (OpenAI and Gemini cap names at 64 characters)
const NAME = /^[a-z][a-z0-9_]{0,63}$/;

export interface ToolContractOptions {
  /** Valid arguments: enables the aborted-signal and result-shape checks (the tool runs once). */
  sampleArgs?: Record<string, unknown>;
}

const propertyNames = (schema: unknown): string[] =>
  schema &&
  typeof schema === "object" &&
  (schema as JsonSchema).properties &&
  typeof (schema as JsonSchema).properties === "object"
    ? Object.keys((schema as JsonSchema).properties as object).sort()
    : [];

/** Where each provider's tool definition keeps the parameters schema. */
function parametersOf(def: unknown, provider: ProviderId): unknown {
  switch (provider) {
    case "openai":
      return (def as { function: { parameters: unknown } }).function.parameters;
    case "openai-responses":
      return (def as { parameters: unknown }).parameters;
    case "anthropic":
      return (def as { input_schema: unknown }).input_schema;
    case "gemini":
      return (def as { functionDeclarations: Array<{ parameters: unknown }> }).functionDeclarations[0]!
        .parameters;
  }
}

function resultProblems(at: string, result: unknown): string[] {
  const r = result as { content?: unknown };
  if (!r || !Array.isArray(r.content)) return [`${at}: result has no content array`];
  return r.content.flatMap(
    (block: { type?: string; text?: unknown; data?: unknown; mimeType?: unknown }, i: number) => {
      if (block?.type === "text" && typeof block.text === "string") return [];
      if (
        (block?.type === "image" || block?.type === "audio") &&
        typeof block.data === "string" &&
        typeof block.mimeType === "string"
      )
        return [];
      return [`${at}: content[${i}] is not a text, image or audio block`];
    },
  );
}

/**
 * Checks one tool against the AgentTool contract without calling it: name, label (if any),
 * description, an object schema inside the provider guardrails, schema survives normalisation.
 */
export async function checkToolContract(
  tool: AnyAgentTool,
  options: ToolContractOptions = {},
): Promise<ContractReport> {
  const problems: string[] = [];
  const name = typeof tool?.name === "string" ? tool.name : "";
  const at = name || "<unnamed>";
  if (!NAME.test(name)) problems.push(`${at}: name must match ${NAME} (got ${JSON.stringify(tool?.name)})`);
  // label is optional (core falls back to the name); one that is given must say something
  if (tool?.label !== undefined && (typeof tool.label !== "string" || !tool.label.trim()))
    problems.push(`${at}: label, when given, must be a non-empty string`);
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
      const normalized = toolInputSchema(tool.parameters);
      const names = propertyNames(normalized);
      // every provider must see every parameter
      for (const provider of PROVIDER_IDS) {
        const [def] = toProviderTools([tool], provider) as unknown[];
        const kept = propertyNames(parametersOf(def, provider));
        const lost = names.filter((n) => !kept.includes(n));
        if (lost.length)
          problems.push(`${at}: converting for ${provider} loses parameters ${lost.join(", ")}`);
      }
    } catch (error) {
      problems.push(`${at}: schema cannot be converted: ${(error as Error).message}`);
    }
    problems.push(...(await invalidArgumentProblems(tool, at)));
  }
  if (options.sampleArgs && typeof tool?.execute === "function") {
    const aborted = new AbortController();
    aborted.abort();
    const outcome = await tool.execute("contract-abort", options.sampleArgs, aborted.signal).then(
      () => "resolved",
      () => "rejected",
    );
    if (outcome !== "rejected")
      problems.push(`${at}: an already-aborted signal was not honoured (the call ran)`);
    try {
      problems.push(...resultProblems(at, await tool.execute("contract-sample", options.sampleArgs)));
    } catch (error) {
      problems.push(`${at}: the sample call threw: ${(error as Error).message}`);
    }
  }
  return { ok: problems.length === 0, problems };
}

/** Invalid arguments must be refused with a clear error before the tool runs. */
async function invalidArgumentProblems(tool: AnyAgentTool, at: string): Promise<string[]> {
  const schema = tool.parameters as JsonSchema;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const invalid =
    required.length > 0
      ? {}
      : schema.additionalProperties === false
        ? { __contract_unexpected__: true }
        : undefined;
  if (!invalid) return [];
  let ran = false;
  const stand: AnyAgentTool = {
    ...tool,
    execute: async () => {
      ran = true;
      return { content: [{ type: "text", text: "ran" }], details: undefined };
    },
  };
  // as the owner: an owner-only tool (cron, gateway, nodes) is checked for its validation, not refused
  const result = await wrapTool(stand, { senderIsOwner: true }).execute("contract-invalid", invalid);
  const problems: string[] = [];
  if (ran || !result.isError)
    problems.push(`${at}: invalid arguments ${JSON.stringify(invalid)} were not refused`);
  else if (!JSON.stringify(result.details).includes("Validation failed"))
    problems.push(`${at}: invalid arguments refused without a validation message`);
  return problems;
}

/**
 * Checks a plugin: registrations are well formed, factories build in the given context
 * exactly the names they declare, only a section plugin provides core ids, and every tool
 * passes `checkToolContract`.
 */
export async function checkPluginContract(
  plugin: ClawtoolsPlugin,
  ctx: ToolContext = {},
  options: { sampleArgs?: Record<string, Record<string, unknown>> } = {},
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
      if (!(reg.names ?? []).map(normalizeToolName).includes(normalizeToolName(tool.name ?? ""))) {
        problems.push(
          `${where}: factory built "${tool.name}" which is not in names [${(reg.names ?? []).join(", ")}]`,
        );
      }
      const sampleArgs = options.sampleArgs?.[tool.name];
      problems.push(...(await checkToolContract(tool, sampleArgs ? { sampleArgs } : {})).problems);
    }
  }
  const registry = new ToolRegistry();
  for (const d of registry.registerPlugin(plugin)) problems.push(`registry: ${d.message}`);
  return { ok: problems.length === 0, problems };
}
