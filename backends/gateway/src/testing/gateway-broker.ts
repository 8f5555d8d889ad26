import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { GatewayClient } from "../client.js";
import { GatewaySessionStore } from "../session-store.js";
import { type ModelSlot, startModelSlot } from "./model-slot.js";
import type { OpenclawInstall } from "./openclaw-install.js";
import { type OpenclawProcess, type RealGateway, startRealGateway } from "./real-gateway.js";

/** What one Gateway of a profile is booted with; `slot(id)` is a model slot named `id`. */
export interface GatewayProfileSetup {
  /** OpenClaw's config (openclaw.json) for the Gateway. */
  config?: Record<string, unknown>;
  /** Told to each lessee beside the Gateway's address (e.g. a file the Gateway writes). */
  info?: Record<string, string>;
  /** Runs after the Gateway stopped. */
  dispose?: () => void | Promise<void>;
}

export type GatewayProfile = (slot: (id: string) => Promise<ModelSlot>) => Promise<GatewayProfileSetup>;

export interface GatewayBroker {
  /** The address a lessee passes to `leaseGateway`. */
  url: string;
  /** Stops every Gateway (with its nodes and process group) and the broker. */
  close(): Promise<void>;
}

interface Pooled {
  profile: string;
  gateway: RealGateway;
  slots: Map<string, ModelSlot>;
  setup: GatewayProfileSetup;
  lease?: string;
  nodes: OpenclawProcess[];
}

/** A lessee's mistake (answered 400), not the broker's failure. */
const refusal = (message: string) => Object.assign(new Error(message), { refusal: true });

/**
 * A loopback broker that lends real Gateways to test files, so one boot (12-30 s) serves many
 * files: a lease gets an idle Gateway of the named profile or boots one; it is the lessee's
 * alone until it is released, and the release stops the lessee's nodes and removes what it left
 * (node pairings, sessions but an agent's main one) before the next lessee gets it. Boots
 * nothing until asked.
 */
