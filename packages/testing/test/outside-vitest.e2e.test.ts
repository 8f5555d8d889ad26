// The kit as a plugin module meets it under `clawtools serve`: plain Node, no vitest running and,
// in an install of the packed packages, no vitest installed (it is a peer of the suites only).
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repo = path.resolve(pkg, "../..");

describe("@clawtools/testing outside vitest", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-kit-outside-"));
  beforeAll(() => {
    if (
      !existsSync(path.join(pkg, "dist/index.js")) ||
      !existsSync(path.join(repo, "packages/core/dist/index.js"))
    )
      execFileSync("pnpm", ["turbo", "run", "build", "--filter=@clawtools/testing..."], {
        cwd: repo,
        stdio: "ignore",
      });
    // node_modules holding the kit and core, and no vitest
    const scope = path.join(dir, "node_modules", "@clawtools");
    mkdirSync(path.join(scope, "testing"), { recursive: true });
    cpSync(path.join(pkg, "package.json"), path.join(scope, "testing", "package.json"));
    cpSync(path.join(pkg, "dist"), path.join(scope, "testing", "dist"), { recursive: true });
    symlinkSync(path.join(repo, "packages/core"), path.join(scope, "core"));
  }, 400_000);

  it("loads without vitest and checks a plugin whose tool has no label", () => {
    const script = path.join(dir, "check.mjs");
    writeFileSync(
      script,
      `import { checkPluginContract, fsBridgeConformance } from "@clawtools/testing";
import { definePlugin } from "@clawtools/core";
const plugin = definePlugin({ id: "acme", version: "1.0.0", tools: [{ factory: {
  name: "acme_ping", description: "Answers pong", parameters: { type: "object", properties: {} },
  execute: async () => ({ content: [{ type: "text", text: "pong" }], details: {} }) } }] });
const report = await checkPluginContract(plugin, {});
let suite = "";
try { fsBridgeConformance(() => { throw new Error("unused"); }); } catch (error) { suite = error.message; }
console.log(JSON.stringify({ report, suite }));
`,
    );
    const run = spawnSync(process.execPath, [script], { cwd: dir, encoding: "utf8" });
    expect(run.stderr).toBe("");
    const out = JSON.parse(run.stdout);
    expect(out.report).toEqual({ ok: true, problems: [] });
    // a suite called outside vitest says what it needs instead of failing at import
    expect(out.suite).toContain("call them from a test file run by vitest");
  });
});
