import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import path from "node:path";
import { withFileLock, withWriteLock } from "@clawtools/core/safety";
import type { SessionCursor, SessionPage } from "@clawtools/core/contracts";
import type { SessionStore } from "../interfaces.js";
import { agentOf } from "../keys.js";
import type { SessionEntry, TranscriptMessage } from "../types.js";
import { JsonFile, type JsonFileOptions } from "./json-file.js";
import { checkAgentId, checkSessionId, validEntry } from "./ids.js";
import { checkPageQuery, newestFirst, type OrderedIndex, orderedIndex, pageOf } from "./session-order.js";
import { appendHeader, appendMessages, readNewest } from "./transcript-io.js";
import { TranscriptKeys } from "./transcript-keys.js";

type Index = Record<string, SessionEntry>;

const UPDATED_AT_GRANULARITY_MS = 1_000;

/**
 * OpenClaw's layout under the state directory: `agents/<agentId>/sessions/sessions.json` (the
 * index, replaced whole under an in-process queue and a lock file; see `JsonFile`) and one
 * pi-format JSONL transcript per session (`<sessionId>.jsonl`; see `transcript-io.ts`).
 */
export class FileSessionStore implements SessionStore {
  /** The idempotency keys in each transcript, re-read as other processes append. */
  private readonly keys = new TranscriptKeys();

  constructor(
    readonly stateDir: string,
    private readonly options: JsonFileOptions = {},
  ) {}

  /** Every agent id that reaches a path is checked first (a key such as `agent:../..:x` names none). */
  private dir(agentId: string) {
    return path.join(this.stateDir, "agents", checkAgentId(agentId), "sessions");
  }
  private indexFile(agentId: string) {
    return path.join(this.dir(agentId), "sessions.json");
  }
  /** The transcript of an entry; its ids came from the index (stored state), so they are checked. */
  transcriptPath(entry: Pick<SessionEntry, "agentId" | "sessionId">) {
    return path.join(this.dir(entry.agentId), `${checkSessionId(entry.sessionId)}.jsonl`);
  }

  private indexes = new Map<string, JsonFile<Index>>();
  private index(agentId: string): JsonFile<Index> {
    let file = this.indexes.get(agentId);
    if (!file) {
      file = new JsonFile<Index>(this.indexFile(agentId), () => ({}), this.options);
      this.indexes.set(agentId, file);
    }
    return file;
  }

  /**
   * The index as last written, without the entries that fail the checks (an id that is not a
   * plain name, a key filed under another agent): they are treated as absent. Checked and
   * ordered once per version of the file. Shared: copy an entry before handing it out.
   */
  private async ordered(agentId: string): Promise<OrderedIndex> {
    return orderedIndex(await this.index(agentId).read(), agentId);
  }

  private async readIndex(agentId: string): Promise<Index> {
    return (await this.ordered(agentId)).index;
  }

  /** Read, change and write the index as one step for every writer, in this process and others. */
  private mutate<T>(agentId: string, change: (index: Index) => T): Promise<T> {
    return this.index(agentId).mutate(change);
  }

  private async agents(): Promise<string[]> {
    const { readdir } = await import("node:fs/promises");
    const names = await readdir(path.join(this.stateDir, "agents")).catch(() => [] as string[]);
    return names.filter((name) => {
      try {
        return checkAgentId(name) === name;
      } catch {
        return false; // a directory that is no agent's
      }
    });
  }

  async list(filter: { agentId?: string; updatedSince?: number } = {}): Promise<SessionEntry[]> {
    const agentIds = filter.agentId ? [filter.agentId] : await this.agents();
    const lists = await Promise.all(agentIds.map(async (a) => (await this.ordered(a)).newest));
    const all = lists.length === 1 ? lists[0]! : lists.flat().sort(newestFirst);
    const since = filter.updatedSince;
    return (since === undefined ? all : all.filter((e) => e.updatedAt >= since)).map((e) => ({ ...e }));
  }

