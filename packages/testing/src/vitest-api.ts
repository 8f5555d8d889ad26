// The suites run under vitest, but the kit must load where vitest is not running (a plugin that
// imports checkPluginContract under `clawtools serve`), or not installed at all (it is a peer).
// So vitest is imported only inside a vitest worker, and each function here reaches it when a
// suite is declared, not when the kit loads.
import type * as Vitest from "vitest";

export type { TestContext } from "vitest";

const inVitest = Boolean((globalThis as Record<string, unknown>).__vitest_worker__);
const loaded: typeof Vitest | undefined = inVitest ? await import("vitest") : undefined;

function api(): typeof Vitest {
  if (!loaded)
    throw new Error(
      "@clawtools/testing: the conformance suites declare vitest tests; call them from a test file run by vitest (checkPluginContract and checkToolContract work anywhere)",
    );
  return loaded;
}

/** A stand-in for one of vitest's exports: calls and properties (`it.skipIf`, `expect.poll`) reach the real one. */
function lazy<K extends "describe" | "it" | "expect" | "beforeAll" | "afterAll" | "afterEach">(
  name: K,
): (typeof Vitest)[K] {
  const target = (() => {}) as unknown as (typeof Vitest)[K];
  return new Proxy(target, {
    apply: (_t, self, args) => Reflect.apply(api()[name] as (...a: unknown[]) => unknown, self, args),
    get: (_t, key) => Reflect.get(api()[name] as object, key),
  });
}

export const describe = lazy("describe");
export const it = lazy("it");
export const expect = lazy("expect");
export const beforeAll = lazy("beforeAll");
export const afterAll = lazy("afterAll");
export const afterEach = lazy("afterEach");
