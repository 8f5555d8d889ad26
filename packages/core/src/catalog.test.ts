import { describe, expect, it } from "vitest";
import {
  CORE_TOOL_GROUPS,
  getCoreSections,
  getCoreToolCatalog,
  isKnownCoreToolId,
  resolveCoreToolProfilePolicy,
} from "./catalog.js";
import { compileToolPolicy } from "./policy/match.js";

describe("catalog", () => {
  it("has the eleven sections in display order", () => {
    expect(getCoreSections().map((s) => s.id)).toEqual([
      "fs",
      "runtime",
      "web",
      "memory",
      "sessions",
      "ui",
      "messaging",
      "automation",
      "nodes",
      "agents",
      "media",
    ]);
    expect(getCoreSections()[0]).toEqual({ id: "fs", label: "Files" });
  });

  it("lists every core tool of the catalog with its metadata", () => {
    const catalog = getCoreToolCatalog();
    expect(catalog.map((t) => t.id)).toEqual([
      "read",
      "write",
      "edit",
      "apply_patch",
      "exec",
      "process",
      "web_search",
      "web_fetch",
      "memory_search",
      "memory_get",
      "sessions_list",
      "sessions_history",
      "sessions_send",
      "sessions_spawn",
      "subagents",
      "session_status",
      "browser",
      "canvas",
      "message",
      "cron",
      "automations",
      "gateway",
      "nodes",
      "agents_list",
      "image",
      "view_image",
      "tts",
    ]);
    for (const tool of catalog) {
      expect(tool.label).toBe(tool.id);
      expect(tool.description.length).toBeGreaterThan(0);
      expect(tool.source).toBe("core");
    }
    expect(isKnownCoreToolId("apply_patch")).toBe(true);
    expect(isKnownCoreToolId("grep")).toBe(false);
  });

  it("derives profile allowlists from per-tool profiles", () => {
    expect(resolveCoreToolProfilePolicy("minimal")).toEqual({ allow: ["session_status"] });
    expect(resolveCoreToolProfilePolicy("messaging")).toEqual({
      allow: ["sessions_list", "sessions_history", "sessions_send", "session_status", "message"],
    });
    const coding = resolveCoreToolProfilePolicy("coding")?.allow ?? [];
    expect(coding).toEqual(
      expect.arrayContaining(["read", "apply_patch", "exec", "process", "web_fetch", "image"]),
    );
    for (const none of ["browser", "canvas", "gateway", "nodes", "agents_list", "tts", "message"]) {
      expect(coding).not.toContain(none);
    }
    expect(resolveCoreToolProfilePolicy("full")).toBeUndefined();
    expect(resolveCoreToolProfilePolicy("nope")).toBeUndefined();
  });

  it("generates group:<section> and group:openclaw", () => {
    expect(CORE_TOOL_GROUPS["group:fs"]).toEqual(["read", "write", "edit", "apply_patch"]);
    expect(CORE_TOOL_GROUPS["group:runtime"]).toEqual(["exec", "process"]);
    expect(CORE_TOOL_GROUPS["group:media"]).toEqual(["image", "view_image", "tts"]);
    const openclaw = CORE_TOOL_GROUPS["group:openclaw"] ?? [];
    for (const excluded of ["read", "write", "edit", "apply_patch", "exec", "process"]) {
      expect(openclaw).not.toContain(excluded);
    }
    expect(openclaw).toHaveLength(21);
  });

  it("a twin name (cron / automations) stands for both in policy lists", () => {
    expect(CORE_TOOL_GROUPS["group:automation"]).toEqual(["cron", "automations", "gateway"]);
    expect(CORE_TOOL_GROUPS.cron).toEqual(["cron", "automations"]);
    expect(CORE_TOOL_GROUPS.automations).toEqual(["automations", "cron"]);
    expect(compileToolPolicy({ deny: ["cron"] })("automations")).toBe(false);
    expect(compileToolPolicy({ allow: ["automations"] })("cron")).toBe(true);
    expect(resolveCoreToolProfilePolicy("coding")?.allow).toEqual(
      expect.arrayContaining(["cron", "automations"]),
    );
  });

  it("image and view_image (OpenClaw 9.6's name) are twins: denying one denies both", () => {
    expect(CORE_TOOL_GROUPS.image).toEqual(["image", "view_image"]);
    expect(CORE_TOOL_GROUPS.view_image).toEqual(["view_image", "image"]);
    expect(compileToolPolicy({ deny: ["image"] })("view_image")).toBe(false);
    expect(compileToolPolicy({ deny: ["view_image"] })("image")).toBe(false);
    expect(resolveCoreToolProfilePolicy("coding")?.allow).toEqual(
      expect.arrayContaining(["image", "view_image"]),
    );
  });
});
