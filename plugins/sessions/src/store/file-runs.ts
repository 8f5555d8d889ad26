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

/** `subagents/runs.json` under the state directory: every sub-agent run, written atomically. */
export class FileRunRegistry implements RunRegistry {
  readonly file: string;
  private readonly json: JsonFile<Record<string, RunRecord>>;
  constructor(stateDir: string, options: JsonFileOptions = {}) {
    this.file = path.join(stateDir, "subagents", "runs.json");
    this.json = new JsonFile(this.file, () => ({}), options);
  }

  /** The records that have the shape of one (stored state is checked before use; the rest are absent). */
  private async read(): Promise<Record<string, RunRecord>> {
    const runs = await this.json.read();
    const ids = Object.keys(runs);
    if (ids.every((id) => validRun(runs[id], id))) return runs;
    return Object.fromEntries(ids.filter((id) => validRun(runs[id], id)).map((id) => [id, runs[id]!]));
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
    const run = (await this.read())[runId];
    return run ? copy(run) : undefined;
  }

  async listByRequester(requesterSessionKey: string) {
    return Object.values(await this.read())
      .filter((r) => r.requesterSessionKey === requesterSessionKey)
      .map(copy)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  async list() {
    return Object.values(await this.read())
      .map(copy)
      .sort((a, b) => a.createdAt - b.createdAt);
  }
}
