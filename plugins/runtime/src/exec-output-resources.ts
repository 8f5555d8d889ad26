import { readFile } from "node:fs/promises";
import type { ToolContext } from "@clawtools/core";
import { backgroundClock } from "@clawtools/core/time";
import type { PluginResources, ResourceChange, ResourceLinkContent } from "@clawtools/core/resources";
import type { BackgroundProcess } from "./process/host.js";
import type { ProcessRegistry } from "./process/registry.js";

const PREFIX = "clawtools://runtime/exec-output/";

/** The URI of a session's whole output, once it spilled past the result's limit. */
export const execOutputUri = (sessionId: string) => `${PREFIX}${encodeURIComponent(sessionId)}`;

/** A `resource_link` to a session's spilled output (what an exec result carries beside its notice). */
export function execOutputLink(session: BackgroundProcess): ResourceLinkContent {
  return {
    type: "resource_link",
    uri: execOutputUri(session.id),
    name: `exec output ${session.id}`,
    description: `The whole output of \`${session.command.slice(0, 200)}\``,
    mimeType: "text/plain",
  };
}

/** The scope a context's exec and process calls use (as exec.ts keys them). */
const scopeOf = (ctx: ToolContext) => ctx.sessionKey ?? `agent:${ctx.agentId ?? "main"}`;

/** How long output may keep arriving before subscribers hear of it again. */
const UPDATE_EVERY_MS = 500;

/**
 * The spilled output of a runtime's exec sessions as resources: listed and read only in the scope
 * (session key or agent) that ran them, so one client never sees another's. A subscriber hears
 * when a spilled output grows (at most every 500 ms) and when its command ends; the list changes
 * when a session spills or is forgotten.
 */
export function execOutputResources(registry: ProcessRegistry): PluginResources {
  const spilled = (ctx: ToolContext) =>
    registry.list(scopeOf(ctx)).filter((s) => s.outputInfo().outputFile !== undefined);
  return {
    list: (ctx) =>
      spilled(ctx).map((session) => {
        const { type: _type, ...info } = execOutputLink(session);
        return info;
      }),
    templates: () => [
      {
        uriTemplate: `${PREFIX}{sessionId}`,
        name: "exec output",
        description: "The whole output of an exec session that passed the result's limit",
        mimeType: "text/plain",
      },
    ],
    read: async (uri, ctx) => {
      if (!uri.startsWith(PREFIX)) return undefined;
      const session = registry.get(scopeOf(ctx), decodeURIComponent(uri.slice(PREFIX.length)));
      const file = session?.outputInfo().outputFile;
      if (!file) return undefined;
      return { mimeType: "text/plain", body: await readFile(file, "utf8") };
    },
    watch: (ctx, listener) => watchScope(registry, scopeOf(ctx), listener),
  };
}

function watchScope(
  registry: ProcessRegistry,
  scopeKey: string,
  notify: (change: ResourceChange) => void,
): () => void {
  let watching = true;
  const listener = (change: ResourceChange) => {
    if (watching) notify(change);
  };
  const stops: Array<() => void> = [];
  const follow = (session: BackgroundProcess) => {
    if (session.scopeKey !== scopeKey) return;
    const uri = execOutputUri(session.id);
    let listed = false;
    let timer: unknown;
    const changed = () => {
      if (session.outputInfo().outputFile === undefined) return;
      if (!listed) {
        listed = true;
        listener({});
      }
      // a background clock: a pending update never holds the process open
      timer ??= backgroundClock.setTimeout(() => {
        timer = undefined;
        listener({ uri });
      }, UPDATE_EVERY_MS);
    };
    const stopData = session.onData(changed);
    stops.push(() => {
      stopData();
      backgroundClock.clearTimeout(timer);
    });
    void session.exited.then(() => {
      stopData();
      if (session.outputInfo().outputFile === undefined) return;
      backgroundClock.clearTimeout(timer);
      timer = undefined;
      listener({ uri });
    });
  };
  for (const session of registry.list(scopeKey)) if (session.running) follow(session);
  stops.push(registry.onSpawn(follow));
  return () => {
    watching = false;
    for (const stop of stops) stop();
  };
}
