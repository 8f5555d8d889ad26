import { describe, expect, it } from "vitest";
import { DueIndex } from "./due-index.js";
import { OrderedIndex } from "./ordered-index.js";

/** A small deterministic generator, so a failure replays. */
function random(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return x % n;
  };
}

interface Model {
  next: number | undefined;
  until: number | undefined;
}

/** What the index must answer, by brute force over every job. */
function expectedDue(jobs: Map<string, Model>, now: number) {
  let best: { id: string; next: number } | undefined;
  for (const [id, job] of jobs) {
    if (job.next === undefined || (job.until !== undefined && job.until > now)) continue;
    if (!best || job.next < best.next || (job.next === best.next && id < best.id))
      best = { id, next: job.next };
  }
  return best;
}

describe("DueIndex", () => {
  it("answers the next due job and the next wake-up as a scan would, through 20,000 random changes", () => {
    const rnd = random(7);
    const index = new DueIndex();
    const jobs = new Map<string, Model>();
    let now = 0;
    for (let step = 0; step < 20_000; step++) {
      const id = `j${rnd(300)}`;
      const op = rnd(10);
      if (op < 5) {
        const model: Model = { next: rnd(8) === 0 ? undefined : now + rnd(5_000) - 1_000, until: undefined };
        if (rnd(4) === 0) model.until = now + rnd(3_000);
        jobs.set(id, model);
        index.set(id, model.next, model.until);
      } else if (op < 6) {
        jobs.delete(id);
        index.delete(id);
      } else now += rnd(400);
      const due = expectedDue(jobs, now);
      expect(index.peekDue(now)).toEqual(due && due.next <= now ? due : undefined);
      expect(index.nextWake(now)).toBe(due?.next);
    }
  });

  it("hands a job back to the due order when its lease ends, and forgets it once released without a next run", () => {
    const index = new DueIndex();
    index.set("a", 100, 5_000);
    index.set("b", 200);
    expect(index.peekDue(1_000)).toEqual({ id: "b", next: 200 });
    expect(index.nextWake(5_000)).toBe(100);
    expect(index.peekDue(5_000)).toEqual({ id: "a", next: 100 });
    index.set("a", undefined, 9_000);
    index.set("b", undefined);
    expect(index.nextWake(10_000)).toBeUndefined();
  });
});

describe("OrderedIndex", () => {
  it("pages ids in next-run order (none last, then id) as a sort would, through 20,000 random changes", () => {
    const rnd = random(11);
    const index = new OrderedIndex();
    const model = new Map<string, number | undefined>();
    const sorted = () =>
      [...model.entries()]
        .sort(([ia, a], [ib, b]) => {
          const x = a ?? Number.POSITIVE_INFINITY;
          const y = b ?? Number.POSITIVE_INFINITY;
          return x !== y ? (x < y ? -1 : 1) : ia < ib ? -1 : ia > ib ? 1 : 0;
        })
        .map(([id]) => id);
    for (let step = 0; step < 20_000; step++) {
      const id = `j${rnd(3_000)}`;
      if (rnd(5) === 0) {
        model.delete(id);
        index.delete(id);
      } else {
        const at = rnd(6) === 0 ? undefined : rnd(2_000);
        model.set(id, at);
        index.set(id, at);
      }
      if (step === 10_000) index.reset([...model.entries()].map(([id, at]) => ({ id, at })));
      if (step % 500 === 0) {
        const all = sorted();
        expect(index.size).toBe(all.length);
        expect(index.slice(0, all.length)).toEqual(all);
        const offset = rnd(all.length + 10);
        expect(index.slice(offset, 100)).toEqual(all.slice(offset, offset + 100));
      }
    }
  });
});
