import { definePlugin, Type } from "@clawtools/core";
import { describe, expect, it } from "vitest";
import { checkPluginContract, checkToolContract } from "./contract.js";

const good = {
  name: "acme_echo",
  label: "Echo",
  description: "Echo text",
  parameters: Type.Object({ text: Type.String() }),
  execute: async () => ({ content: [{ type: "text" as const, text: "x" }], details: {} }),
};

describe("contract kit", () => {
  it("passes a well-formed tool and plugin", async () => {
    expect(await checkToolContract(good)).toEqual({ ok: true, problems: [] });
    const plugin = definePlugin({ id: "acme", version: "1.0.0", tools: [{ factory: good }] });
    expect(await checkPluginContract(plugin)).toEqual({ ok: true, problems: [] });
  });

  it("reports every breach", async () => {
    const bad = {
      ...good,
      name: "Bad Name",
      description: "",
      parameters: { type: "object", properties: { x: { anyOf: [{ type: "string" }, { type: "null" }] } } },
    };
    const report = await checkToolContract(bad);
    expect(report.ok).toBe(false);
    expect(report.problems.join("\n")).toMatch(/name must match/);
    expect(report.problems.join("\n")).toMatch(/description must be a non-empty string/);
    expect(report.problems.some((p) => p.includes("schema"))).toBe(true);
  });

  it("catches a plugin that builds undeclared names or claims core tools", async () => {
    const plugin = definePlugin({
      id: "acme",
      version: "1.0.0",
      tools: [
        { names: ["acme_a"], factory: () => good },
        { names: ["read"], factory: () => ({ ...good, name: "read" }) },
      ],
    });
    const report = await checkPluginContract(plugin);
    expect(report.problems.join("\n")).toContain('factory built "acme_echo" which is not in names [acme_a]');
    expect(report.problems.join("\n")).toContain('"read" is a core fs tool');
  });
});

describe("contract kit: owner-only tools", () => {
  it("checks an owner-only tool's validation instead of stopping at the owner refusal", async () => {
    const ownerOnly = { ...good, ownerOnly: true };
    expect(await checkToolContract(ownerOnly)).toEqual({ ok: true, problems: [] });
  });
});

describe("contract kit: behaviour checks", () => {
  it("flags a tool that ignores an aborted signal, and long names", async () => {
    const careless = {
      ...good,
      execute: async () => ({ content: [{ type: "text" as const, text: "ran anyway" }], details: {} }),
    };
    const report = await checkToolContract(careless, { sampleArgs: { text: "x" } });
    expect(report.problems).toContain("acme_echo: an already-aborted signal was not honoured (the call ran)");
    const long = await checkToolContract({ ...good, name: `a${"b".repeat(64)}` });
    expect(long.problems.join("\n")).toMatch(/name must match/);
  });

  it("flags a bad result shape", async () => {
    const shapeless = {
      ...good,
      execute: async (_id: string, _p: unknown, signal?: AbortSignal) => {
        signal?.throwIfAborted();
        return { content: [{ type: "html", html: "<b>" }], details: {} } as never;
      },
    };
    const report = await checkToolContract(shapeless, { sampleArgs: { text: "x" } });
    expect(report.problems).toContain("acme_echo: content[0] is not a text, image or audio block");
  });
});
