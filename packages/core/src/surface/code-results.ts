import { randomUUID } from "node:crypto";
import { ToolInputError } from "../errors.js";
import { describeResult, type ResultReference } from "./code-reference.js";
import type { ApiFile } from "./declarations.js";

/** At most this many saved results at once (OpenClaw 9.6's). */
export const MAX_SAVED_RESULTS = 64;

type Saved = { json: string; bytes: number; untrusted: boolean };

/** Why a value was not kept: the guest's error for `results.save`, the marker's for an automatic save. */
export type NotRetained = { reason: string };

/**
 * The `results` store of one code surface (one session's catalog): JSON values saved by one cell
 * and loaded by a later one, as OpenClaw 9.6's code mode keeps them. Bounded by count and by
 * encoded bytes; a full store refuses a save and never evicts. Each load is a fresh copy. Whether
 * a value came from an MCP server goes with it, so loading it marks the cell's result untrusted.
 * Nothing outlives the surface (a new session or catalog starts empty).
 */
export class SavedResults {
  readonly #entries = new Map<string, Saved>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Keeps `json` (a complete JSON text) and describes it, or says why it was not kept. */
  retain(json: string, untrusted: boolean): ResultReference | NotRetained {
    const bytes = Buffer.byteLength(json, "utf8");
    if (bytes > this.maxBytes)
      return { reason: "Not retained: result exceeds the data allowance. Return less data." };
    if (this.#entries.size >= MAX_SAVED_RESULTS || bytes > this.maxBytes - this.#bytes)
      return {
        reason: "Not retained: result-store capacity exceeded. Delete references or return less data.",
      };
    const id = `result_${randomUUID()}`;
    const reference = describeResult(id, json, JSON.parse(json));
    this.#entries.set(id, { json, bytes, untrusted });
    this.#bytes += bytes;
    return reference;
  }

  /** `results.save(value)`: the descriptor, or an error the guest can catch. */
  save(value: unknown, untrusted: boolean): ResultReference {
    const kept = this.retain(JSON.stringify(value) ?? "null", untrusted);
    if ("reason" in kept)
      throw new ToolInputError(
        "Code Mode results capacity exceeded; delete saved references or save a smaller value. Existing references are unchanged.",
      );
    return kept;
  }

  /** `results.load(id)`: a detached copy, and whether it came from an MCP server. */
  load(id: unknown): { value: unknown; untrusted: boolean } {
    const entry = this.#entries.get(this.#key(id));
    if (!entry) throw unavailable();
    return { value: JSON.parse(entry.json), untrusted: entry.untrusted };
  }

  /** `results.delete(id)`: frees its bytes; a missing id rejects like a load. */
  delete(id: unknown): true {
    const key = this.#key(id);
    const entry = this.#entries.get(key);
    if (!entry) throw unavailable();
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    return true;
  }

  get size(): number {
    return this.#entries.size;
  }

  #key(id: unknown): string {
    if (typeof id !== "string" || !id)
      throw new ToolInputError("results reference id must be a non-empty string.");
    return id;
  }
}

const unavailable = () =>
  new ToolInputError("Code Mode result is unavailable or expired; fetch fresh data if needed.");

const RESULTS_DECLARATION = `type CodeModeResultReference = {
  id: string;
  /** Encoded JSON bytes of the saved value. */
  bytes: number;
  /** Array length, object key count, or 1 for a scalar. */
  count: number;
  /** Sampled shapes and nested array counts, within bounds: an observation, not a schema. */
  shape: string;
  /** Small values: their JSON. Larger ones: a sampled view (array paths, counts, first/middle/last
   * items, short top-level fields). May be cut; never use it in place of the loaded value. */
  preview: string;
  previewTruncated: boolean;
};
/** At most 64 saved values sharing min(memoryLimitBytes, 10 MiB) of encoded JSON. A full store
 * refuses a save and evicts nothing. Saved values live as long as this session's catalog: they
 * survive cells and wait, not a restart of the server. They are snapshots, not live state.
 * A final object or array too big for the result is saved automatically when there is room; the
 * value is then {truncated: true, reference: CodeModeResultReference, guidance: string}.
 * The sampled view visits at most 128 nodes, 5 levels and 16 keys per object, shows the 8
 * largest arrays first, and the descriptor is at most 768 encoded JSON bytes.
 */
declare const results: {
  /** Saves a JSON copy for later cells and returns its descriptor: return it as it is.
   * Example: return await results.save(await tool({}));
   */
  save(value: unknown): Promise<CodeModeResultReference>;
  /** A detached JSON copy of a saved value. Look at the preview before relying on fields. */
  load(id: string): Promise<unknown>;
  /** Frees the value's room. A missing or expired id rejects. */
  delete(id: string): Promise<boolean>;
};
`;

/** `results.d.ts`, readable with `API.read("results.d.ts")`. */
export const RESULTS_API_FILE: ApiFile = {
  path: "results.d.ts",
  description: "Temporary JSON results shared across cells in this session.",
  bytes: Buffer.byteLength(RESULTS_DECLARATION, "utf8"),
  content: RESULTS_DECLARATION,
};
