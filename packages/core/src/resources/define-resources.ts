import { type ArgumentCompleter, completionOf } from "../prompts/completion.js";
import type { ToolContext } from "../tool.js";
import type { PluginResources, ResourceBody, ResourceInfo, ResourceTemplateInfo } from "./types.js";
import { matchUriTemplate } from "./uri-template.js";

/** A fixed resource and how to read it. */
export interface StaticResource extends ResourceInfo {
  read(ctx: ToolContext): ResourceBody | Promise<ResourceBody>;
}

/** A template and how to read a URI that matches it (with the template's variables). */
export interface TemplateResource extends ResourceTemplateInfo {
  read(
    uri: string,
    variables: Record<string, string>,
    ctx: ToolContext,
  ): ResourceBody | Promise<ResourceBody>;
  /** Completers for the template's variables (`completion/complete` of a `ref/resource`), by name. */
  complete?: Record<string, ArgumentCompleter>;
}

export interface DefineResourcesInput {
  resources?: StaticResource[];
  templates?: TemplateResource[];
}

const infoOf = ({ read: _read, ...info }: StaticResource): ResourceInfo => info;
const templateInfoOf = ({
  read: _read,
  complete: _complete,
  ...info
}: TemplateResource): ResourceTemplateInfo => info;

/** `PluginResources` from fixed resources and URI templates (a fixed URI wins over a template). */
export function defineResources(input: DefineResourcesInput): PluginResources {
  const resources = input.resources ?? [];
  const templates = input.templates ?? [];
  const byUri = new Map(resources.map((r) => [r.uri, r]));
  if (byUri.size !== resources.length) throw new Error("defineResources: a resource URI is given twice");
  return {
    list: () => resources.map(infoOf),
    templates: () => templates.map(templateInfoOf),
    read: async (uri, ctx) => {
      const fixed = byUri.get(uri);
      if (fixed)
        return { ...(fixed.mimeType ? { mimeType: fixed.mimeType } : {}), body: await fixed.read(ctx) };
      for (const template of templates) {
        const variables = matchUriTemplate(template.uriTemplate, uri);
        if (!variables) continue;
        const body = await template.read(uri, variables, ctx);
        return { ...(template.mimeType ? { mimeType: template.mimeType } : {}), body };
      }
      return undefined;
    },
    complete: async (uriTemplate, request, ctx) => {
      const template = templates.find((t) => t.uriTemplate === uriTemplate);
      const completer = template?.complete?.[request.argument];
      if (!completer) return undefined;
      return completionOf(await completer(request.value, request.context ?? {}, ctx));
    },
  };
}
