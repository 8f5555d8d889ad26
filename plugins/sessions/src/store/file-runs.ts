import path from "node:path";
import type { RunRegistry } from "../interfaces.js";
import type { RunRecord } from "../types.js";
import { JsonFile, type JsonFileOptions } from "./json-file.js";

/** A record's own copy (records are flat but for `announce` and `outcome`). */
const copy = (r: RunRecord): RunRecord => ({
  ...r,
  announce: { ...r.announce },
  ...(r.outcome ? { outcome: { ...r.outcome } } : {}),
  ...(r.owner ? { owner: { ...r.owner } } : {}),
});

const isString = (v: unknown): v is string => typeof v === "string";

function validRun(run: unknown, runId: string): run is RunRecord {
  if (typeof run !== "object" || run === null) return false;
  const r = run as Partial<RunRecord>;
  return (
    r.runId === runId &&
    isString(r.childSessionKey) &&
    isString(r.requesterSessionKey) &&
    isString(r.status) &&
    typeof r.createdAt === "number" &&
    typeof r.announce === "object" &&
    r.announce !== null
  );
}

interface RunIndex {
  byId: Record<string, RunRecord>;
  oldest: RunRecord[];
  byRequester: Map<string, RunRecord[]>;
  /** The newest run of each child session. */
  byChild: Map<string, RunRecord>;
}
/** Keyed by the parsed file value, which stays the same object while the file is unchanged. */
const indexes = new WeakMap<object, RunIndex>();

/** `subagents/runs.json` under the state directory: every sub-agent run, written atomically. */
export class FileRunRegistry implements RunRegistry {
  readonly file: string;
  private readonly json: JsonFile<Record<string, RunRecord>>;
  constructor(stateDir: string, options: JsonFileOptions = {}) {
    this.file = path.join(stateDir, "subagents", "runs.json");
    this.json = new JsonFile(this.file, () => ({}), options);
  }

  /**
   * The records that have the shape of one (stored state is checked before use; the rest are
   * absent), oldest first and by requester: built once per version of the file, so a lookup costs
   * what it returns, not what the registry holds. Shared: copy a record before handing it out.
   */
  private async read(): Promise<RunIndex> {
    const runs = await this.json.read();
    let index = indexes.get(runs);
    if (!index) {
      const ids = Object.keys(runs);
      const byId = ids.every((id) => validRun(runs[id], id))
        ? runs
        : Object.fromEntries(ids.filter((id) => validRun(runs[id], id)).map((id) => [id, runs[id]!]));
      const oldest = Object.values(byId).sort((a, b) => a.createdAt - b.createdAt);
      const byRequester = new Map<string, RunRecord[]>();
      const byChild = new Map<string, RunRecord>();
      for (const run of oldest) {
        byChild.set(run.childSessionKey, run);
        const list = byRequester.get(run.requesterSessionKey);
        if (list) list.push(run);
        else byRequester.set(run.requesterSessionKey, [run]);
      }
      index = { byId, oldest, byRequester, byChild };
      indexes.set(runs, index);
    }
    return index;
  }

  private mutate<T>(change: (runs: Record<string, RunRecord>) => T): Promise<T> {
    return this.json.mutate(change);
  }

  async record(run: RunRecord): Promise<void> {
    await this.mutate((runs) => {
      runs[run.runId] = copy(run);
    });
  }

  async update(runId: string, patch: Partial<Omit<RunRecord, "runId">>): Promise<RunRecord> {
    return this.mutate((runs) => {
      const run = runs[runId];
      if (!validRun(run, runId)) throw new Error(`Unknown run: ${runId}`);
      runs[runId] = copy({ ...run, ...patch });
      return copy(runs[runId]!);
    });
  }

  async get(runId: string) {
    const run = (await this.read()).byId[runId];
    return run ? copy(run) : undefined;
  }

  async listByRequester(requesterSessionKey: string) {
    return ((await this.read()).byRequester.get(requesterSessionKey) ?? []).map(copy);
  }

  async latestByChild(childSessionKey: string) {
    const run = (await this.read()).byChild.get(childSessionKey);
    return run ? copy(run) : undefined;
  }

  async list() {
    return (await this.read()).oldest.map(copy);
  }
}
