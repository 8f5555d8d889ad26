import type {
  PluginResources,
  ResourceChange,
  ResourceInfo,
  ResourceTemplateInfo,
} from "@clawtools/core/resources";

/** The URI prefix a mounted server's resources are served under: `clawtools://mcp/<name>/`. */
export const mountedResourcePrefix = (name: string): string => `clawtools://mcp/${name}/`;

type Template = {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
};
type Contents = { uri: string; mimeType?: string; text?: string; blob?: string };

/** What the mount needs of an MCP client (SDK v2's `Client`, typed structurally). */
export interface McpResourceClientLike {
  listResources(params?: { cursor?: string }): Promise<{ resources: ResourceInfo[]; nextCursor?: string }>;
  listResourceTemplates(params?: {
    cursor?: string;
  }): Promise<{ resourceTemplates: Template[]; nextCursor?: string }>;
  readResource(params: { uri: string }): Promise<{ contents: Contents[] }>;
  subscribeResource(params: { uri: string }): Promise<unknown>;
  listen?(filter: { resourcesListChanged?: boolean; resourceSubscriptions?: string[] }): Promise<{
    close(): Promise<void> | void;
  }>;
  setNotificationHandler(method: string, handler: (notification: any) => void): void;
  getServerCapabilities(): { resources?: { subscribe?: boolean; listChanged?: boolean } } | undefined;
  getProtocolEra?: () => string | undefined;
}

/**
 * A mounted MCP server's resources, served under `clawtools://mcp/<name>/<its URI>` (templates
 * too): listing and reading go to the server; its change notifications come back with the
 * served URIs. While anyone watches, the mount subscribes to every resource the server lists
 * (2025-era `resources/subscribe`, or one 2026-07-28 `subscriptions/listen` stream), so updates
 * reach 2025 subscribers and 2026 listen streams alike; each client's own filter is the server's.
 */
export class MountedResources implements PluginResources {
  readonly prefix: string;
  private readonly listeners = new Set<(change: ResourceChange) => void>();
  private readonly subscribed = new Set<string>();
  private stream: { close(): Promise<void> | void } | undefined;
  private following = false;

  constructor(
    name: string,
    private readonly client: McpResourceClientLike,
  ) {
    this.prefix = mountedResourcePrefix(name);
  }

  /** The served URI of one of the server's own. */
  served(uri: string): string {
    return `${this.prefix}${uri}`;
  }

  /** What the server lists now; nothing while it is gone (the other plugins' still list). */
  async list(): Promise<ResourceInfo[]> {
    return this.all().catch(() => []);
  }

  private async all(): Promise<ResourceInfo[]> {
    const out: ResourceInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listResources(cursor ? { cursor } : {});
      for (const r of page.resources) out.push({ ...pick(r), uri: this.served(r.uri) });
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  async templates(): Promise<ResourceTemplateInfo[]> {
    const out: ResourceTemplateInfo[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await this.client.listResourceTemplates(cursor ? { cursor } : {});
        for (const t of page.resourceTemplates)
          out.push({ ...pick(t), uriTemplate: this.served(t.uriTemplate) });
        cursor = page.nextCursor;
      } while (cursor);
    } catch {
      // gone, or a server with resources but no templates (-32601): none from it
    }
    return out;
  }

  async read(uri: string) {
    if (!uri.startsWith(this.prefix)) return undefined;
    const remote = uri.slice(this.prefix.length);
    let result: { contents: Contents[] };
    try {
      result = await this.client.readResource({ uri: remote });
    } catch (error) {
      // the server does not have it: not found here either (the caller names the served URI)
      if ((error as { code?: unknown }).code === -32602 || (error as { code?: unknown }).code === -32002)
        return undefined;
      throw error;
    }
    const contents = result.contents.find((c) => c.uri === remote) ?? result.contents[0];
    if (!contents) return undefined;
    const mimeType = contents.mimeType ? { mimeType: contents.mimeType } : {};
    if (typeof contents.blob === "string")
      return { ...mimeType, body: new Uint8Array(Buffer.from(contents.blob, "base64")) };
    return { ...mimeType, body: contents.text ?? "" };
  }

  watch(_ctx: unknown, listener: (change: ResourceChange) => void): () => void {
    this.listeners.add(listener);
    if (!this.following) {
      this.following = true;
      this.client.setNotificationHandler("notifications/resources/list_changed", () => {
        this.emit({});
        void this.follow();
      });
      this.client.setNotificationHandler("notifications/resources/updated", (n) => {
        const uri = n?.params?.uri;
        if (typeof uri === "string") this.emit({ uri: this.served(uri) });
      });
      void this.follow();
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  private emit(change: ResourceChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // one listener's failure does not keep the change from the others
      }
    }
  }

  /** Subscribes at the server to every resource it lists now (what it cannot do is skipped). */
  private async follow(): Promise<void> {
    try {
      const caps = this.client.getServerCapabilities()?.resources;
      const uris = (await this.all()).map((r) => r.uri.slice(this.prefix.length));
      if (this.client.getProtocolEra?.() === "modern" && this.client.listen) {
        const before = this.stream;
        this.stream = await this.client.listen({ resourcesListChanged: true, resourceSubscriptions: uris });
        await before?.close();
        return;
      }
      if (!caps?.subscribe) return;
      for (const uri of uris) {
        if (this.subscribed.has(uri)) continue;
        this.subscribed.add(uri);
        await this.client.subscribeResource({ uri });
      }
    } catch {
      // a server gone or refusing: its notifications stop, its resources still read
    }
  }
}

function pick<T extends { title?: string; description?: string; mimeType?: string; size?: number }>(
  r: T & { name: string },
) {
  return {
    name: r.name,
    ...(r.title !== undefined ? { title: r.title } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
    ...(r.size !== undefined ? { size: r.size } : {}),
  };
}
