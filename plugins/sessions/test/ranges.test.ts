import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { setup } from "./helpers.js";

// Out-of-range values are refused, not accepted (issue 25), with an error naming the parameter.

describe("sessions tools refuse out-of-range values", () => {
  it("negative or zero limits, negative timeouts and timeouts past Node's timer range", async () => {
    const t = setup();
    const refusal = async (name: string, args: Record<string, unknown>) => {
      const r = await t.json(name, args);
      expect(r.status).toBe("error");
      return (r.error as string).split("\n")[1]?.trim();
    };
    expect(await refusal("sessions_list", { limit: -1 })).toBe("- limit: must be >= 1");
    expect(await refusal("sessions_list", { messageLimit: -1 })).toBe("- messageLimit: must be >= 0");
    expect(await refusal("sessions_list", { activeMinutes: -3 })).toBe("- activeMinutes: must be >= 1");
    expect(await refusal("sessions_history", { sessionKey: "main", limit: -1 })).toBe(
      "- limit: must be >= 1",
    );
    expect(await refusal("subagents", { recentMinutes: -5 })).toBe("- recentMinutes: must be >= 1");
    expect(await refusal("sessions_send", { sessionKey: "main", message: "x", timeoutSeconds: -1 })).toBe(
      "- timeoutSeconds: must be >= 0",
    );
    expect(await refusal("sessions_send", { sessionKey: "main", message: "x", timeoutSeconds: 1e300 })).toBe(
      "- timeoutSeconds: must be <= 2073600",
    );
    expect(await refusal("sessions_spawn", { task: "x", runTimeoutSeconds: -1 })).toBe(
      "- runTimeoutSeconds: must be >= 0",
    );
    expect(await refusal("sessions_spawn", { task: "x", runTimeoutSeconds: 1e300 })).toBe(
      "- runTimeoutSeconds: must be <= 2073600",
    );
    expect(await refusal("sessions_spawn", { task: "x", timeoutSeconds: 1e300 })).toBe(
      "- timeoutSeconds: must be <= 2073600",
    );
    expect((await t.json("subagents", {})).total).toBe(0); // nothing was spawned
  });

  it("sessions_spawn cwd outside the workspace is refused for every runtime; inside is accepted", async () => {
    const t = setup();
    mkdirSync(path.join(t.workspaceDir, "sub"));
    symlinkSync("/etc", path.join(t.workspaceDir, "out"));
    for (const cwd of ["/etc", "../..", "out", "sub/../../x"]) {
      const r = await t.json("sessions_spawn", { task: "x", cwd });
      expect(r.status).toBe("error");
      expect(r.error).toMatch(/^cwd must be a directory inside the workspace: /);
    }
    expect((await t.json("subagents", {})).total).toBe(0);
    expect((await t.json("sessions_spawn", { task: "x", cwd: "sub" })).status).toBe("accepted");
    await t.service.idle();
  });
});
