/**
 * The browser as MCP servers offer it, each driven over stdio by raw JSON-RPC on the same
 * loopback page and Debian's Chromium (headless, a fresh profile each): `clawtools serve`'s
 * browser tool, chrome-devtools-mcp and Playwright MCP. First launch (spawn → the first
 * navigate answered) and a warm navigate + snapshot.
 */
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchRow, percentile } from "./harness.js";
import { RpcChild } from "./rpc-child.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..", "..");
const bin = path.join(root, "apps", "cli", "dist", "bin.js");
const require = createRequire(import.meta.url);

/** Never let a peer fetch a browser of its own. */
const NO_DOWNLOADS = { PUPPETEER_SKIP_DOWNLOAD: "1", PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" };

interface BrowserServer {
  name: string;
  args: () => string[];
  /** Environment beside the no-downloads switches (a fresh value per spawn when a function). */
  env?: () => Record<string, string>;
  /** Timed at first launch only, without a target (a variant of another server). */
  firstOnly?: boolean;
  navigate: (url: string) => [string, Record<string, unknown>];
  snapshot: [string, Record<string, unknown>];
}

const fresh = (what: string) => mkdtempSync(path.join(tmpdir(), `bench-${what}-`));

function packageBin(name: string, file: string): string | undefined {
  try {
    return path.join(path.dirname(require.resolve(`${name}/package.json`)), file);
  } catch {
    return undefined;
  }
}

const serveArgs = () => [
  bin,
  "serve",
  "--profile",
  "full",
  "--allow-private-network",
  "--workspace",
  fresh("ws"),
  "--state-dir",
  fresh("state"),
];

function servers(chromium: string): { servers: BrowserServer[]; missing: string[] } {
  const missing: string[] = [];
  // the serve's code cache of playwright-core, kept here rather than in the user's home and
  // written by an untimed launch first: what every launch on a machine after its first one meets
  const codeCache = fresh("code-cache");
  const list: BrowserServer[] = [
    {
      name: "clawtools serve",
      args: serveArgs,
      env: () => ({ XDG_CACHE_HOME: codeCache }),
      navigate: (url) => ["browser", { action: "navigate", targetUrl: url }],
      snapshot: ["browser", { action: "snapshot" }],
    },
    {
      name: "clawtools serve, no code cache (a machine's first launch)",
      args: serveArgs,
      env: () => ({ XDG_CACHE_HOME: fresh("no-code-cache") }),
      navigate: (url) => ["browser", { action: "navigate", targetUrl: url }],
      snapshot: ["browser", { action: "snapshot" }],
      firstOnly: true,
    },
  ];
  const devtools = packageBin("chrome-devtools-mcp", "build/src/bin/chrome-devtools-mcp.js");
  if (!devtools) missing.push("chrome-devtools-mcp is not installed");
  else
    list.push({
      name: "chrome-devtools-mcp",
      args: () => [
        devtools,
        "--headless",
        "--isolated",
        `--executablePath=${chromium}`,
        "--chromeArg=--no-sandbox",
        "--no-usage-statistics",
        "--no-performance-crux",
      ],
      // its first page (id 1) is there from the launch
      navigate: (url) => ["navigate_page", { pageId: 1, type: "url", url }],
      snapshot: ["take_snapshot", { pageId: 1 }],
    });
  const playwright = packageBin("@playwright/mcp", "cli.js");
  if (!playwright) missing.push("@playwright/mcp is not installed");
  else
    list.push({
      name: "Playwright MCP",
      args: () => [
        playwright,
        "--headless",
        "--isolated",
        "--browser",
        "chromium",
        `--executable-path=${chromium}`,
        "--no-sandbox",
        // the snapshot files its navigate writes go to a temp dir, not the working directory
        "--output-dir",
        fresh("pw-out"),
      ],
      navigate: (url) => ["browser_navigate", { url }],
      snapshot: ["browser_snapshot", {}],
    });
  return { servers: list, missing };
}

async function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Ends a server (end of input, then a signal if it lingers) with its browser. */
async function stop(server: RpcChild): Promise<void> {
  await within("stop", 10_000, server.stop()).catch(async () => {
    server.child.kill("SIGTERM");
    await within("stop after SIGTERM", 5_000, server.stop()).catch(() => server.child.kill("SIGKILL"));
  });
}

const spawnServer = (s: BrowserServer) =>
  RpcChild.spawn(s.args(), { env: { ...NO_DOWNLOADS, ...s.env?.() } });

/** Milliseconds from spawn through the opening to the first navigate answered; stopped after. */
async function launchAndNavigate(s: BrowserServer, url: string): Promise<number> {
  const begin = performance.now();
  let child: RpcChild | undefined;
  try {
    child = spawnServer(s);
    await within(`${s.name} opening`, 30_000, child.open());
    await within(`${s.name} navigate`, 60_000, child.call(...s.navigate(url)));
    return performance.now() - begin;
  } finally {
    if (child) await stop(child);
  }
}

async function start(s: BrowserServer): Promise<RpcChild> {
  const child = spawnServer(s);
  await within(`${s.name} opening`, 30_000, child.open());
  return child;
}

export interface BrowserPeerResult {
  rows: BenchRow[];
  notes: string[];
}

/** First launch and warm navigate + snapshot of every browser server that can run here. */
export async function browserServers(
  chromium: string,
  pages: [string, string],
  firstRounds = 9,
  warmRounds = 30,
): Promise<BrowserPeerResult> {
  const { servers: list, missing } = servers(chromium);
  const notes = missing.map((m) => `Not measured: ${m}.`);
  const first = new Map<string, number[]>(list.map((s) => [s.name, []]));
  const failed = new Set<string>();
  // an untimed launch of each first: the serve's code cache is written, the disk cache is warm
  for (const s of list) {
    // a server that cannot launch fails again, timed, and is noted there
    await launchAndNavigate(s, pages[0]).catch(() => {});
  }
  // first launch: spawn → the opening → the first navigate answered, the servers in turns
  for (let round = 0; round < firstRounds; round++) {
    for (let k = 0; k < list.length; k++) {
      const s = list[(round + k) % list.length]!;
      if (failed.has(s.name)) continue;
      try {
        first.get(s.name)!.push(await launchAndNavigate(s, pages[0]));
      } catch (error) {
        failed.add(s.name);
        notes.push(`Not measured: ${s.name} failed here: ${(error as Error).message.slice(0, 300)}.`);
      }
    }
  }
  // warm: one server each, navigating between two pages and taking a snapshot, in turns
  const warm = new Map<string, number[]>();
  const running: Array<{ s: BrowserServer; child: RpcChild }> = [];
  try {
    for (const s of list.filter((x) => !failed.has(x.name) && !x.firstOnly)) {
      const child = await start(s);
      running.push({ s, child });
      warm.set(s.name, []);
    }
    for (let round = 0; round < warmRounds + 3; round++) {
      for (let k = 0; k < running.length; k++) {
        const { s, child } = running[(round + k) % running.length]!;
        const begin = performance.now();
        await within(`${s.name} navigate`, 60_000, child.call(...s.navigate(pages[round % 2]!)));
        await within(`${s.name} snapshot`, 60_000, child.call(...s.snapshot));
        if (round >= 3) warm.get(s.name)!.push(performance.now() - begin);
      }
    }
  } finally {
    await Promise.all(running.map(({ child }) => stop(child)));
  }
  const rows: BenchRow[] = [];
  const ours = "clawtools serve";
  const peers = list.filter((s) => !s.firstOnly && s.name !== ours && !failed.has(s.name));
  const firstName = (name: string) => `${name}: first launch, spawn → first navigate answered (median)`;
  const warmName = (name: string) => `${name}: warm navigate + snapshot, p50`;
  for (const s of list.filter((x) => x.firstOnly && !failed.has(x.name)))
    rows.push({ name: firstName(s.name), value: percentile(first.get(s.name)!, 50), unit: "ms" });
  for (const s of peers) {
    rows.push({ name: firstName(s.name), value: percentile(first.get(s.name)!, 50), unit: "ms" });
    rows.push({ name: warmName(s.name), value: percentile(warm.get(s.name)!, 50), unit: "ms" });
  }
  if (!failed.has(ours)) {
    const mineFirst = percentile(first.get(ours)!, 50);
    const mineWarm = percentile(warm.get(ours)!, 50);
    for (const s of peers) {
      const peerFirst = percentile(first.get(s.name)!, 50);
      rows.push({
        name: `${firstName(ours)} against ${s.name}`,
        value: mineFirst,
        unit: "ms",
        baseline: firstName(s.name),
        target: "≤ 1×",
        met: mineFirst <= peerFirst,
      });
      const peerWarm = percentile(warm.get(s.name)!, 50);
      rows.push({
        name: `${warmName(ours)} against ${s.name}`,
        value: mineWarm,
        unit: "ms",
        baseline: warmName(s.name),
        ...(s.name === "chrome-devtools-mcp" ? { target: "≤ 1×", met: mineWarm <= peerWarm } : {}),
      });
    }
  }
  notes.push(
    `Browser servers over stdio (raw JSON-RPC, one call at a time), each launching ${chromium} headless with a fresh profile: clawtools serve's browser tool (navigate, snapshot), chrome-devtools-mcp (navigate_page, take_snapshot), Playwright MCP (browser_navigate, browser_snapshot). Neither peer downloads a browser (PUPPETEER_SKIP_DOWNLOAD, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD). First launch: medians of ${firstRounds} spawns in turns, after one untimed launch of each (which writes the serve's code cache of playwright-core, kept in a directory of the bench's; the "no code cache" variant gets an empty one at every spawn); warm: ${warmRounds} rounds of navigate (between two loopback pages) + snapshot per server, in turns, after 3 warm-up rounds.`,
  );
  return { rows, notes };
}
