// Code mode's `results` as OpenClaw 9.6 has it: a value saved by one cell and loaded by a later
// one, its descriptor (id, bytes, count, sampled shape and preview, at most 768 bytes), the
// store's bounds, automatic saving of a final value too big for the result, and the MCP mark
// travelling with a saved value.
import { describe, expect, it } from "vitest";
import { describeResult, MAX_REFERENCE_BYTES } from "../../src/surface/code-reference.js";
import { MAX_SAVED_RESULTS, SavedResults } from "../../src/surface/code-results.js";
import { codeSurface, run } from "./catalog.js";

const orders = Array.from({ length: 500 }, (_, i) => ({
  id: i,
  customer: `customer-${i}`,
  paid: i % 3 === 0,
  note: "x".repeat(100),
}));

describe("code mode results", () => {
  it("save in one cell, load in a later one: a detached copy; delete frees it and a second load rejects", async () => {
    const surface = codeSurface();
    const saved = await run(surface, `return await results.save(${JSON.stringify({ orders })});`);
    expect(saved.status).toBe("completed");
    const reference = saved.value as {
      id: string;
      bytes: number;
      count: number;
      shape: string;
      preview: string;
    };
    expect(reference.id).toMatch(/^result_[0-9a-f-]{36}$/);
    expect(reference.bytes).toBe(Buffer.byteLength(JSON.stringify({ orders })));
    expect(reference.count).toBe(1);
    expect(reference.shape).toContain("$.orders: 500 items, sampled 3/500");
    expect(Buffer.byteLength(JSON.stringify(reference))).toBeLessThanOrEqual(MAX_REFERENCE_BYTES);

    const unpaid = await run(
      surface,
      `const data = await results.load(${JSON.stringify(reference.id)});
       data.orders.length = 0; // a copy: the saved value is unchanged
       const again = await results.load(${JSON.stringify(reference.id)});
       return again.orders.filter((o) => !o.paid).length;`,
    );
    expect(unpaid.value).toBe(orders.filter((o) => !o.paid).length);

    const deleted = await run(
      surface,
      `const gone = await results.delete(${JSON.stringify(reference.id)});
       try { await results.load(${JSON.stringify(reference.id)}); return "loaded"; }
       catch (e) { return { gone, message: e.message }; }`,
    );
    expect(deleted.value).toEqual({
      gone: true,
      message: "Code Mode result is unavailable or expired; fetch fresh data if needed.",
    });
  });

  it("another session's surface never sees a saved value", async () => {
    const saved = await run(codeSurface(), `return await results.save([1, 2, 3]);`);
    const id = (saved.value as { id: string }).id;
    const other = await run(
      codeSurface(),
      `try { return await results.load(${JSON.stringify(id)}); } catch (e) { return e.message; }`,
    );
    expect(other.value).toBe("Code Mode result is unavailable or expired; fetch fresh data if needed.");
  });

  it("a final array too big for the result is saved and returned as a reference the next cell loads", async () => {
    const surface = codeSurface();
    const big = await run(
      surface,
      `return Array.from({ length: 2000 }, (_, i) => ({ i, label: "row " + i, pad: "y".repeat(40) }));`,
    );
    const value = big.value as {
      truncated: boolean;
      reference: { id: string; count: number };
      guidance: string;
    };
    expect(value).toMatchObject({
      truncated: true,
      guidance: "Full result saved for this run; use results.load(reference.id) in a later exec.",
      reference: { count: 2000 },
    });
    const loaded = await run(
      surface,
      `const rows = await results.load(${JSON.stringify(value.reference.id)}); return rows[1999].label;`,
    );
    expect(loaded.value).toBe("row 1999");
  });

  it("a full store refuses a save and keeps what it has; an automatic save says why it could not keep a value", async () => {
    const surface = codeSurface({ limits: { memoryLimitBytes: 4 * 1_048_576 } });
    const fill = await run(
      surface,
      `const ids = [];
       for (let i = 0; i < 3; i++) ids.push((await results.save("z".repeat(1_200_000))).id);
       try { await results.save("z".repeat(1_200_000)); return "saved"; }
       catch (e) { return { ids, message: e.message, code: e.code }; }`,
    );
    expect(fill.value, JSON.stringify(fill).slice(0, 500)).toMatchObject({
      message:
        "Code Mode results capacity exceeded; delete saved references or save a smaller value. Existing references are unchanged.",
      code: "invalid_input",
    });
    const kept = await run(
      surface,
      `return (await results.load(${JSON.stringify((fill.value as { ids: string[] }).ids[0])})).length;`,
    );
    expect(kept.value).toBe(1_200_000);
    const big = await run(
      surface,
      `return Array.from({ length: 12000 }, (_, i) => "item " + i + "-".repeat(60));`,
    );
    expect(big.value).toMatchObject({
      truncated: true,
      guidance:
        "Not retained: result-store capacity exceeded. Delete references or return less data. Output truncated; rerun with narrower args.",
    });
  });

  it("a value saved from an MCP server's answer is marked: loading it frames the cell's result as external content", async () => {
    const surface = codeSurface();
    const saved = await run(
      surface,
      `const created = await MCP.calendar.create_event({ title: "launch" }); return (await results.save(created)).id;`,
    );
    const loaded = await run(
      surface,
      `const v = await results.load(${JSON.stringify(saved.value)}); return v.content[0].text;`,
    );
    expect(loaded.value).toContain("created launch");
    expect(loaded.text).toMatch(/^<<<EXTERNAL_UNTRUSTED_CONTENT id="[0-9a-f]+">>>/);
  });

  it("documents the contract in results.d.ts and the exec description", async () => {
    const surface = codeSurface();
    const file = await run(surface, `return (await API.read("results.d.ts")).content;`);
    expect(file.value).toContain("save(value: unknown): Promise<CodeModeResultReference>;");
    expect(surface.exec.description).toContain(
      "Save returns `{id,bytes,count,shape,preview,previewTruncated}`: emit that descriptor directly; full JSON stays stored.",
    );
  });
});

describe("the saved-result descriptor and store", () => {
  it("previews a small value whole and samples a big one (first, middle, last), within 768 bytes", () => {
    const small = describeResult("result_a", JSON.stringify({ ok: true }), { ok: true });
    expect(small).toMatchObject({
      count: 1,
      preview: '{"ok":true}',
      previewTruncated: false,
      shape: '{"ok":boolean}',
    });
    const mixed = [1, "two", { three: 3 }];
    const hetero = describeResult("result_b", JSON.stringify(mixed), mixed);
    expect(hetero.shape).toBe('$: 3 items, sampled 3/3 heterogeneous: number | string | {"three":number}');
    const json = JSON.stringify({ total: 500, orders });
    const big = describeResult("result_c", json, JSON.parse(json));
    expect(big.previewTruncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(big))).toBeLessThanOrEqual(MAX_REFERENCE_BYTES);
    expect(big.id).toBe("result_c");
    expect(big.bytes).toBe(Buffer.byteLength(json));
    expect(big.preview.startsWith('{"sampled":true')).toBe(true);
  });

  it("holds at most 64 values and never evicts", () => {
    const store = new SavedResults(1_000_000);
    const ids = Array.from({ length: MAX_SAVED_RESULTS }, (_, i) => store.save(i, false).id);
    expect(() => store.save("one more", false)).toThrow(/capacity exceeded/);
    expect(store.load(ids[0]).value).toBe(0);
    expect(() => store.load("")).toThrow("results reference id must be a non-empty string.");
  });
});
