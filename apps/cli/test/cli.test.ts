import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../src/cli.js";

function run(argv: string[]) {
  const lines: string[] = [];
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  return main(argv, (l) => lines.push(l))
    .then((code) => ({
      code,
      out: lines.join("\n"),
      err: stderr.mock.calls.map((c) => String(c[0])).join(""),
    }))
    .finally(() => stderr.mockRestore());
}

describe("clawtools CLI", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-cli-"));

  it("lists sections and tools with availability", async () => {
    const { code, out } = await run(["list"]);
    expect(code).toBe(0);
    expect(out).toMatch(/^Files \(fs\) — @clawtools\/fs$/m);
    expect(out).toMatch(/^ {2}read\s+available\s+coding\s+Read file contents$/m);
    expect(out).toMatch(/^ {2}browser\s+missing/m);
    const json = JSON.parse((await run(["list", "--json"])).out);
    expect(json.tools.find((t: { tool: string }) => t.tool === "exec")).toMatchObject({
      available: true,
      section: "runtime",
    });
  });

  it("says which installed tools are left out here, and why", async () => {
    for (const key of [
      "BRAVE_API_KEY",
      "XAI_API_KEY",
      "PERPLEXITY_API_KEY",
      "OPENROUTER_API_KEY",
      "EXA_API_KEY",
      "TAVILY_API_KEY",
      "SEARXNG_BASE_URL",
    ])
      vi.stubEnv(key, "");
    try {
      const { out } = await run(["list"]);
      expect(out).toMatch(
        /^ {2}web_search\s+unavailable\s+coding\s+Search the web \(no web search provider configured: set BRAVE_API_KEY/m,
      );
      const json = JSON.parse((await run(["list", "--json"])).out);
      expect(json.tools.find((t: { tool: string }) => t.tool === "web_search")).toMatchObject({
        available: false,
        unavailable: expect.stringContaining("BRAVE_API_KEY"),
      });
      vi.stubEnv("BRAVE_API_KEY", "test-key");
      expect((await run(["list"])).out).toMatch(/^ {2}web_search\s+available\s/m);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("describes a tool and prints provider schemas", async () => {
    const described = JSON.parse((await run(["describe", "read", "--workspace", workspace])).out);
    expect(described).toMatchObject({
      name: "read",
      section: "fs",
      readOnly: true,
      parameters: { required: ["path"] },
    });
    const gemini = JSON.parse((await run(["schema", "--provider", "gemini", "--workspace", workspace])).out);
    expect(gemini[0].functionDeclarations.map((d: { name: string }) => d.name)).toContain("edit");
    const openai = JSON.parse((await run(["schema", "--provider", "openai", "--workspace", workspace])).out);
    expect(openai.map((d: { function: { name: string } }) => d.function.name)).toContain("apply_patch");
  });

  it("calls tools, exits 1 on a tool error", async () => {
    const ok = await run([
      "call",
      "write",
      "--workspace",
      workspace,
      "--args",
      '{"path":"a.txt","content":"hi"}',
    ]);
    expect(ok).toMatchObject({ code: 0, out: "Successfully wrote 2 bytes to a.txt" });
    expect(readFileSync(path.join(workspace, "a.txt"), "utf8")).toBe("hi");
    writeFileSync(path.join(workspace, "args.json"), JSON.stringify({ command: "cat a.txt" }));
    expect(
      await run(["call", "exec", "--workspace", workspace, "--args-file", path.join(workspace, "args.json")]),
    ).toMatchObject({ code: 0, out: "hi" });
    const bad = await run(["call", "read", "--workspace", workspace, "--args", '{"path":"../x"}']);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("Path escapes sandbox root");
  });

  it("answers usage errors with one stderr line and exit code 2, and has --help everywhere", async () => {
    for (const argv of [
      ["frob"],
      ["call"],
      ["call", "read", "--args", "{bad"],
      ["schema", "--provider", "nope"],
      ["list", "--bogus"],
      ["serve", "--profile", "huge"],
    ]) {
      const r = await run(argv);
      expect(r.code).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toMatch(/^clawtools: /);
    }
    for (const command of ["list", "describe", "schema", "call", "serve"]) {
      const r = await run([command, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`Usage: clawtools ${command}`);
    }
  });
});
