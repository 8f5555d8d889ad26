import type { FakeOpenAiModel } from "./openai-fake.js";

/** A Gateway lent by a `startGatewayBroker` broker: this lessee's alone until `stop()`. */
export interface SharedGateway {
  url: string;
  token: string;
  port: number;
  /** What the Gateway's profile tells its lessees (e.g. a file the Gateway writes). */
  info: Record<string, string>;
  /** Starts `openclaw node run` against this Gateway (stopped, and its pairing removed, at `stop()`). */
  startNode(displayName: string): Promise<void>;
  /** Gives the Gateway back: the broker removes what this lessee left and lends it again. */
  stop(): Promise<void>;
}

export interface LeaseOptions {
  /** The broker's profile (its Gateway config); default "default". */
  profile?: string;
  /** This lessee's fake models, by the model slot (provider id) of the profile they answer for. */
  models?: Record<string, Pick<FakeOpenAiModel, "baseUrl">>;
  /**
   * A Gateway with no session at all: an agent's main session, once another lessee's work made
   * it, cannot be deleted, so this may cost a boot of its own.
   */
  noSessions?: boolean;
}

async function call<T>(broker: string, route: string, body: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${broker}/${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(`gateway broker ${route}: ${answer.error ?? response.status}`);
  return answer;
}

/**
 * Leases a Gateway from a broker (`broker` is its `url`; a vitest globalSetup provides it), its
 * model slots answered by this lessee's fake models until `stop()`.
 */
export async function leaseGateway(
  broker: string | undefined,
  options: LeaseOptions = {},
): Promise<SharedGateway> {
  if (!broker)
    throw new Error(
      "no Gateway broker: the root vitest.config.ts starts one in its globalSetup; run vitest from the repository root",
    );
  const models = Object.fromEntries(Object.entries(options.models ?? {}).map(([id, m]) => [id, m.baseUrl]));
  const lease = await call<{
    lease: string;
    url: string;
    token: string;
    port: number;
    info: Record<string, string>;
  }>(broker, "lease", { profile: options.profile, models });
  let released: Promise<void> | undefined;
  return {
    url: lease.url,
    token: lease.token,
    port: lease.port,
    info: lease.info,
    startNode: async (displayName) => {
      await call(broker, "node", { lease: lease.lease, displayName });
    },
    stop: () => {
      released ??= call(broker, "release", { lease: lease.lease }).then(() => undefined);
      return released;
    },
  };
}
