// `clawtools doctor` through the built CLI: plain lines, exit 0 whatever it finds, keys by name only.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { findBwrap, probeBwrap } from "@clawtools/runtime";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, ensureBuilt } from "./support/cli.js";

describe("clawtools doctor", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-doctor-"));
  let closedPort = 0;
  beforeAll(async () => {
    ensureBuilt();
    closedPort = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
  }, BUILD_TIMEOUT_MS);

  it("says what is served, what is not and why, and what the machine has, exiting 0", () => {
    const env = { ...process.env, OPENAI_API_KEY: "sk-doctor-secret-123", DISPLAY: "" };
    const run = spawnSync(
      process.execPath,
      [bin, "doctor", "--workspace", workspace, "--store", `postgres://app:pw@127.0.0.1:${closedPort}/db`],
      { encoding: "utf8", env, input: "" },
    );
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^node: v${process.versions.node.replaceAll(".", "\\.")} \\(ok`));
    expect(lines).toContain(`workspace: ${workspace}`);
    expect(lines.find((l) => l.startsWith("served: fs: "))).toContain("read");
    expect(lines.find((l) => l.startsWith("not served: web/web_search: "))).toContain("BRAVE_API_KEY");
    expect(lines.find((l) => l.startsWith("chromium: "))).toBe(
      existsSync("/usr/lib/chromium/chromium")
        ? "chromium: /usr/lib/chromium/chromium (browser, canvas)"
        : expect.stringContaining("missing"),
    );
    expect(lines.find((l) => l.startsWith("espeak-ng: "))).toBeDefined();
    expect(lines.find((l) => l.startsWith("display: "))).toContain("DISPLAY is not set");
    expect(lines.find((l) => l.startsWith("keys: "))).toContain("OPENAI_API_KEY set");
    expect(lines.find((l) => l.startsWith("model: "))).toContain("--model provider/model");
    expect(lines.find((l) => l.startsWith("store: "))).toContain(
      `PostgreSQL store postgres://app@127.0.0.1:${closedPort}/db`,
    );
    expect(run.stdout).not.toContain("sk-doctor-secret-123");
    expect(run.stdout).not.toContain(":pw@");
  });

  it("names the model it would use, or why it cannot", () => {
    const run = spawnSync(
      process.execPath,
      [bin, "doctor", "--workspace", workspace, "--model", "fakeprov/x"],
      {
        encoding: "utf8",
        input: "",
      },
    );
    // an unknown provider is a careless start for serve; doctor reports it and still exits 0
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('model: fakeprov/x: no endpoint known for provider "fakeprov"');
  });

  it("says which sandbox the config selects for exec and whether bubblewrap is usable here", () => {
    const doctor = (args: string[]) =>
      spawnSync(process.execPath, [bin, "doctor", "--workspace", workspace, ...args], {
        encoding: "utf8",
        input: "",
      });
    const plain = doctor([]);
    expect(plain.status, plain.stderr).toBe(0);
    const line = (out: string) => out.split("\n").find((l) => l.startsWith("sandbox: "));
    expect(line(plain.stdout)).toMatch(
      /^sandbox: none \(the default; runtime\.sandbox in --config: auto or bwrap\); bubblewrap: /,
    );
    const config = path.join(workspace, "sandboxed.json");
    writeFileSync(config, JSON.stringify({ runtime: { sandbox: "bwrap", sandboxNetwork: "off" } }));
    const chosen = doctor(["--config", config]);
    expect(chosen.status, chosen.stderr).toBe(0);
    // this machine's bubblewrap, as the runtime finds and probes it
    const bwrap = findBwrap();
    const works = bwrap !== undefined && probeBwrap(bwrap) === undefined;
    expect(line(chosen.stdout)).toBe(
      works
        ? `sandbox: bwrap; bubblewrap: ${bwrap} usable, network off`
        : expect.stringMatching(/^sandbox: bwrap; bubblewrap: .*\(?exec refuses to run unsandboxed\)?$/),
    );
  });
});
