import { ClawtoolsError } from "../clawtools-error.js";
import type { CompletionRequest, CompletionValues } from "../prompts/completion.js";
import type { ToolContext } from "../tool.js";

// What a plugin serves beside its tools: resources a host reads by URI (MCP resources).

/** A resource as listed: its URI and what a host shows of it. */
export interface ResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes, when known. */
  size?: number;
}

/** A family of resources whose URIs follow an RFC 6570 template (`test://template/{id}/data`). */
export interface ResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** What reading a resource returns: text, or bytes (sent base64 as a `blob`). */
export type ResourceBody = string | Uint8Array;

/** One read resource. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  /** Exactly one of `text` and `blob` (base64) is set. */
  text?: string;
  blob?: string;
}

/** A change a plugin reports: `uri` changed, or (without one) the list of resources did. */
export interface ResourceChange {
  uri?: string;
}

/**
 * A plugin's resources (`ClawtoolsPlugin.resources`). Every call gets the toolset's context, so
 * what is listed and readable can depend on who asks (a client's own processes, its workspace).
 * `defineResources` builds one from fixed resources and templates.
 */
export interface PluginResources {
  /** The resources listed now for this context. */
  list(ctx: ToolContext): ResourceInfo[] | Promise<ResourceInfo[]>;
  /** The URI templates this plugin answers reads for. */
  templates?(ctx: ToolContext): ResourceTemplateInfo[] | Promise<ResourceTemplateInfo[]>;
  /** The contents of `uri`, or undefined when this plugin does not serve it to this context. */
  read(
    uri: string,
    ctx: ToolContext,
  ):
    | Promise<{ mimeType?: string; body: ResourceBody } | undefined>
    | { mimeType?: string; body: ResourceBody }
    | undefined;
  /** Values for a variable of one of this plugin's templates; undefined: none offered. */
  complete?(
    uriTemplate: string,
    request: CompletionRequest,
    ctx: ToolContext,
  ): CompletionValues | undefined | Promise<CompletionValues | undefined>;
  /** Calls `listener` when a resource of this context changes; returns the unsubscribe. */
  watch?(ctx: ToolContext, listener: (change: ResourceChange) => void): () => void;
}

/** A `resource_link` content block: a tool result points at a resource the host can read. */
export interface ResourceLinkContent extends ResourceInfo {
  type: "resource_link";
}

/** The listing of the resource a link points at (`resources/list` shows what the link shows). */
export function linkedResource({ type: _type, ...info }: ResourceLinkContent): ResourceInfo {
  return info;
}

/** An embedded resource content block: the resource's contents inside a tool result. */
export interface EmbeddedResourceContent {
  type: "resource";
  resource: ResourceContents;
}

const RESOURCE_NOT_FOUND = Symbol.for("clawtools.error.ResourceNotFoundError");

/** The JSON-RPC error a read of a resource nobody serves gets (SEP-2164: -32602, the URI in `data`). */
export class ResourceNotFoundError extends ClawtoolsError {
  static override readonly marker: symbol = RESOURCE_NOT_FOUND;
  readonly [RESOURCE_NOT_FOUND] = true;
  override name = "ResourceNotFoundError";
  override readonly code = -32602;
  readonly data: { uri: string };
  constructor(readonly uri: string) {
    super(`Resource not found: ${uri}`);
    this.data = { uri };
  }
}

/** Whether `error` is a ResourceNotFoundError from any copy of core (its brand, not `instanceof`). */
export function isResourceNotFoundError(error: unknown): error is ResourceNotFoundError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[RESOURCE_NOT_FOUND] === true
  );
}
