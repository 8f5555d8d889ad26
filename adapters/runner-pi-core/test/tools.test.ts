import { type AnyAgentTool, Type } from "@clawtools/core";
import { describe, expect, it } from "vitest";
import { toPiCoreTool, toPiResult } from "../src/tools.js";
import { NODE_TOO_OLD } from "./node.js";

// How a clawtools tool and its results look to pi-agent-core 1.5 (structured results, outputSchema).

describe.skipIf(NODE_TOO_OLD)("toPiCoreTool / toPiResult", () => {
  it("details travel as structuredContent (JSON only); errors stay results, audio is named", () => {
    expect(toPiResult({ content: [{ type: "text", text: "ok" }], details: { n: 1 } })).toEqual({
      content: [{ type: "text", text: "ok" }],
      details: { n: 1 },
      structuredContent: { n: 1 },
    });
    expect(
      toPiResult({ content: [{ type: "audio", data: "AA==", mimeType: "audio/ogg" }], isError: true }),
    ).toEqual({ content: [{ type: "text", text: "[audio audio/ogg]" }], details: undefined, isError: true });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const r = toPiResult({ content: [], details: cyclic });
    expect(r.details).toBe(cyclic);
    expect("structuredContent" in r).toBe(false);
  });

  it("passes the label, parameters and a declared outputSchema; progress updates are mapped too", async () => {
    const updates: unknown[] = [];
    const tool = {
      name: "t",
      label: "T tool",
      description: "d",
      parameters: Type.Object({ a: Type.String() }),
      outputSchema: { type: "object" },
      execute: async (_id: string, p: { a: string }, _s?: AbortSignal, onUpdate?: (x: object) => void) => {
        onUpdate?.({ details: { step: 1 } });
        return { content: [{ type: "text", text: p.a }], details: { done: true } };
      },
    } as unknown as AnyAgentTool;
    const pi = toPiCoreTool(tool);
    expect(pi).toMatchObject({
      name: "t",
      label: "T tool",
      description: "d",
      outputSchema: { type: "object" },
    });
    expect(pi.parameters).toBe(tool.parameters);
    const result = await pi.execute("c1", { a: "x" }, undefined, (u) => updates.push(u));
    expect(result.structuredContent).toEqual({ done: true });
    expect(updates).toEqual([{ content: [], details: { step: 1 }, structuredContent: { step: 1 } }]);
    expect("outputSchema" in toPiCoreTool({ ...tool, outputSchema: undefined } as AnyAgentTool)).toBe(false);
  });
});
