import { afterAll, describe, expect, it } from "vitest";
import { createExecTool, ProcessRegistry } from "../src/index.js";
import { text } from "./helpers.js";

const registry = new ProcessRegistry();
afterAll(() => registry.killAll());

describe("exec output", () => {
  it("keeps memory bounded on a 100 MB output and returns the tail", async () => {
    const exec = createExecTool({ workspaceDir: process.cwd() }, { registry });
    const before = process.memoryUsage().rss;
    // 100 MB of numbered lines, then a marker
    const r = await exec.execute("c", {
      command:
        "yes 0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghi | head -c 104857600; echo; echo THE-END",
    });
    const out = text(r);
    expect(out.endsWith("THE-END")).toBe(true);
    const note = "[earlier output was discarded at the retention cap and cannot be recovered]\n\n";
    expect(out.startsWith(note)).toBe(true);
    expect(out.length - note.length).toBeLessThanOrEqual(200_000);
    expect(r.details).toMatchObject({ truncated: true });
    const session = registry.get("agent:main", (r.details as { sessionId: string }).sessionId)!;
    expect(session.aggregated.truncated).toBe(true);
    // the whole output was never held: growth stays far below the 100 MB produced
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  }, 120_000);
});