  /** A page from each agent's ordered index: its cost is the page's, whatever the index holds. */
  async listPage(query: {
    agentId?: string;
    updatedSince?: number;
    limit: number;
    after?: SessionCursor;
  }): Promise<SessionPage> {
    checkPageQuery(query);
    const agentIds = query.agentId ? [query.agentId] : await this.agents();
    return pageOf(await Promise.all(agentIds.map(async (a) => (await this.ordered(a)).newest)), query);
  }

  async get(key: string): Promise<SessionEntry | undefined> {
    const entry = (await this.readIndex(agentOf(key)))[key];
    return entry ? { ...entry } : undefined;
  }

  async resolve(ref: { key?: string; sessionId?: string; label?: string; agentId?: string }) {
    if (ref.key) return this.get(ref.key);
    const entries = await this.list(ref.agentId ? { agentId: ref.agentId } : {});
    if (ref.sessionId) return entries.find((e) => e.sessionId === ref.sessionId);
    if (ref.label) return entries.find((e) => e.label === ref.label);
    return undefined;
  }

  async create(input: Omit<SessionEntry, "sessionId" | "createdAt" | "updatedAt"> & { sessionId?: string }) {
    const now = Date.now();
    if (input.sessionId !== undefined) checkSessionId(input.sessionId);
    // filed where get() looks: under the agent its key names
    const agentId = checkAgentId(agentOf(input.key, input.agentId));
    const entry = await this.mutate(agentId, (index) => {
      const existing = index[input.key];
      // an entry that fails the checks is replaced, never used
      if (existing && validEntry(existing, input.key, agentId)) return { ...existing };
      const created: SessionEntry = {
        ...input,
        agentId,
        sessionId: input.sessionId ?? randomUUID(),
        createdAt: now,
        updatedAt: now,
      };
      index[input.key] = created;
      return { ...created };
    });
    const file = this.transcriptPath(entry);
    await withWriteLock(file, async () => appendHeader(file, entry.sessionId, now, this.stateDir));
    return entry;
  }

  async patch(key: string, patch: Partial<Omit<SessionEntry, "key" | "sessionId">>) {
    const agentId = agentOf(key);
    return this.mutate(agentId, (index) => {
      const entry = index[key];
      if (!validEntry(entry, key, agentId)) throw new Error(`Session not found: ${key}`);
      const next = { ...entry, ...patch, updatedAt: Date.now() };
      for (const [k, v] of Object.entries(patch))
        if (v === undefined) delete (next as Record<string, unknown>)[k];
      index[key] = next;
      return { ...next };
    });
  }

  async delete(key: string): Promise<boolean> {
    const agentId = agentOf(key);
    const removed = await this.mutate(agentId, (index) => {
      const entry = index[key];
      delete index[key];
      return validEntry(entry, key, agentId) ? { ...entry } : undefined;
    });
    if (removed) await rm(this.transcriptPath(removed), { force: true });
    return Boolean(removed);
  }

  async append(
    key: string,
    messages: TranscriptMessage[],
    options: { idempotencyKey?: string } = {},
  ): Promise<boolean> {
    const entry = await this.get(key);
    if (!entry) throw new Error(`Session not found: ${key}`);
    const file = this.transcriptPath(entry);
    const appended = await withWriteLock(file, async () => {
      const key = options.idempotencyKey;
      if (!key) return appendMessages(file, messages);
      // a retried delivery may come from another process: look and append under the file's lock
      return withFileLock(
        file,
        async () => !this.keys.current(file).has(key) && appendMessages(file, messages, key),
      );
    });
    // the index says when the session last changed, to the second: a run appending message
    // after message rewrites sessions.json once a second at most
    if (appended && Date.now() - entry.updatedAt >= UPDATED_AT_GRANULARITY_MS) await this.patch(key, {});
    return appended;
  }

  async history(
    key: string,
    options: { limit?: number; maxBytes?: number } = {},
  ): Promise<TranscriptMessage[]> {
    const entry = await this.get(key);
    if (!entry) return [];
    return readNewest(this.transcriptPath(entry), options);
  }
}
