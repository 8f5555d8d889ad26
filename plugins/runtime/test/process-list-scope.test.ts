import { afterAll, describe, expect, it } from "vitest";
import { ProcessRegistry } from "../src/process/registry.js";

const registry = new ProcessRegistry();
afterAll(() => registry.dispose());

const start = (scopeKey: string, command: string) =>
  registry.spawn({
    command,
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    scopeKey,
  });

describe("process list is per scope", () => {
  it("a scope lists its own sessions newest first, never another's, and forgets deleted ones", async () => {
    const a1 = start("a", "echo a1");
    const others = Array.from({ length: 20 }, (_, i) => start("b", `echo b${i}`));
    await Promise.all([a1.exited, ...others.map((s) => s.exited)]);
    const a2 = start("a", "echo a2");
    await a2.exited;
    expect(registry.list("a").map((s) => s.id)).toEqual([a2.id, a1.id]);
    expect(registry.list("b")).toHaveLength(20);
    expect(registry.list("b").every((s) => s.scopeKey === "b")).toBe(true);
    expect(registry.get("a", others[0]!.id)).toBeUndefined();
    registry.delete(a2.id);
    expect(registry.list("a").map((s) => s.id)).toEqual([a1.id]);
    registry.delete(a1.id);
    expect(registry.list("a")).toEqual([]);
    expect(registry.list("nobody")).toEqual([]);
  });
});
