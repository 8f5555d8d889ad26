import { statSync } from "node:fs";
import type { ToolContext } from "@clawtools/core";
import {
  MAX_RESOURCE_READ_BYTES,
  type PluginResources,
  partsHint,
  type ResourceChange,
  type ResourceLinkContent,
  readFileBody,
  readFilePart,
  linkedResource,
} from "@clawtools/core/resources";
import { backgroundClock } from "@clawtools/core/time";
import type { BackgroundProcess } from "./process/host.js";
import type { ProcessRegistry } from "./process/registry.js";

const PREFIX = "clawtools://runtime/exec-output/";

/** The URI of a session's whole output, once it spilled past the result's limit. */
export const execOutputUri = (sessionId: string) => `${PREFIX}${encodeURIComponent(sessionId)}`;

/** The URI of part `part` of a session's output (`RESOURCE_PART_BYTES` each). */
export const execOutputPartUri = (sessionId: string, part: number) =>
  `${execOutputUri(sessionId)}/part/${part}`;

const sizeOf = (file: string | undefined) => {
  if (!file) return undefined;
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
};

/**
 * A `resource_link` to a session's spilled output (what an exec result carries beside its
 * notice), with its size; one larger than a read returns says which parts to read instead.
 */
export function execOutputLink(session: BackgroundProcess): ResourceLinkContent {
  const uri = execOutputUri(session.id);
  const size = sizeOf(session.outputInfo().outputFile);
  const whole = `The whole output of \`${session.command.slice(0, 200)}\``;
  return {
    type: "resource_link",
    uri,
    name: `exec output ${session.id}`,
    description:
      size !== undefined && size > MAX_RESOURCE_READ_BYTES ? `${whole}; ${partsHint(uri, size)}` : whole,
    mimeType: "text/plain",
    ...(size !== undefined ? { size } : {}),
  };
}

const PATTERN = /^clawtools:\/\/runtime\/exec-output\/([^/?#]+)(?:\/part\/(0|[1-9]\d{0,8}))?$/;

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
    list: (ctx) => spilled(ctx).map((session) => linkedResource(execOutputLink(session))),
    templates: () => [
      {
        uriTemplate: `${PREFIX}{sessionId}`,
        name: "exec output",
        description: "The whole output of an exec session that passed the result's limit (up to 4 MB a read)",
        mimeType: "text/plain",
      },
      {
        uriTemplate: `${PREFIX}{sessionId}/part/{part}`,
        name: "exec output part",
        description:
          "Part {part} (from 0, 1 MB each, cut on character boundaries) of an exec session's output, for output larger than one read",
        mimeType: "text/plain",
      },
    ],
    read: async (uri, ctx) => {
      const match = PATTERN.exec(uri);
      if (!match) return undefined;
      let sessionId: string;
      try {
        sessionId = decodeURIComponent(match[1]!);
      } catch {
        return undefined;
      }
      const file = registry.get(scopeOf(ctx), sessionId)?.outputInfo().outputFile;
      if (!file) return undefined;
      const whole = execOutputUri(sessionId);
      // a part reads only its own range: a 50 MB spill is never held whole
      const body =
        match[2] === undefined
          ? await readFileBody(file, { uri, text: true, instead: (size) => partsHint(whole, size) })
          : await readFilePart(file, Number(match[2]), { text: true });
      return body === undefined ? undefined : { mimeType: "text/plain", body };
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
