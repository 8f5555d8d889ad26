import { itLacks, type StepRun } from "./lacked-step.js";
import { describe, expect, it as vitestIt } from "./vitest-api.js";
import type { ConformanceOptions } from "./sessions-conformance.js";

/*
 * Conformance suite for the `Channel` seam of @clawtools/messaging (what the `message` tool sends
 * through). Written against the shapes, so any channel runs it. The factory gives the channel and
 * a way to see what reached the far side (the inbox's log, a loopback server's requests), so the
 * suite checks delivery itself, not the channel's word for it:
 *
 *   channelConformance(async () => {
 *     const server = await myFakeApi();
 *     return { channel: createMyChannel({ url: server.url }), delivered: () => server.messages() };
 *   });
 *
 * The factory is called once per test and must return a channel whose far side is empty; the
 * suite disposes the channel when the test ends.
 */

/** The actions the `message` tool knows (a channel supports a subset). */
export const CONFORMANCE_MESSAGE_ACTIONS = [
  "send",
  "reply",
  "thread-reply",
  "poll",
  "react",
  "read",
  "search",
  "broadcast",
] as const;

export interface ConformanceMessageRequest {
  action: (typeof CONFORMANCE_MESSAGE_ACTIONS)[number];
  to: string;
  text?: string;
  media?: { filename: string; contentType: string; data: Buffer; source: string };
  query?: string;
  idempotencyKey: string;
}

/** What `Channel` promises (structurally). */
export interface ChannelUnderTest {
  id: string;
  actions: ReadonlySet<string>;
  /** The suite reads `media`; the others are listed so a channel declaring only them fits too. */
  capabilities: {
    media?: { maxBytes: number };
    polls?: boolean;
    threads?: boolean;
    reactions?: boolean;
    interactive?: boolean;
  };
  prepare(request: ConformanceMessageRequest): Promise<unknown[]> | unknown[];
  execute(request: ConformanceMessageRequest, signal?: AbortSignal): Promise<{ messageId?: string }>;
  dispose?(): Promise<void>;
}

/** One message as the far side received it. */
export interface DeliveredMessage {
  to: string;
  text?: string;
  /** The attachment as received: its file name and size in bytes. */
  media?: { filename: string; bytes: number };
}

export interface ChannelUnderTestSetup {
  channel: ChannelUnderTest;
  /** Every message that reached the far side so far, in arrival order. */
  delivered(): Promise<DeliveredMessage[]> | DeliveredMessage[];
  /** Credentials the channel holds: `prepare` (the dryRun answer) must show none of them. */
  secrets?: string[];
  /** A target the far side accepts (default "conformance-target"). */
  target?: string;
}

/** The suite's steps, by the names a channel uses to declare one it cannot do (`lacks`). */
export type ChannelStep =
  | "declares"
  | "prepare"
  | "send"
  | "undeclaredAction"
  | "media"
  | "mediaLimit"
  | "read"
  | "search";

export interface ChannelConformanceOptions extends ConformanceOptions {
  /**
   * Steps the channel declares it cannot do, each with the reason. Each runs as an expected
   * failure, after the other steps, within `lackedStepMs`: the test fails (`step "read" now
   * passes: remove it from lacks`) once the channel does it.
   */
  lacks?: Partial<Record<ChannelStep, string>>;
  /** How long a lacked step runs before running out of time counts as its failure (default 5 s). */
  lackedStepMs?: number;
  /** Each step's test time limit (default vitest's): a channel over a slow server raises it. */
  stepTimeoutMs?: number;
}

type Factory<T> = () => T | Promise<T>;
let keys = 0;
const key = () => `conformance-${process.pid}-${++keys}`;

