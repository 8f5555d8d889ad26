import type { AgentRunner } from "./contracts/agent-runner.js";
import type { SessionStore } from "./contracts/session-store.js";
import type { ToolContext } from "./tool.js";

/**
 * A named thing a plugin offers an app beside its tools (a service, a store), declared under a
 * key whose type travels with it: the app asks `capabilityOf(plugin, KEY)` and gets it typed, or
 * undefined, instead of guessing at members by shape.
 */
export interface PluginCapability<T> {
  readonly key: string;
  /** Carries `T` for the type checker only; never set. */
  readonly type?: T;
}

/** One declared capability of a plugin: made with `provide`, so the value matches its key. */
export interface ProvidedCapability {
  readonly key: string;
  readonly value: unknown;
}

/** A capability key; by convention `clawtools.<section>.<name>` for the ones apps share. */
export function pluginCapability<T>(key: string): PluginCapability<T> {
  if (!/^[a-z][\w.-]*$/iu.test(key)) throw new Error(`pluginCapability: invalid key ${JSON.stringify(key)}`);
  return Object.freeze({ key });
}

/** Declares that a plugin provides `value` under `capability` (type-checked against the key). */
export function provide<T>(capability: PluginCapability<T>, value: T): ProvidedCapability {
  return { key: capability.key, value };
}

/** What `plugin` declared under `capability`, or undefined when it declares none. */
export function capabilityOf<T>(
  plugin: { capabilities?: Readonly<Record<string, unknown>> } | undefined,
  capability: PluginCapability<T>,
): T | undefined {
  const table = plugin?.capabilities;
  return table && Object.hasOwn(table, capability.key) ? (table[capability.key] as T) : undefined;
}

/** What a context's sessions run on: the store and, when one is configured, the agent runner. */
export interface SessionServiceHandle {
  readonly store: SessionStore;
  readonly runner: AgentRunner | undefined;
}

/**
 * The sessions section's service for a context (one per state directory): an app wires other
 * sections (cron's system events and agent turns) onto the same store and runner.
 */
export const SESSION_SERVICE: PluginCapability<(ctx: ToolContext) => SessionServiceHandle> = pluginCapability(
  "clawtools.sessions.service",
);
