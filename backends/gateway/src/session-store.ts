import type { SessionEntry, SessionStore, TranscriptMessage } from "@clawtools/core/contracts";
import type { GatewayClient } from "./client.js";
import { isGatewayError } from "./errors.js";
import { type GatewaySessionRow, injectableText, toSessionEntry, toTranscript } from "./session-entry.js";

type CreateEntry = Parameters<SessionStore["create"]>[0];
type EntryPatch = Parameters<SessionStore["patch"]>[1];

// the fields sessions.patch can set; the rest (status, run times, tokens, lineage) the Gateway keeps itself
const PATCHABLE = new Set(["label", "model"]);
// what sessions.create takes beside key / agentId / label / model
const CREATABLE = new Set(["key", "agentId", "label", "model", "depth", "spawnedBy", "parentSessionKey"]);
const PAGE = 200;
// chat.history answers at most this many messages and reads no less than this many bytes
const HISTORY_MAX_LIMIT = 1000;
const HISTORY_MIN_BYTES = 1024;

/**
 * A SessionStore over the Gateway's `sessions.*` and `chat.history`: the Gateway owns the
 * sessions and their transcripts. Writes are what the Gateway allows, and what it cannot do is
 * refused with an error naming the method, never dropped:
 * - `append` goes to `chat.inject`, which writes assistant text only and takes no idempotency
 *   key, so an append with one (a delivery that must happen once) is refused;
 * - `patch` sets `label` and `model`; the run fields (status, times, tokens) are the Gateway's.
 */
export class GatewaySessionStore implements SessionStore {
  readonly #client: GatewayClient;

  constructor(options: { client: GatewayClient }) {
    this.#client = options.client;
  }

