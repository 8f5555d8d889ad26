import { ToolRegistry } from "@clawtools/core";
import { describe, expect, it } from "vitest";
import { createClawtools, discoverCoreTools, discoverCoreToolsAsync, discoverSections } from "./index.js";

/** fs and runtime load for real; the other sections fail each in its own way. */
async function importer(specifier: string): Promise<unknown> {
  if (specifier === "@clawtools/fs") return import("@clawtools/fs");
  if (specifier === "@clawtools/runtime") return import("@clawtools/runtime");
  if (specifier === "@clawtools/web") throw new Error("boom at import");
  if (specifier === "@clawtools/memory") return { default: { notAPlugin: true } };
  throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: "ERR_MODULE_NOT_FOUND" });
}

const ids = (registry: ToolRegistry) => registry.list().map((meta) => meta.id);

describe("discovery include / exclude", () => {
  it("takes tool ids and group references, and loads only the sections they need", async () => {
    const loaded: string[] = [];
    const ct = await createClawtools({
      include: ["read", "group:runtime"],
      importer: (s) => {
        loaded.push(s);
        return importer(s);
      },
    });
    expect(ids(ct.tools).sort()).toEqual(["exec", "process", "read"]);
    expect(loaded.sort()).toEqual(["@clawtools/fs", "@clawtools/runtime"]);
  });

  it("excludes tool ids and groups (exclude wins); a section id stands for all of its tools", async () => {
    const ct = await createClawtools({
      include: ["fs", "group:runtime"],
      exclude: ["exec", "group:web", "Apply-Patch"],
      importer,
    });
    expect(ids(ct.tools)).toContain("grep");
    expect(ids(ct.tools)).toContain("process");
    expect(ids(ct.tools)).not.toContain("exec");
    expect(ids(ct.tools)).not.toContain("apply_patch");
    const registry = new ToolRegistry();
    await discoverCoreToolsAsync(registry, { exclude: ["runtime", "group:fs"], importer });
    expect(ids(registry).some((id) => ["read", "write", "exec", "process"].includes(id))).toBe(false);
    expect(ids(registry)).toContain("grep");
  });

  it("an id outside the catalog (a section's own extra tool) is found by loading every section", async () => {
    const ct = await createClawtools({ include: ["grep"], importer });
    expect(ids(ct.tools)).toEqual(["grep"]);
  });

  it("the synchronous metadata discovery takes the same entries", () => {
    const registry = new ToolRegistry();
    discoverCoreTools(registry, {
      include: ["group:openclaw", "read"],
      exclude: ["browser", "group:sessions"],
    });
    const listed = ids(registry);
    expect(listed).toContain("read");
    expect(listed).toContain("web_fetch");
    expect(listed).not.toContain("browser");
    expect(listed).not.toContain("sessions_list");
    expect(listed).not.toContain("exec");
  });
});

describe("onLoadWarning", () => {
  it("is called once for every section that could not be loaded, with the reason", async () => {
    const warnings: string[] = [];
    const sections = await discoverSections({ importer, onLoadWarning: (m) => warnings.push(m) });
    expect(sections.filter((s) => s.plugin).map((s) => s.section)).toEqual(["fs", "runtime"]);
    expect(warnings).toEqual([
      "web: @clawtools/web failed to load: boom at import",
      "memory: @clawtools/memory installed but exports no plugin yet",
      "sessions: @clawtools/sessions not installed",
      "ui: @clawtools/ui not installed",
      "messaging: @clawtools/messaging not installed",
      "automation: @clawtools/automation not installed",
      "nodes: @clawtools/nodes not installed",
      "agents: @clawtools/agents not installed",
      "media: @clawtools/media not installed",
    ]);
  });

  it("reaches createClawtools and discoverCoreToolsAsync too", async () => {
    const warnings: string[] = [];
    await createClawtools({ include: ["group:web"], importer, onLoadWarning: (m) => warnings.push(m) });
    const registry = new ToolRegistry();
    const diagnostics = await discoverCoreToolsAsync(registry, {
      include: ["memory_get"],
      importer,
      onLoadWarning: (m) => warnings.push(m),
    });
    expect(warnings).toEqual([
      "web: @clawtools/web failed to load: boom at import",
      "memory: @clawtools/memory installed but exports no plugin yet",
    ]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      "memory/memory_get: @clawtools/memory installed but exports no plugin yet",
    ]);
  });
});
