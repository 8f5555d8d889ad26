// The official MCP Inspector CLI against a catalog with a plugin and two real mounted MCP servers,
// on each surface. The Inspector takes `--config` for itself, so the serve command line gets its
// configuration the way such a host passes it: `-e CLAWTOOLS_CONFIG=<file>`. A step that needs an
// id takes it from the previous answer, as a host model would.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, ensureBuilt, fixtures } from "./support/cli.js";
import { findInspector } from "./support/host-tools.js";

const inspector = findInspector();
const skipReason = "skip" in inspector ? inspector.skip : undefined;
if (skipReason) console.warn(`[MCP Inspector catalog tests skipped] ${skipReason}`);

type Answer = Record<string, unknown>;
type Candidate = { id: string; name: string; source: string };

describe.skipIf(skipReason !== undefined)(
  "the MCP Inspector CLI with a plugin and two mounted MCP servers",
  () => {
    let dir: string;
    let workspace: string;
    let config: string;
    let env: NodeJS.ProcessEnv;

    beforeAll(() => {
      ensureBuilt();
      dir = mkdtempSync(path.join(tmpdir(), "clawtools-inspector-catalog-"));
      workspace = path.join(dir, "workspace");
      const docs = path.join(dir, "docs");
      mkdirSync(workspace);
      mkdirSync(docs);
      writeFileSync(path.join(docs, "guide.md"), "Mounted docs say hello.\n");
      config = path.join(dir, "clawtools.json");
      writeFileSync(
        config,
        JSON.stringify({
          plugins: [path.join(fixtures, "shout-plugin.mjs")],
          mcpServers: {
            alpha: {
              command: process.execPath,
              args: [path.join(fixtures, "echo-mcp-server.mjs")],
              env: { ECHO_PREFIX: "alpha: " },
            },
            // a second clawtools, serving another folder: its read comes back as docs__read
            docs: {
              command: process.execPath,
              args: [bin, "serve", "--workspace", docs, "--allow", "read,find"],
            },
          },
        }),
      );
      const { NODE_OPTIONS: _, ...rest } = process.env;
      env = { ...rest, HOME: path.join(dir, "home"), XDG_STATE_HOME: path.join(dir, "state") };
      mkdirSync(env.HOME as string);
    }, BUILD_TIMEOUT_MS);

    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** `mcp-inspector --cli -e CLAWTOOLS_CONFIG=… node clawtools serve … --method …`. */
    async function inspect(serveArgs: string[], args: string[]): Promise<{ code: number; answer: Answer }> {
      if ("skip" in inspector) throw new Error(inspector.skip);
      const command = [process.execPath, bin, "serve", "--workspace", workspace, ...serveArgs];
      const outcome = await promisify(execFile)(
        inspector.node,
        // each run starts serve and its two servers: a generous connect time for a loaded machine
        [
          inspector.entry,
          "--cli",
          "--connect-timeout",
          "60000",
          "-e",
          `CLAWTOOLS_CONFIG=${config}`,
          ...command,
          ...args,
        ],
        { cwd: workspace, env, maxBuffer: 16 * 1024 * 1024 },
      ).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code?: number; stdout?: string }) => {
          if (typeof error.code !== "number" || !error.stdout) throw error;
          return { code: error.code, stdout: error.stdout };
        },
      );
      return { code: outcome.code, answer: JSON.parse(outcome.stdout) as Answer };
    }

    const callArgs = (tool: string, args: Record<string, string>) => [
      "--method",
      "tools/call",
      "--tool-name",
      tool,
      ...Object.entries(args).flatMap(([k, v]) => ["--tool-arg", `${k}=${v}`]),
    ];
    const shown = (answer: Answer) =>
      (answer.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");
    /** tool_search's candidates; an MCP server's words arrive framed as external content. */
    const candidates = (answer: Answer): Candidate[] => {
      const text = shown(answer);
      const framed =
        /<<<EXTERNAL_UNTRUSTED_CONTENT id="[0-9a-f]+">>>\n[\s\S]*?\n---\n([\s\S]*)\n<<<END_EXTERNAL_UNTRUSTED_CONTENT/.exec(
          text,
        );
      return JSON.parse(framed ? framed[1]! : text) as Candidate[];
    };

    const SLOW = 240_000;

    it(
      "direct: lists the plugin's and both servers' tools with portable schemas, and calls them",
      async () => {
        // one Inspector run at a time: each starts a serve with its two servers
        const list = await inspect([], ["--method", "tools/list", "--strict"]);
        const shout = await inspect([], callArgs("shout", { text: "hey" }));
        const echo = await inspect([], callArgs("alpha__echo", { text: "hi" }));
        const read = await inspect([], callArgs("docs__read", { path: "guide.md" }));
        expect(list.code).toBe(0);
        const names = (list.answer.tools as Array<{ name: string }>).map((t) => t.name);
        expect(names).toEqual(
          expect.arrayContaining(["read", "shout", "alpha__echo", "docs__read", "docs__find"]),
        );
        expect([shout.code, echo.code, read.code]).toEqual([0, 0, 0]);
        expect(shown(shout.answer)).toBe("HEY");
        expect(shown(echo.answer)).toContain("alpha: hi");
        expect(shown(read.answer)).toContain("Mounted docs say hello.");
      },
      SLOW,
    );

    it(
      "--surface search: the plugin's and a mounted server's tools are found and dispatched by the ids the search gave",
      async () => {
        const search = ["--surface", "search"];
        const list = await inspect(search, ["--method", "tools/list", "--strict"]);
        const loud = await inspect(search, callArgs("tool_search", { query: "upper-case some text" }));
        const echoes = await inspect(search, callArgs("tool_search", { query: "echo text back" }));
        expect(list.code).toBe(0);
        expect((list.answer.tools as Array<{ name: string }>).map((t) => t.name).sort()).toEqual([
          "dispatch_action",
          "tool_describe",
          "tool_search",
        ]);
        const shout = candidates(loud.answer).find((c) => c.name === "shout");
        const echo = candidates(echoes.answer).find((c) => c.name === "alpha__echo");
        expect(shout, shown(loud.answer)).toBeDefined();
        expect(echo, shown(echoes.answer)).toBeDefined();
        const shouted = await inspect(
          search,
          callArgs("dispatch_action", { id: shout!.id, args: JSON.stringify({ text: "found" }) }),
        );
        const echoed = await inspect(
          search,
          callArgs("dispatch_action", { id: echo!.id, args: JSON.stringify({ text: "found" }) }),
        );
        expect(shouted.code).toBe(0);
        expect(shown(shouted.answer)).toContain("FOUND");
        expect(echoed.code).toBe(0);
        expect(shown(echoed.answer)).toContain("alpha: found");
      },
      SLOW,
    );

    it(
      "--surface code: code calls the plugin's tool and both mounted servers' tools through the API",
      async () => {
        const code = [
          'const loud = await shout({ text: "code" });',
          'const echoed = await MCP.alpha.echo({ text: "code" });',
          'const doc = await MCP.docs.read({ path: "guide.md" });',
          "return [loud.text, echoed.content[0].text, doc.content[0].text.trim()];",
        ].join(" ");
        const ran = await inspect(["--surface", "code"], callArgs("exec", { code }));
        expect(ran.code, JSON.stringify(ran.answer)).toBe(0);
        expect(ran.answer.structuredContent).toMatchObject({
          status: "completed",
          value: ["CODE", "alpha: code", expect.stringContaining("Mounted docs say hello.")],
          telemetry: { callCount: 3 },
        });
      },
      SLOW,
    );
  },
);
