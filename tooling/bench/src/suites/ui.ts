/**
 * The browser tool against the same raw playwright-core calls on the same Debian Chromium, in
 * the same run: snapshot, act by ref and screenshot (target ≤ 1.2×), and cold start to the first
 * snapshot. Each side drives its own browser on the same loopback page.
 */
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolset } from "@clawtools/core";
import { CHROMIUM_ARGS, createUiPlugin, findChromium } from "@clawtools/ui";
import { chromium } from "playwright-core";
import { browserServers } from "../browser-peers.js";
import { type BenchRow, type BenchSuite, timeInTurns } from "../harness.js";

const PAGE = `<!doctype html><title>Bench</title><h1>Orders</h1><form>${Array.from(
  { length: 40 },
  (_, i) => `<label>Field ${i} <input name="f${i}"></label>`,
).join("")}<button type="button" onclick="this.dataset.n=(+this.dataset.n||0)+1">Go</button></form>`;

// Both sides take turns call after call (first place alternating each round). A click waits for
// animation frames, so its times bunch at frame steps and a median of few rounds can jump a step;
// a snapshot is short (about 10 ms), so many more of them cost little and steady its median.
const ROUNDS = 80;
const SNAPSHOT_ROUNDS = 200;

export default {
  name: "ui",
  async run() {
    let executablePath: string;
    try {
      executablePath = findChromium();
    } catch (error) {
      return { title: "ui: browser", rows: [], notes: [`skipped: ${(error as Error).message}`] };
    }
    // two pages, so a navigate always lands somewhere new (the browser servers' rows)
    const server = createServer((req, res) =>
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(req.url === "/other" ? PAGE.replace("<h1>Orders</h1>", "<h1>Invoices</h1>") : PAGE),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const root = () => mkdtempSync(path.join(tmpdir(), "bench-ui-"));
    const plugin = () => createUiPlugin({ browser: { allowPrivateNetwork: true } });
    const rows: BenchRow[] = [];
    const notes: string[] = [];
    try {
      const set = createToolset({ plugins: [plugin()], context: { workspaceDir: root(), stateDir: root() } });
      const browser = set.tools.find((t) => t.name === "browser")!;
      const call = async (args: Record<string, unknown>) => {
        const result = await browser.execute("b", args);
        if (result.isError) throw new Error(JSON.stringify(result.content));
        return result;
      };
      await call({ action: "open", targetUrl: url });
      const launchRaw = async () => {
        const context = await chromium.launchPersistentContext(root(), {
          executablePath,
          headless: true,
          chromiumSandbox: process.getuid?.() !== 0,
          args: CHROMIUM_ARGS,
          viewport: { width: 1280, height: 720 },
        });
        const first = context.pages()[0] ?? (await context.newPage());
        await first.goto(url);
        return { context, page: first };
      };
      const { context: raw, page } = await launchRaw();
      // the AI walk clawtools' snapshot is built on, in a browser of its own (AI walks on the
      // plain side's page would change what that side measures): Chromium's share of the gap
      const ai = await launchRaw();

      const snapshot = await timeInTurns(
        {
          ours: () => call({ action: "snapshot" }),
          raw: () => page.ariaSnapshot(),
          rawAi: () => ai.page.ariaSnapshot({ mode: "ai" }),
        },
        SNAPSHOT_ROUNDS,
      );
      await ai.context.close();
      rows.push({ name: "ariaSnapshot (raw playwright-core)", value: snapshot.raw, unit: "ms" });
      rows.push({
        name: 'ariaSnapshot({ mode: "ai" }) (raw playwright-core)',
        value: snapshot.rawAi,
        unit: "ms",
        baseline: "ariaSnapshot (raw playwright-core)",
      });
      rows.push({
        name: "snapshot, role refs (clawtools)",
        value: snapshot.ours,
        unit: "ms",
        baseline: "ariaSnapshot (raw playwright-core)",
        target: "≤ 1.2×",
        met: snapshot.ours <= snapshot.raw * 1.2,
      });

      const body = (await call({ action: "snapshot" })).content
        .map((c) => (c.type === "text" ? c.text : ""))
        .join("");
      const ref = /button "Go" \[ref=(e\d+)\]/.exec(body)![1]!;
      const act = await timeInTurns(
        {
          ours: () => call({ action: "act", request: { kind: "click", ref } }),
          raw: () => page.getByRole("button", { name: "Go", exact: true }).click(),
        },
        ROUNDS,
      );
      rows.push({ name: "click by role (raw playwright-core)", value: act.raw, unit: "ms" });
      rows.push({
        name: "act click by ref (clawtools)",
        value: act.ours,
        unit: "ms",
        baseline: "click by role (raw playwright-core)",
        target: "≤ 1.2×",
        met: act.ours <= act.raw * 1.2,
      });

      const shot = await timeInTurns(
        {
          ours: () => call({ action: "screenshot" }),
          raw: () => page.screenshot({ type: "png" }),
        },
        30,
      );
      rows.push({ name: "screenshot (raw playwright-core)", value: shot.raw, unit: "ms" });
      rows.push({
        name: "screenshot (clawtools)",
        value: shot.ours,
        unit: "ms",
        baseline: "screenshot (raw playwright-core)",
        target: "≤ 1.2×",
        met: shot.ours <= shot.raw * 1.2,
      });
      await raw.close();
      await set.dispose();

      // cold: a fresh browser each time, to the first snapshot
      const cold = await timeInTurns(
        {
          ours: async () => {
            const fresh = createToolset({
              plugins: [plugin()],
              context: { workspaceDir: root(), stateDir: root() },
            });
            const tool = fresh.tools.find((t) => t.name === "browser")!;
            await tool.execute("c", { action: "open", targetUrl: url });
            await tool.execute("c", { action: "snapshot" });
            await fresh.dispose();
          },
          raw: async () => {
            const ctx = await chromium.launchPersistentContext(root(), {
              executablePath,
              headless: true,
              chromiumSandbox: process.getuid?.() !== 0,
              args: CHROMIUM_ARGS,
            });
            const p = await ctx.newPage();
            await p.goto(url);
            await p.ariaSnapshot();
            await ctx.close();
          },
        },
        5,
        1,
      );
      rows.push({ name: "cold launch → first snapshot (raw playwright-core)", value: cold.raw, unit: "ms" });
      rows.push({
        name: "cold start → first snapshot (clawtools)",
        value: cold.ours,
        unit: "ms",
        baseline: "cold launch → first snapshot (raw playwright-core)",
      });

      const peers = await browserServers(executablePath, [url, `${url}other`]);
      rows.push(...peers.rows);
      notes.push(...peers.notes);
    } finally {
      server.close();
    }
    return {
      title: "ui: browser against raw playwright-core and the browser MCP servers on the same Chromium",
      rows,
      notes: [
        "Both sides drive Debian's Chromium headless with the same switches, each its own browser, taking turns call after call.",
        "clawtools' role-ref snapshot is built on Playwright's AI walk (ariaSnapshot({ mode: \"ai\" }): it keeps visible children of hidden parents and refs to the exact elements); the raw AI-walk row, in a third browser, is that walk alone.",
        "clawtools' snapshot adds ref numbering, external-content wrapping and caps; its act checks the ref against the latest snapshot (in flight beside the click, which the check aborts when the element is gone); its screenshot also writes the file under the state directory.",
        ...notes,
      ],
    };
  },
} satisfies BenchSuite;