/** Declares the Channel conformance suite for the channels `factory` makes. */
export function channelConformance(
  factory: Factory<ChannelUnderTestSetup>,
  options: ChannelConformanceOptions = {},
): void {
  const name = options.name ?? "Channel conformance";
  const lacked: Array<() => void> = [];
  // the channels a step made: disposed when it ends, passed or failed
  const made: ChannelUnderTest[] = [];
  const disposing = (fn: (run: StepRun) => Promise<void>) => async (run: StepRun) => {
    try {
      await fn(run);
    } finally {
      for (const channel of made.splice(0)) await channel.dispose?.();
    }
  };
  /** A step, or (when the channel lacks it) the step as an expected failure, declared after the others. */
  const it = (step: ChannelStep, title: string, fn: (run: StepRun) => Promise<void>) => {
    const reason = options.lacks?.[step];
    const run = disposing(fn);
    if (!reason)
      return vitestIt(
        title,
        (ctx) => run({ signal: ctx.signal, waitMs: Infinity, ctx }),
        options.stepTimeoutMs,
      );
    const ms = options.lackedStepMs;
    lacked.push(() => itLacks({ suite: name, step, reason, title, ms }, run));
  };
  describe(name, () => {
    const setup = async () => {
      const setup = await factory();
      made.push(setup.channel);
      return { ...setup, to: setup.target ?? "conformance-target" };
    };
    const send = (text: string, to: string): ConformanceMessageRequest => ({
      action: "send",
      to,
      text,
      idempotencyKey: key(),
    });

    it("declares", "declares an id and a subset of the known actions, send among them", async () => {
      const { channel } = await setup();
      expect(channel.id).toMatch(/^[a-z][a-z0-9_-]*$/);
      expect(channel.actions.has("send")).toBe(true);
      for (const action of channel.actions) expect(CONFORMANCE_MESSAGE_ACTIONS).toContain(action);
    });

    it("prepare", "prepare describes the send, shows no secret, and delivers nothing", async () => {
      const { channel, delivered, secrets = [], to } = await setup();
      const prepared = await channel.prepare(send("dry run only", to));
      expect(prepared.length).toBeGreaterThan(0);
      const shown = JSON.stringify(prepared);
      expect(shown).toContain("dry run only");
      for (const secret of secrets) expect(shown).not.toContain(secret);
      expect(await delivered()).toEqual([]);
    });

    it("send", "execute delivers each send once, in order, each with its own message id", async () => {
      const { channel, delivered, to } = await setup();
      const first = await channel.execute(send("first message", to));
      const second = await channel.execute(send("second message", to));
      expect(typeof first.messageId).toBe("string");
      expect(first.messageId!.length).toBeGreaterThan(0);
      expect(second.messageId).not.toBe(first.messageId);
      const got = await delivered();
      expect(got.map((m) => m.text)).toEqual(["first message", "second message"]);
      expect(got.every((m) => m.to === to)).toBe(true);
    });

    it(
      "undeclaredAction",
      "an action the channel does not declare is refused, and nothing is delivered",
      async ({ ctx }) => {
        const { channel, delivered, to } = await setup();
        const missing = CONFORMANCE_MESSAGE_ACTIONS.find((a) => !channel.actions.has(a));
        if (!missing) return ctx.skip("the channel declares every action");
        const request: ConformanceMessageRequest = { ...send("refused", to), action: missing };
        await expect(Promise.resolve().then(() => channel.execute(request))).rejects.toThrow(missing);
        expect(await delivered()).toEqual([]);
      },
    );

    it("media", "an attachment within the channel's limit arrives whole", async ({ ctx }) => {
      const { channel, delivered, to } = await setup();
      if (!channel.capabilities.media) return ctx.skip("the channel takes no media");
      const data = Buffer.from("attachment body\n");
      await channel.execute({
        ...send("with a file", to),
        media: { filename: "note.txt", contentType: "text/plain", data, source: "note.txt" },
      });
      const [got] = await delivered();
      expect(got).toMatchObject({ to, media: { filename: "note.txt", bytes: data.length } });
    });

    it(
      "mediaLimit",
      "an attachment over the channel's limit is refused before anything is sent",
      async ({ ctx }) => {
        const { channel, delivered, to } = await setup();
        const max = channel.capabilities.media?.maxBytes;
        if (max === undefined || !Number.isFinite(max))
          return ctx.skip("the channel sets no finite media limit");
        const data = Buffer.alloc(max + 1, 0x61);
        const request = {
          ...send("too big", to),
          media: { filename: "big.bin", contentType: "application/octet-stream", data, source: "big.bin" },
        };
        await expect(Promise.resolve().then(() => channel.execute(request))).rejects.toThrow(
          /big\.bin|bytes/,
        );
        expect(await delivered()).toEqual([]);
      },
    );

    it("read", "read, when declared, answers with what was sent to the target", async ({ ctx, signal }) => {
      const { channel, to } = await setup();
      if (!channel.actions.has("read")) return ctx.skip("the channel does not read");
      await channel.execute(send("readable message", to));
      const read = await channel.execute({ action: "read", to, idempotencyKey: key() }, signal);
      expect(JSON.stringify(read)).toContain("readable message");
    });

    it(
      "search",
      "search, when declared, finds a sent message by a word and skips the others",
      async ({ ctx, signal }) => {
        const { channel, to } = await setup();
        if (!channel.actions.has("search")) return ctx.skip("the channel does not search");
        await channel.execute(send("the deploy finished", to));
        await channel.execute(send("lunch is ready", to));
        const found = JSON.stringify(
          await channel.execute({ action: "search", to, query: "deploy", idempotencyKey: key() }, signal),
        );
        expect(found).toContain("the deploy finished");
        expect(found).not.toContain("lunch is ready");
      },
    );

    for (const declare of lacked) declare();
  });
}
