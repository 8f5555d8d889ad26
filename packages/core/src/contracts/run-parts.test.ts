import { describe, expect, it } from "vitest";
import { FakeClock } from "../testing/index.js";
import type { RunOutcome, StartRunRequest } from "./agent-runner.js";
import { armTimeLimit, settleTurn, TranscriptWriter, turnOutcome } from "./run-parts.js";
import { RunTable, type SessionRun } from "./run-table.js";
import type { SessionStore } from "./session-store.js";
import type { TranscriptMessage } from "./transcript.js";

// The run pieces the in-process runners share (issue 24: written once, not per runner).

describe("armTimeLimit", () => {
  it("expires once the limit passes, not when disarmed first, and arms nothing for 0", () => {
    const clock = new FakeClock();
    const fired: string[] = [];
    armTimeLimit(clock, 100, () => fired.push("a"));
    const disarm = armTimeLimit(clock, 100, () => fired.push("b"));
    armTimeLimit(clock, 0, () => fired.push("c"));
    armTimeLimit(clock, undefined, () => fired.push("d"));
    clock.advance(99);
    expect(fired).toEqual([]);
    disarm();
    clock.advance(1);
    expect(fired).toEqual(["a"]);
    clock.advance(10_000);
    expect(fired).toEqual(["a"]);
  });
});

/** A store whose appends finish in the order `release` is called, to show the writer keeps order anyway. */
function slowStore(failOn?: string) {
  const written: string[] = [];
  const pending: Array<() => void> = [];
  const store = {
    append: (_key: string, messages: TranscriptMessage[]) =>
      new Promise<void>((resolve, reject) => {
        pending.push(() => {
          const text = String(messages[0]?.content);
          if (text === failOn) return reject(new Error(`append failed: ${text}`));
          written.push(text);
          resolve();
        });
      }),
  } as unknown as SessionStore;
  const releaseNext = async () => {
    while (pending.length === 0) await new Promise((r) => setImmediate(r));
    pending.shift()!();
  };
  return { store, written, releaseNext };
}

describe("TranscriptWriter", () => {
  it("writes in order, one append after the other, and stamps a message without a timestamp", async () => {
    const { store, written, releaseNext } = slowStore();
    const writer = new TranscriptWriter(store, "s");
    void writer.append([{ role: "user", content: "one", timestamp: 1 }]);
    const second = writer.appendStamped({ role: "assistant", content: "two" });
    await releaseNext();
    await releaseNext();
    await second;
    await writer.settled();
    expect(written).toEqual(["one", "two"]);
  });

  it("after a failed append the later ones are not written and settled rejects with the failure", async () => {
    const { store, written, releaseNext } = slowStore("bad");
    const writer = new TranscriptWriter(store, "s");
    void writer.append([{ role: "user", content: "bad", timestamp: 1 }]).catch(() => {});
    void writer.append([{ role: "user", content: "later", timestamp: 2 }]).catch(() => {});
    await releaseNext();
    await expect(writer.settled()).rejects.toThrow("append failed: bad");
    expect(written).toEqual([]);
  });
});

describe("turnOutcome", () => {
  const run = (over: Partial<SessionRun & { timedOut: boolean }> = {}) => ({
    done: Promise.resolve<RunOutcome>({ status: "ok" }),
    timedOut: false,
    ...over,
  });
  const failure = (m: string) => `redacted(${m})`;

  it("maps each way a turn ends", () => {
    expect(turnOutcome(run({ timedOut: true }), { text: "partial" }, failure)).toEqual({
      status: "timeout",
      reply: "partial",
    });
    expect(turnOutcome(run({ timedOut: true }), undefined, failure)).toEqual({ status: "timeout" });
    expect(turnOutcome(run(), undefined, failure)).toEqual({
      status: "error",
      error: "the run produced no answer",
    });
    expect(turnOutcome(run(), { text: "", stopReason: "aborted" }, failure)).toEqual({
      status: "aborted",
      error: "aborted",
    });
    expect(turnOutcome(run(), { text: "", stopReason: "error", errorMessage: "sk-x bad" }, failure)).toEqual({
      status: "error",
      error: "redacted(sk-x bad)",
    });
    expect(turnOutcome(run(), { text: "", stopReason: "error" }, failure).error).toBe(
      "redacted(model error)",
    );
    expect(turnOutcome(run({ yielded: "waiting" }), { text: "" }, failure)).toEqual({
      status: "ok",
      reply: "waiting",
      yielded: true,
    });
    expect(turnOutcome(run({ yielded: "waiting" }), { text: "said" }, failure)).toEqual({
      status: "ok",
      reply: "said",
      yielded: true,
    });
    expect(turnOutcome(run(), { text: "done" }, failure)).toEqual({ status: "ok", reply: "done" });
  });
});

describe("settleTurn", () => {
  it("gives the turn's outcome or the failure's, and disarms and releases the tools either way", async () => {
    const log: string[] = [];
    const release = () => ({
      disarm: () => log.push("disarm"),
      tools: { dispose: async () => void log.push("dispose") },
    });
    const ok = await settleTurn(
      async () => ({ status: "ok", reply: "r" }),
      () => ({ status: "error" }),
      release(),
    );
    expect(ok).toEqual({ status: "ok", reply: "r" });
    const failed = await settleTurn(
      async () => {
        throw new Error("boom");
      },
      async (error) => ({ status: "error", error: error.message }),
      release(),
    );
    expect(failed).toEqual({ status: "error", error: "boom" });
    expect(log).toEqual(["disarm", "dispose", "disarm", "dispose"]);
    // a release that fails leaves the outcome as it was
    const kept = await settleTurn(
      async () => ({ status: "ok", reply: "kept" }),
      () => ({ status: "error" }),
      {
        disarm: () => {},
        tools: { dispose: async () => Promise.reject(new Error("dispose failed")) },
      },
    );
    expect(kept).toEqual({ status: "ok", reply: "kept" });
  });
});

describe("RunTable.agentRunner", () => {
  it("starts through the driver, stops and steers the live run, and leaves an ended run alone", async () => {
    const table = new RunTable<SessionRun & { end(o: RunOutcome): void; steered: string[] }>();
    const stopped: string[] = [];
    const runner = table.agentRunner({
      start: async (request: StartRunRequest) => {
        let end!: (o: RunOutcome) => void;
        const done = new Promise<RunOutcome>((r) => {
          end = r;
        });
        return { done, end, steered: [request.message] };
      },
      stop: (run) => {
        stopped.push(run.steered[0]!);
        run.end({ status: "aborted", error: "aborted" });
      },
      steer: (run, message) => void run.steered.push(message),
    });
    const { runId } = await runner.start({ sessionKey: "s", message: "go" });
    expect(runner.canYield?.("s")).toBe(true);
    expect(await runner.steer(runId, "more")).toBe(true);
    expect(table.get(runId)?.steered).toEqual(["go", "more"]);
    await runner.onYield?.("s", "wait for child");
    // a yielded run takes no steered message (its next message starts the next turn)
    expect(await runner.steer(runId, "late")).toBe(false);
    await runner.abort(runId);
    expect(stopped).toEqual(["go"]);
    expect(await runner.wait(runId, 1)).toEqual({ status: "aborted", error: "aborted" });
    await runner.abort(runId);
    expect(stopped).toEqual(["go"]);
    expect(runner.table).toBe(table);
  });
});