export async function startGatewayBroker(
  install: OpenclawInstall,
  options: { profiles: Record<string, GatewayProfile>; readyTimeoutMs?: number },
): Promise<GatewayBroker> {
  const pool: Pooled[] = [];
  const booting = new Set<Promise<unknown>>();
  let closed = false;

  async function boot(profile: string): Promise<Pooled> {
    const make = options.profiles[profile];
    if (!make)
      throw refusal(`no Gateway profile "${profile}" (known: ${Object.keys(options.profiles).join(", ")})`);
    const slots = new Map<string, ModelSlot>();
    let setup: GatewayProfileSetup = {};
    try {
      setup = await make(async (id) => {
        const slot = await startModelSlot();
        slots.set(id, slot);
        return slot;
      });
      const gateway = await startRealGateway(install, {
        config: setup.config,
        readyTimeoutMs: options.readyTimeoutMs,
      });
      return { profile, gateway, slots, setup, nodes: [] };
    } catch (error) {
      await Promise.all([...slots.values()].map((s) => s.close()));
      await setup.dispose?.();
      throw error;
    }
  }

  async function retire(entry: Pooled): Promise<void> {
    const at = pool.indexOf(entry);
    if (at >= 0) pool.splice(at, 1);
    await entry.gateway.stop();
    await Promise.all([...entry.slots.values()].map((s) => s.close()));
    await entry.setup.dispose?.();
  }

  async function lease(body: { profile?: string; models?: Record<string, string>; noSessions?: boolean }) {
    if (closed) throw refusal("the Gateway broker is closed");
    const profile = body.profile ?? "default";
    const id = randomUUID();
    let entry: Pooled | undefined;
    for (const idle of pool.filter((p) => p.profile === profile && !p.lease)) {
      idle.lease = id;
      // an agent's main session cannot be deleted: a lessee that needs none gets a Gateway without
      if (!body.noSessions || !(await withOperator(idle.gateway, hasSessions))) {
        entry = idle;
        break;
      }
      idle.lease = undefined;
    }
    if (!entry) {
      const pending = boot(profile);
      booting.add(pending);
      try {
        entry = await pending;
      } finally {
        booting.delete(pending);
      }
      entry.lease = id;
      pool.push(entry);
      if (closed) {
        await retire(entry);
        throw refusal("the Gateway broker is closed");
      }
    }
    for (const [name, baseUrl] of Object.entries(body.models ?? {})) {
      const slot = entry.slots.get(name);
      if (!slot) {
        await release(id);
        throw refusal(
          `the "${profile}" Gateway has no model slot "${name}" (it has: ${[...entry.slots.keys()].join(", ") || "none"})`,
        );
      }
      slot.fill(baseUrl);
    }
    const { url, token, port } = entry.gateway;
    return { lease: id, url, token, port, info: entry.setup.info ?? {} };
  }

  function held(id: unknown): Pooled {
    const entry = pool.find((p) => p.lease !== undefined && p.lease === id);
    if (!entry) throw refusal(`no Gateway is leased as "${String(id)}"`);
    return entry;
  }

  async function release(id: unknown) {
    const entry = held(id);
    for (const slot of entry.slots.values()) slot.fill(undefined);
    await Promise.all(entry.nodes.splice(0).map((n) => n.stop()));
    try {
      await withOperator(entry.gateway, clean);
      entry.lease = undefined;
    } catch (error) {
      // a Gateway that cannot be cleaned is not lent again
      console.warn(
        `[gateway broker] retiring a Gateway that did not come clean: ${(error as Error).message}`,
      );
      await retire(entry);
    }
    return { ok: true };
  }

  const secret = randomBytes(16).toString("hex");
  const routes: Record<string, (body: Record<string, unknown>) => Promise<unknown>> = {
    lease: (body) => lease(body as Parameters<typeof lease>[0]),
    node: async (body) => {
      const entry = held(body.lease);
      entry.nodes.push(await entry.gateway.startNode(String(body.displayName)));
      return { ok: true };
    },
    release: (body) => release(body.lease),
  };
  const server = createServer((req, res) => void answer(req, res));
  // a lease may wait for a boot (minutes on a loaded machine)
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  async function answer(req: IncomingMessage, res: ServerResponse) {
    const reply = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    const [, key, name] = (req.url ?? "").split("/");
    const route = key === secret && req.method === "POST" ? routes[name ?? ""] : undefined;
    if (!route) return reply(404, { error: "not a broker route" });
    try {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      reply(200, await route(JSON.parse(raw || "{}")));
    } catch (error) {
      reply((error as { refusal?: boolean }).refusal ? 400 : 500, { error: (error as Error).message });
    }
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/${secret}`,
    close: async () => {
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled(booting);
      await Promise.all([...pool].map(retire));
    },
  };
}

async function withOperator<T>(gateway: RealGateway, use: (client: GatewayClient) => Promise<T>): Promise<T> {
  const client = new GatewayClient({ url: gateway.url, token: gateway.token, reconnect: false });
  try {
    await client.connect();
    return await use(client);
  } finally {
    await client.close();
  }
}

async function hasSessions(client: GatewayClient): Promise<boolean> {
  return (await new GatewaySessionStore({ client }).list()).length > 0;
}

// OpenClaw refuses to delete an agent's main session (`agent:<id>:main`)
const MAIN_SESSION = /^agent:[^:]+:main$/;

/**
 * Removes what a lessee left in the Gateway: pairing requests, paired nodes, and every session
 * but an agent's main one.
 */
async function clean(client: GatewayClient): Promise<void> {
  const pairing = await client.request<{ pending?: { requestId: string }[]; paired?: { nodeId: string }[] }>(
    "node.pair.list",
    {},
  );
  for (const { requestId } of pairing.pending ?? []) await client.request("node.pair.reject", { requestId });
  for (const { nodeId } of pairing.paired ?? []) await client.request("node.pair.remove", { nodeId });
  const store = new GatewaySessionStore({ client });
  for (const { key } of await store.list()) if (!MAIN_SESSION.test(key)) await store.delete(key);
  const { nodes = [] } = await client.request<{ nodes?: unknown[] }>("node.list", {});
  if (nodes.length > 0)
    throw new Error(`${nodes.length} node(s) still listed after their pairing was removed`);
}
