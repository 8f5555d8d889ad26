import { randomUUID } from "node:crypto";
import type { ToolContext } from "../tool.js";
import { isTextMime, readFileBody } from "./file-body.js";
import type { PluginResources, ResourceChange, ResourceInfo, ResourceLinkContent } from "./types.js";

/** Whose resources a context sees: its session, or its agent when it has none (as exec scopes its processes). */
export const resourceScope = (ctx: ToolContext): string => ctx.sessionKey ?? `agent:${ctx.agentId ?? "main"}`;

const MAX_SCOPES = 1000;

/** A file a tool made and links in its result. */
export interface LinkedFile {
  /** Absolute path of the file. */
  path: string;
  name: string;
  mimeType: string;
  title?: string;
  description?: string;
  /** Size in bytes, when known. */
  size?: number;
}

export interface LinkedFilesOptions {
  /** The URI prefix, ending in `/` (`clawtools://media/tts/`); each file gets a random id below it. */
  prefix: string;
  /** What the template is called in `resources/templates/list`. */
  name: string;
  description: string;
  /** The largest file a read returns (default `MAX_RESOURCE_READ_BYTES`). */
  maxBytes?: number;
  /** How many files each scope keeps listed (the oldest link is dropped past it; default 200). */
  keep?: number;
}

/**
 * Files tools made (audio, screenshots, snapshots) as resources, each listed and read only in
 * the scope (session or agent) whose call made it, so one client never lists or reads another's.
 * A file gone from disk reads as not found. Text MIME types are read as text, others as a blob.
 */
export class LinkedFiles implements PluginResources {
  private readonly scopes = new Map<string, Map<string, LinkedFile>>();
  private readonly listeners = new Map<string, Set<(change: ResourceChange) => void>>();

  constructor(private readonly options: LinkedFilesOptions) {}

  /** Records `file` for the context's scope and returns the link a result carries. */
  link(ctx: ToolContext, file: LinkedFile): ResourceLinkContent {
    const scope = resourceScope(ctx);
    let files = this.scopes.get(scope);
    if (!files) {
      files = new Map();
      this.scopes.set(scope, files);
      // scopes of clients long gone are dropped, oldest first
      for (const old of this.scopes.keys()) {
        if (this.scopes.size <= MAX_SCOPES) break;
        this.scopes.delete(old);
      }
    }
    const uri = `${this.options.prefix}${randomUUID()}`;
    files.set(uri, file);
    const keep = this.options.keep ?? 200;
    for (const old of files.keys()) {
      if (files.size <= keep) break;
      files.delete(old);
    }
    for (const listener of this.listeners.get(scope) ?? []) listener({});
    return { type: "resource_link", uri, ...this.info(file) };
  }

  private info(file: LinkedFile): Omit<ResourceInfo, "uri"> {
    const { path: _path, ...info } = file;
    return info;
  }

  list(ctx: ToolContext): ResourceInfo[] {
    const files = this.scopes.get(resourceScope(ctx)) ?? new Map<string, LinkedFile>();
    return [...files].map(([uri, file]) => ({ uri, ...this.info(file) }));
  }

  templates(): Array<{ uriTemplate: string; name: string; description: string }> {
    const { prefix, name, description } = this.options;
    return [{ uriTemplate: `${prefix}{id}`, name, description }];
  }

  async read(uri: string, ctx: ToolContext) {
    const file = this.scopes.get(resourceScope(ctx))?.get(uri);
    if (!file) return undefined;
    const body = await readFileBody(file.path, {
      uri,
      text: isTextMime(file.mimeType),
      ...(this.options.maxBytes ? { maxBytes: this.options.maxBytes } : {}),
    });
    return body === undefined ? undefined : { mimeType: file.mimeType, body };
  }

  watch(ctx: ToolContext, listener: (change: ResourceChange) => void): () => void {
    const scope = resourceScope(ctx);
    const set = this.listeners.get(scope) ?? new Set();
    this.listeners.set(scope, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(scope);
    };
  }
}
