import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { definePlugin } from "@clawtools/core";
import { resolveStateDir } from "@clawtools/core/state";
import { createClawtools } from "clawtools";
import { describe, expect, it, vi } from "vitest";
import { invocationDir, parseCommonOptions } from "../src/options.js";
import { buildContext } from "../src/toolset.js";
import { runMain as run } from "./support/main.js";

describe("clawtools CLI", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-cli-"));

  it("lists sections and tools with availability", async () => {
    const { code, out } = await run(["list"]);
    expect(code).toBe(0);
    expect(out).toMatch(/^Files \(fs\) — @clawtools\/fs$/m);
    expect(out).toMatch(/^ {2}read\s+available\s+coding\s+Read file contents$/m);
    expect(out).toMatch(/^ {2}browser\s+available/m);
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
      ["list", "extra"],
      ["serve", "now"],
      ["describe", "read", "write"],
      ["list", "--strict"],
      ["list", "--http", "8080"],
      ["list", "--provider", "nope"],
      ["serve", "--max-message-mb", "0"],
      ["serve", "--http", "http"],
      ["serve", "--host", "0.0.0.0"],
      ["--bogus"],
      ["--version", "extra"],
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

  it("names exactly what it refused", async () => {
    const cases: Array<[string[], string]> = [
      [["list", "extra"], 'clawtools: unexpected argument "extra" (see clawtools list --help)\n'],
      [
        ["describe"],
        "clawtools: describe needs <tool>: clawtools describe <tool> (see clawtools describe --help)\n",
      ],
      [
        ["list", "--provider", "nope"],
        'clawtools: unknown provider "nope" (expected openai, openai-responses, anthropic, gemini, google) (see clawtools list --help)\n',
      ],
      [
        ["list", "--profile", "huge"],
        'clawtools: unknown profile "huge" (expected minimal, coding, messaging, full) (see clawtools list --help)\n',
      ],
      [
        ["serve", "--max-message-mb", "lots"],
        'clawtools: --max-message-mb must be a positive number, got "lots" (see clawtools serve --help)\n',
      ],
      [
        ["serve", "--host", "::"],
        "clawtools: --host only applies with --http <port> (see clawtools serve --help)\n",
      ],
      [
        ["serve", "--allow-origin", "https://app.example"],
        "clawtools: --allow-origin only applies with --http <port> (see clawtools serve --help)\n",
      ],
      [
        ["serve", "--http", "0", "--allow-origin", "https://ok.example,*"],
        'clawtools: --allow-origin: not an origin: "*" (expected scheme://host[:port], e.g. https://app.example.com) (see clawtools serve --help)\n',
      ],
      [
        ["serve", "--http", "0", "--max-sessions", "0"],
        'clawtools: --max-sessions must be a positive integer, got "0" (see clawtools serve --help)\n',
      ],
      [
        ["serve", "--http", "0", "--session-idle-minutes", "soon"],
        'clawtools: --session-idle-minutes must be a positive number, got "soon" (see clawtools serve --help)\n',
      ],
    ];
    for (const [argv, err] of cases) expect(await run(argv)).toMatchObject({ code: 2, err });
    const strict = await run(["list", "--strict"]);
    expect(strict.err).toMatch(/^clawtools: unknown option "--strict"/);
  });

  it("prints its version from package.json", async () => {
    const version = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
    expect(await run(["--version"])).toMatchObject({ code: 0, out: version });
    expect(await run(["-v"])).toMatchObject({ code: 0, out: version });
  });

  it("takes --provider google as Gemini", async () => {
    const google = await run(["schema", "--provider", "google", "--workspace", workspace]);
    const gemini = await run(["schema", "--provider", "gemini", "--workspace", workspace]);
    expect(google.code).toBe(0);
    expect(google.out).toBe(gemini.out);
  });

  it("validates --config up front against each installed section's schema", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-cli-config-"));
    const write = (name: string, body: string) => {
      const file = path.join(dir, name);
      writeFileSync(file, body);
      return file;
    };
    const cases: Array<[string, string]> = [
      [write("syntax.json", "{nope"), "is not valid JSON: "],
      [write("array.json", "[]"), "must hold a JSON object"],
      [
        write("unknown.json", JSON.stringify({ shell: {} })),
        'unknown key "shell" (expected workspace, stateDir, profile, allow, deny, owner, provider, model, acp, allowPrivateNetwork, plugins, pluginReplaces, mcpServers, store, storeConnections, agentId, gateway, gatewayToken, surface, passEnv, root, allowOrigins, sessionIdleMinutes, maxSessions or a section: ',
      ],
      [
        write("origins.json", JSON.stringify({ allowOrigins: ["https://ok.example/app"] })),
        'allowOrigins: not an origin: "https://ok.example/app" (an origin has no path, query or credentials)',
      ],
      [
        write("idle.json", JSON.stringify({ sessionIdleMinutes: 0 })),
        "sessionIdleMinutes must be a positive number",
      ],
      [write("max.json", JSON.stringify({ maxSessions: 2.5 })), "maxSessions must be a positive integer"],
      [write("state.json", JSON.stringify({ stateDir: 3 })), "stateDir must be a string (a directory)"],
      [
        write("bad.json", JSON.stringify({ web: { fetch: { maxRedirects: 99 } } })),
        "web: fetch.maxRedirects: ",
      ],
      [write("typo.json", JSON.stringify({ web: { fetch: { maxchars: 1 } } })), "web: "],
    ];
    for (const [file, message] of cases) {
      const r = await run(["list", "--config", file]);
      expect(r.code).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err).toContain(message);
    }
    const missing = await run(["list", "--config", path.join(dir, "absent.json")]);
    expect(missing).toMatchObject({
      code: 2,
      err: `clawtools: cannot read --config ${path.join(dir, "absent.json")}: ENOENT (see clawtools list --help)\n`,
    });
  });

  it("takes the file $CLAWTOOLS_CONFIG names when there is no --config, and --config over it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-cli-envconfig-"));
    const denyRead = path.join(dir, "deny-read.json");
    writeFileSync(denyRead, JSON.stringify({ deny: ["read"] }));
    const denyWrite = path.join(dir, "deny-write.json");
    writeFileSync(denyWrite, JSON.stringify({ deny: ["write"] }));
    vi.stubEnv("CLAWTOOLS_CONFIG", denyRead);
    try {
      const served = async (argv: string[]) => {
        const r = await run(["list", "--json", "--workspace", workspace, ...argv]);
        expect(r.code).toBe(0);
        const tools = JSON.parse(r.out).tools as Array<{ tool: string; served: boolean }>;
        return (name: string) => tools.find((t) => t.tool === name)!;
      };
      const fromEnv = await served([]);
      expect(fromEnv("read").served).toBe(false);
      expect(fromEnv("write").served).toBe(true);
      const flagWins = await served(["--config", denyWrite]);
      expect(flagWins("read").served).toBe(true);
      expect(flagWins("write").served).toBe(false);
      vi.stubEnv("CLAWTOOLS_CONFIG", path.join(dir, "absent.json"));
      expect(await run(["list"])).toMatchObject({
        code: 2,
        err: `clawtools: cannot read $CLAWTOOLS_CONFIG ${path.join(dir, "absent.json")}: ENOENT (see clawtools list --help)\n`,
      });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("chooses the state directory: --state-dir, else the file's stateDir, else one per workspace", async () => {
    const clawtools = await createClawtools();
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-cli-state-"));
    const file = path.join(dir, "c.json");
    writeFileSync(file, JSON.stringify({ stateDir: "state-here", web: { fetch: { maxChars: 500 } } }));
    const ctx = (argv: string[]) =>
      buildContext(parseCommonOptions(["--workspace", workspace, ...argv]), clawtools);
    expect(ctx([]).stateDir).toBe(resolveStateDir({ workspaceDir: workspace }));
    expect(ctx(["--config", file]).stateDir).toBe(path.join(dir, "state-here"));
    expect(ctx(["--config", file]).config).toMatchObject({ web: { fetch: { maxChars: 500 } } });
    expect(ctx(["--config", file, "--state-dir", path.join(dir, "flag")]).stateDir).toBe(
      path.join(dir, "flag"),
    );
    expect(ctx(["--allow-private-network", "--config", file]).config).toMatchObject({
      web: { fetch: { maxChars: 500, allowPrivateNetwork: true } },
    });
    await clawtools.tools.dispose();
  });

  it("--allow-private-network also opens the browser's URL policy when the ui section is installed", async () => {
    const ui = definePlugin({ id: "@clawtools/ui", version: "0.0.0", section: "ui", tools: [] });
    const clawtools = await createClawtools({ plugins: [ui] });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const ctx = buildContext(
        parseCommonOptions(["--workspace", workspace, "--allow-private-network"]),
        clawtools,
      );
      expect(ctx.config).toMatchObject({
        web: { fetch: { allowPrivateNetwork: true } },
        ui: { browser: { allowPrivateNetwork: true } },
      });
    } finally {
      stderr.mockRestore();
      await clawtools.tools.dispose();
    }
  });

  it("--allow-private-network lets web_fetch reach a loopback server", async () => {
    const server = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/plain" }).end("local ok"),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const args = ["call", "web_fetch", "--workspace", workspace, "--args", JSON.stringify({ url })];
      const refused = await run(args);
      expect(refused.code).toBe(1);
      const allowed = await run([...args, "--allow-private-network"]);
      expect(allowed.code).toBe(0);
      expect(allowed.out).toContain("local ok");
    } finally {
      server.close();
    }
  });

  it("takes the workspace from where `pnpm clawtools` was typed", () => {
    expect(invocationDir({ npm_lifecycle_event: "clawtools", INIT_CWD: "/some/sub/dir" })).toBe(
      "/some/sub/dir",
    );
    expect(invocationDir({ npm_lifecycle_event: "test", INIT_CWD: "/some/sub/dir" })).toBe(process.cwd());
    expect(invocationDir({})).toBe(process.cwd());
  });
});
