import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { withWriteLock } from "@clawtools/core";
import type { RunRegistry } from "../interfaces.js";
import type { RunRecord } from "../types.js";
import { withFileLock } from "./file-lock.js";

/** `subagents/runs.json` under the state directory: every sub-agent run, written atomically. */
export class FileRunRegistry implements RunRegistry {
  readonly file: string;
  constructor(stateDir: string) {
    this.file = path.join(stateDir, "subagents", "runs.json");
  }

  private async read(): Promise<Record<string, RunRecord>> {
    try {
      return JSON.parse(await readFile(this.file, "utf8")) as Record<string, RunRecord>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw error;
    }
  }

  private async mutate<T>(change: (runs: Record<string, RunRecord>) => T): Promise<T> {
    await mkdir(path.dirname(this.file), { recursive: true });
    return withWriteLock(this.file, () =>
      withFileLock(this.file, async () => {
        const runs = await this.read();
        const result = change(runs);
        const tmp = `${this.file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
        await writeFile(tmp, JSON.stringify(runs, null, 2));
        await rename(tmp, this.file);
        return result;
      }),
    );
  }

  async record(run: RunRecord): Promise<void> {
    await this.mutate((runs) => {
      runs[run.runId] = run;
    });
  }

  async update(runId: string, patch: Partial<Omit<RunRecord, "runId">>): Promise<RunRecord> {
    return this.mutate((runs) => {
      const run = runs[runId];
      if (!run) throw new Error(`Unknown run: ${runId}`);
      runs[runId] = { ...run, ...patch };
      return runs[runId]!;
    });
  }

  async get(runId: string) {
    return (await this.read())[runId];
  }

  async listByRequester(requesterSessionKey: string) {
    return Object.values(await this.read())
      .filter((r) => r.requesterSessionKey === requesterSessionKey)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  async list() {
    return Object.values(await this.read()).sort((a, b) => a.createdAt - b.createdAt);
  }
}
