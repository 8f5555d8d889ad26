import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveStateDir } from "./state-dir.js";

describe("resolveStateDir", () => {
  it("defaults under the XDG state home, one directory per workspace", () => {
    const env = { XDG_STATE_HOME: "/var/state" };
    const a = resolveStateDir({ workspaceDir: "/nonexistent/a/project", env });
    const b = resolveStateDir({ workspaceDir: "/nonexistent/b/project", env });
    expect(path.dirname(a)).toBe("/var/state/clawtools");
    expect(path.basename(a)).toMatch(/^project-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
    expect(resolveStateDir({ workspaceDir: "/nonexistent/a/project", env })).toBe(a);
  });

  it("uses ~/.local/state without XDG_STATE_HOME, and an explicit directory when given", () => {
    expect(resolveStateDir({ workspaceDir: "/w", env: {} })).toContain(
      path.join(".local", "state", "clawtools"),
    );
    expect(resolveStateDir({ workspaceDir: "/w", stateDir: "state", env: {} })).toBe("/w/state");
    expect(resolveStateDir({ workspaceDir: "/w", env: { CLAWTOOLS_STATE_DIR: "/s" } })).toBe("/s");
  });
});
