import type { ToolContext } from "@clawtools/core";
import {
  MAX_RESOURCE_READ_BYTES,
  type PluginResources,
  type ResourceLinkContent,
  linkedResource,
} from "@clawtools/core/resources";
import { sanitizeMessage } from "./caps.js";
import type { SessionsConfig } from "./config.js";
import { byKeyMap, policyOf, resolveVisible, sessionsEnv } from "./context.js";
import type { SessionsService } from "./service.js";
import { checkVisibility } from "./visibility.js";

const PREFIX = "clawtools://sessions/transcript/";
const MIME = "application/x-ndjson";
/** Sessions listed at most (the most recently updated). */
const MAX_LISTED = 200;

/** The URI of a session's transcript, by its full key. */
export const transcriptUri = (key: string) => `${PREFIX}${encodeURIComponent(key)}`;

/** A `resource_link` to a session's transcript (what a sessions_history result carries). */
export const transcriptLink = (key: string): ResourceLinkContent => ({
  type: "resource_link",
  uri: transcriptUri(key),
  name: `transcript ${key}`,
  description: `The messages of session ${key}, one JSON object a line (the newest 4 MB)`,
  mimeType: MIME,
});

/**
 * Session transcripts as resources, listed and read only where sessions_history may read them
 * (the section's visibility rule for the caller's session), each message sanitised as
 * sessions_history does (secrets redacted, text capped), the newest 4 MB of a long one.
 */
export function transcriptResources(
  serviceFor: (ctx: ToolContext) => SessionsService,
  configOf: (ctx: ToolContext) => SessionsConfig,
): PluginResources {
  const envOf = (ctx: ToolContext) => sessionsEnv(ctx, serviceFor(ctx), configOf(ctx));
  return {
    list: async (ctx) => {
      const env = envOf(ctx);
      const byKey = await byKeyMap(env);
      const caller = { key: env.callerKey, agentId: env.agentId };
      return [...byKey.values()]
        .filter((entry) => checkVisibility("history", caller, entry, policyOf(env), byKey).ok)
        .sort((x, y) => y.updatedAt - x.updatedAt)
        .slice(0, MAX_LISTED)
        .map((entry) => linkedResource(transcriptLink(entry.key)));
    },
    templates: () => [
      {
        uriTemplate: `${PREFIX}{sessionKey}`,
        name: "session transcript",
        description:
          "A session's messages as JSON lines, by its full key (percent-encoded), where sessions_history may read it",
        mimeType: MIME,
      },
    ],
    read: async (uri, ctx) => {
      if (!uri.startsWith(PREFIX)) return undefined;
      let key: string;
      try {
        key = decodeURIComponent(uri.slice(PREFIX.length));
      } catch {
        return undefined;
      }
      // only a full key names a transcript here (no aliases): one URI, one session
      if (!key.startsWith("agent:")) return undefined;
      const env = envOf(ctx);
      if (!(await env.service.store.get(key))) return undefined;
      const target = await resolveVisible(env, "history", key);
      // a session the caller may not see reads as one nobody serves
      if (!("entry" in target) || target.entry.key !== key) return undefined;
      const messages = await env.service.store.history(key, { maxBytes: MAX_RESOURCE_READ_BYTES });
      const lines = messages.map((m) => `${JSON.stringify(sanitizeMessage(m).message)}\n`);
      // the newest messages that fit one read
      let bytes = 0;
      let from = lines.length;
      while (from > 0 && bytes + Buffer.byteLength(lines[from - 1]!) <= MAX_RESOURCE_READ_BYTES) {
        from--;
        bytes += Buffer.byteLength(lines[from]!);
      }
      return { mimeType: MIME, body: lines.slice(from).join("") };
    },
  };
}