  async list(filter: { agentId?: string; updatedSince?: number } = {}): Promise<SessionEntry[]> {
    const out: SessionEntry[] = [];
    // sessions.list pages (limit/offset); it has no agent filter, so that one is applied here
    for (let offset = 0; ; ) {
      const page = await this.#client.request<{
        sessions?: GatewaySessionRow[];
        hasMore?: boolean;
        nextOffset?: number | null;
      }>("sessions.list", { limit: PAGE, offset });
      for (const row of page.sessions ?? []) {
        const entry = toSessionEntry(row);
        if (filter.agentId && entry.agentId !== filter.agentId) continue;
        if (filter.updatedSince !== undefined && entry.updatedAt < filter.updatedSince) continue;
        out.push(entry);
      }
      if (!page.hasMore || typeof page.nextOffset !== "number" || page.nextOffset <= offset) return out;
      offset = page.nextOffset;
    }
  }

  async get(key: string): Promise<SessionEntry | undefined> {
    const answer = await this.#client.request<{ session?: GatewaySessionRow | null }>("sessions.describe", {
      key,
    });
    return answer.session ? toSessionEntry(answer.session) : undefined;
  }

  async resolve(ref: {
    key?: string;
    sessionId?: string;
    label?: string;
    agentId?: string;
  }): Promise<SessionEntry | undefined> {
    if (ref.key) return this.get(ref.key);
    const params: Record<string, string> = {};
    if (ref.sessionId) params.sessionId = ref.sessionId;
    else if (ref.label) {
      params.label = ref.label;
      if (ref.agentId) params.agentId = ref.agentId;
    } else return undefined;
    let found: { key?: string };
    try {
      found = await this.#client.request<{ key?: string }>("sessions.resolve", params);
    } catch (error) {
      // "No session found with label: …" is an answer (none), not a failure
      if (
        isGatewayError(error) &&
        error.code === "INVALID_REQUEST" &&
        /no session found/i.test(error.message)
      )
        return undefined;
      throw error;
    }
    return found.key ? this.get(found.key) : undefined;
  }

  async create(entry: CreateEntry): Promise<SessionEntry> {
    const existing = await this.get(entry.key);
    if (existing) return existing;
    const extra = Object.keys(entry).filter(
      (k) => !CREATABLE.has(k) && (entry as Record<string, unknown>)[k] !== undefined,
    );
    if (entry.sessionId !== undefined) extra.push("sessionId");
    if (extra.length)
      throw new Error(
        `gateway sessions.create cannot set ${extra.join(", ")}: the Gateway assigns the session id and keeps the run fields itself`,
      );
    const parent = entry.parentSessionKey ?? entry.spawnedBy;
    const depth = entry.depth ?? 0;
    if (depth > 0 && !parent)
      throw new Error("gateway sessions.create: a spawned session (depth > 0) needs parentSessionKey");
    await this.#client.request("sessions.create", {
      key: entry.key,
      ...(entry.agentId ? { agentId: entry.agentId } : {}),
      ...(entry.label ? { label: entry.label } : {}),
      ...(entry.model ? { model: entry.model } : {}),
      ...(depth > 0 ? { parentSessionKey: parent, spawnDepth: depth } : {}),
    });
    const created = await this.get(entry.key);
    if (!created)
      throw new Error(`gateway sessions.create answered, yet sessions.describe has no ${entry.key}`);
    return created;
  }

  async patch(key: string, patch: EntryPatch): Promise<SessionEntry> {
    const fields = Object.keys(patch);
    const refused = fields.filter((k) => !PATCHABLE.has(k));
    if (refused.length)
      throw new Error(
        `gateway sessions.patch cannot set ${refused.join(", ")}: only label and model; the Gateway keeps a session's run status, times and tokens itself`,
      );
    if (!(await this.get(key))) throw new Error(`Unknown session: ${key}`);
    if (fields.length) {
      const params: Record<string, unknown> = { key };
      // undefined clears the field (the Gateway's null)
      for (const field of fields) params[field] = (patch as Record<string, unknown>)[field] ?? null;
      await this.#client.request("sessions.patch", params);
    }
    const after = await this.get(key);
    if (!after) throw new Error(`Unknown session: ${key}`);
    return after;
  }

  async delete(key: string): Promise<boolean> {
    if (!(await this.get(key))) return false;
    const answer = await this.#client.request<{ deleted?: boolean }>("sessions.delete", {
      key,
      deleteTranscript: true,
    });
    return answer.deleted === true;
  }

  async append(
    key: string,
    messages: TranscriptMessage[],
    options: { idempotencyKey?: string } = {},
  ): Promise<boolean> {
    if (options.idempotencyKey !== undefined)
      throw new Error(
        "gateway chat.inject takes no idempotency key, so an append that must happen once cannot go through it",
      );
    // every message is checked before the first is written: none or all
    const texts = messages.map((message, i) => {
      const checked = injectableText(message);
      if ("refused" in checked)
        throw new Error(`gateway chat.inject cannot append message ${i}: ${checked.refused}`);
      return checked.text;
    });
    if (texts.length && !(await this.get(key))) throw new Error(`Unknown session: ${key}`);
    for (const message of texts) await this.#client.request("chat.inject", { sessionKey: key, message });
    return texts.length > 0;
  }

  async history(
    key: string,
    options: { limit?: number; maxBytes?: number } = {},
  ): Promise<TranscriptMessage[]> {
    const params: Record<string, unknown> = { sessionKey: key };
    if (options.limit !== undefined) {
      if (options.limit <= 0) return [];
      params.limit = Math.min(Math.floor(options.limit), HISTORY_MAX_LIMIT);
    }
    if (options.maxBytes !== undefined)
      params.maxBytes = Math.max(Math.floor(options.maxBytes), HISTORY_MIN_BYTES);
    const answer = await this.#client.request<{ messages?: unknown }>("chat.history", params);
    const messages = toTranscript(answer.messages);
    if (options.maxBytes === undefined || options.maxBytes >= HISTORY_MIN_BYTES) return messages;
    // below the Gateway's floor: keep the newest messages that fit
    let bytes = 0;
    let from = messages.length;
    while (from > 0) {
      bytes += Buffer.byteLength(JSON.stringify(messages[from - 1]));
      if (bytes > options.maxBytes && from < messages.length) break;
      from--;
    }
    return messages.slice(from);
  }
}
