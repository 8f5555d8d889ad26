import type { NodeHost } from "@clawtools/core/contracts";
import { describe, expect, it } from "./vitest-api.js";
import type { ConformanceOptions } from "./sessions-conformance.js";

/*
 * Conformance suite for core's `NodeHost` contract (what the `nodes` tool drives): this machine,
 * a Gateway, a registry in a database. Any host runs it:
 *
 *   nodeHostConformance(() => ({ host: new MyNodeHost(...) }));
 *
 * The factory is called once per test; the host must list at least one node. `probe` names an
 * advertised command that is safe to run with the given params, so the suite sees a real answer.
 */

export interface NodeHostUnderTest {
  host: NodeHost;
  /** A command the first listed node advertises, run with `params`; `check` judges its answer. */
  probe?: {
    command: string;
    params: Record<string, unknown>;
    check(result: unknown): void;
    /** The invoke's time limit (default 10 s): a node reached through a loaded Gateway may need more. */
    timeoutMs?: number;
  };
}

export interface NodeHostConformanceOptions extends ConformanceOptions {
  /** Each step's test time limit (default vitest's): raise it with a slow probe's `timeoutMs`. */
  stepTimeoutMs?: number;
}

type Factory<T> = () => T | Promise<T>;
const UNKNOWN = "conformance-no-such-node";

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    (value) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(value)?.slice(0, 200)}`);
    },
    (error: unknown) => error as Error,
  );
}

/** Declares the NodeHost conformance suite for the hosts `factory` makes. */
export function nodeHostConformance(
  factory: Factory<NodeHostUnderTest>,
  options: NodeHostConformanceOptions = {},
): void {
  const timeout = options.stepTimeoutMs;
  describe(options.name ?? "NodeHost conformance", () => {
    it(
      "list gives well-formed nodes with distinct ids",
      async () => {
        const { host } = await factory();
        const nodes = await host.list();
        expect(nodes.length).toBeGreaterThan(0);
        for (const node of nodes) {
          expect(node.nodeId).toMatch(/\S/);
          expect(typeof node.displayName).toBe("string");
          expect(typeof node.platform).toBe("string");
          expect(typeof node.connected).toBe("boolean");
          expect(typeof node.paired).toBe("boolean");
          expect(node.caps.every((c) => typeof c === "string")).toBe(true);
          expect(node.commands.every((c) => typeof c === "string")).toBe(true);
        }
        expect(new Set(nodes.map((n) => n.nodeId)).size).toBe(nodes.length);
        await host.dispose?.();
      },
      timeout,
    );

    it(
      "describe agrees with list for every node, and refuses an unknown id by name",
      async () => {
        const { host } = await factory();
        for (const node of await host.list()) {
          const described = await host.describe(node.nodeId);
          expect(described).toMatchObject({ nodeId: node.nodeId, commands: node.commands, caps: node.caps });
        }
        expect((await rejection(host.describe(UNKNOWN))).message).toContain(UNKNOWN);
        await host.dispose?.();
      },
      timeout,
    );

    it(
      "invoke refuses an unknown node and a command the node does not advertise",
      async () => {
        const { host } = await factory();
        const [node] = await host.list();
        const opts = { timeoutMs: 5_000 };
        expect(
          (await rejection(host.invoke(UNKNOWN, node!.commands[0] ?? "device.info", {}, opts))).message,
        ).toContain(UNKNOWN);
        const missing = "conformance.not-a-command";
        expect(node!.commands).not.toContain(missing);
        expect((await rejection(host.invoke(node!.nodeId, missing, {}, opts))).message).toContain(missing);
        await host.dispose?.();
      },
      timeout,
    );

    it(
      "invoke runs an advertised command and answers for real",
      async (ctx) => {
        const { host, probe } = await factory();
        if (!probe) return ctx.skip("no probe command given");
        const [node] = await host.list();
        expect(node!.commands).toContain(probe.command);
        const timeoutMs = probe.timeoutMs ?? 10_000;
        probe.check(await host.invoke(node!.nodeId, probe.command, probe.params, { timeoutMs }));
        await host.dispose?.();
      },
      timeout,
    );

    it(
      "pairing: pending is a list of requests, approving or rejecting an unknown one is refused",
      async () => {
        const { host } = await factory();
        const pending = await host.pending();
        expect(Array.isArray(pending)).toBe(true);
        for (const request of pending) {
          expect(request.requestId).toMatch(/\S/);
          expect(request.nodeId).toMatch(/\S/);
        }
        const bogus = "conformance-no-such-request";
        expect((await rejection(host.approve(bogus))).message).toContain(bogus);
        expect((await rejection(host.reject(bogus))).message).toContain(bogus);
        expect((await host.pending()).length).toBe(pending.length);
        await host.dispose?.();
      },
      timeout,
    );
  });
}
