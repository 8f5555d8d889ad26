import { mkdirSync } from "node:fs";
import path from "node:path";
import { ToolInputError } from "@clawtools/core";
import { backgroundClock, delay } from "@clawtools/core/time";
import type { Lookup, UrlPolicy } from "@clawtools/core/safety";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { BrowserConfig } from "../config.js";
import { findChromium } from "./chromium-path.js";
import { sweepStaleUploads } from "../files.js";
import { BLOCKED_HEADER, EgressProxy } from "./egress-proxy.js";
import { Tab } from "./tab.js";
import { navigateWithin } from "./navigation-timeout.js";
import { titleOf } from "./page-answer.js";
import { guardContext } from "./url-guard.js";
import { loadPlaywright, savePlaywrightCodeCache } from "./playwright-load.js";

/** Switches that let Chromium run on a locked-down Linux machine with no network beyond the page. */
export const CHROMIUM_ARGS = [
  "--disable-gpu",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--disable-quic",
];

/**
 * Every connection goes through the egress proxy, loopback included (Chromium bypasses proxies
 * for loopback unless told `<-loopback>`); WebRTC may not send UDP around it.
 */
export const proxyArgs = (proxyUrl: string) => [
  `--proxy-server=${proxyUrl}`,
  "--proxy-bypass-list=<-loopback>",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/** When the code cache of playwright-core is written after a launch (or at stop, if sooner). */
const CODE_CACHE_AFTER_MS = 3_000;

export const DEFAULT_PROFILE = "openclaw";
export const USER_PROFILE = "user";

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

export const tabNotFound = (profile: string) =>
  `Chrome tab not found (stale targetId?). Run action=tabs profile="${profile}" and use one of the returned targetIds.`;

/**
 * One Chromium per profile, started on first use: the managed `openclaw` profile (a persistent
 * profile directory under the state directory) or `user`, attached over CDP to a Chromium the
 * user started. Tabs are addressed by their CDP target id, which survives navigations and form
 * submits because it belongs to the tab, not the document.
 */
export class BrowserRuntime {
  private context: BrowserContext | undefined;
  private browser: Browser | undefined;
  private starting: Promise<BrowserContext> | undefined;
  private readonly tabs = new Map<string, Tab>();
  private readonly byPage = new WeakMap<Page, Tab>();
  private current: Tab | undefined;
  private executablePath: string | undefined;
  // pages being created for the canvas: kept out of the tab list
  private hiddenPending = 0;
  private readonly hidden = new WeakSet<Page>();
  private detectError: string | undefined;
  private proxy: EgressProxy | undefined;
  // the proxy's latest refusals, to say why a navigation failed
  private readonly blocks: Array<{ seq: number; target: string; message: string }> = [];
  private blockSeq = 0;

  constructor(
    readonly profile: string,
    private readonly config: BrowserConfig,
    private readonly stateDir: string,
    readonly policy: UrlPolicy,
    /** The resolver the URL policy checks with (tests inject names; default: the system's). */
    readonly lookup?: Lookup,
  ) {}

  /** How long an action or a navigation may take (Playwright's default timeout for the context). */
  get actionTimeoutMs(): number {
    return this.config.actionTimeoutMs ?? 8_000;
  }

  /** The egress proxy's latest refusals (at most 20), newest last. */
  refused(): string[] {
    return this.blocks.map((b) => b.message);
  }

  /** How many connections the egress proxy refused (every start of this profile counted). */
  get refusedCount(): number {
    return this.blockSeq;
  }

  get running(): boolean {
    return this.context !== undefined;
  }

  get userDataDir(): string {
    return path.join(this.stateDir, "browser", "profiles", this.profile);
  }

  status(): Record<string, unknown> {
    if (!this.executablePath && !this.detectError) {
      try {
        this.executablePath = findChromium(this.config.executablePath);
      } catch (error) {
        this.detectError = (error as Error).message;
      }
    }
    const attach = this.profile === USER_PROFILE;
    return {
      enabled: this.config.enabled !== false,
      profile: this.profile,
      driver: "playwright",
      transport: "cdp",
      running: this.running,
      cdpReady: this.running,
      ...(attach ? { cdpUrl: this.config.cdpUrl ?? null } : {}),
      chosenBrowser: "chromium",
      detectedBrowser: this.executablePath ? "chromium" : null,
      detectedExecutablePath: this.executablePath ?? null,
      ...(this.detectError ? { detectError: this.detectError } : {}),
      userDataDir: attach ? null : this.userDataDir,
      headless: this.config.headless !== false,
      noSandbox: isRoot(),
      executablePath: this.executablePath ?? null,
      attachOnly: attach,
      tabCount: this.tabs.size,
    };
  }

  /** Starts (or attaches to) the browser once; concurrent callers share the start. */
  async start(): Promise<BrowserContext> {
    if (this.context) return this.context;
    this.starting ??= this.launch().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async launch(): Promise<BrowserContext> {
    if (this.profile === USER_PROFILE && !this.config.cdpUrl)
      throw new ToolInputError(
        'profile "user" attaches to a Chromium you started with --remote-debugging-port; set browser.cdpUrl in the ui configuration (for example http://127.0.0.1:9222).',
      );
    const sweep = sweepStaleUploads(this.stateDir);
    // a failure before it is awaited is reported by what failed first, not as unhandled
    sweep.catch(() => {});
    let context: BrowserContext;
    if (this.profile === USER_PROFILE) {
      const { chromium } = loadPlaywright(this.config);
      await sweep;
      this.browser = await chromium.connectOverCDP(this.config.cdpUrl!);
      context = this.browser.contexts()[0] ?? (await this.browser.newContext());
    } else {
      const proxy = new EgressProxy({
        policy: this.policy,
        ...(this.lookup ? { lookup: this.lookup } : {}),
        onBlocked: ({ host, port, message }) => {
          this.blocks.push({ seq: ++this.blockSeq, target: `${host}:${port}`, message });
          if (this.blocks.length > 20) this.blocks.shift();
        },
      });
      // the sweep and the proxy's listen go on while playwright-core loads
      const started = proxy.start();
      let chromium: typeof import("playwright-core").chromium;
      try {
        this.executablePath = findChromium(this.config.executablePath);
        mkdirSync(this.userDataDir, { recursive: true });
        ({ chromium } = loadPlaywright(this.config));
        await Promise.all([sweep, started]);
      } catch (error) {
        await started.catch(() => {});
        await proxy.stop();
        throw error;
      }
      this.proxy = proxy;
      context = await chromium
        .launchPersistentContext(this.userDataDir, {
          executablePath: this.executablePath,
          headless: this.config.headless !== false,
          chromiumSandbox: !isRoot(),
          // the proxy switches come last so extraArgs cannot turn the policy off
          args: [
            ...CHROMIUM_ARGS,
            ...withoutProxySwitches(this.config.extraArgs ?? []),
            ...proxyArgs(proxy.url),
          ],
          env: {
            ...process.env,
            XDG_CONFIG_HOME: path.join(this.userDataDir, ".config"),
            XDG_CACHE_HOME: path.join(this.userDataDir, ".cache"),
          },
          viewport: { width: 1280, height: 720 },
          acceptDownloads: false,
        })
        .catch(async (error: unknown) => {
          await proxy.stop();
          this.proxy = undefined;
          throw error;
        });
    }
    context.setDefaultTimeout(this.actionTimeoutMs);
    // by then the first page's work has compiled what it uses, and the entries keep that too
    void delay(CODE_CACHE_AFTER_MS, { clock: backgroundClock }).then(savePlaywrightCodeCache);
    // A Chromium we attach to has no proxy of ours: its requests are checked per request instead.
    if (this.profile === USER_PROFILE) await guardContext(context, this.policy, this.lookup);
    context.on("page", (page) => {
      if (this.hiddenPending > 0) {
        this.hiddenPending--;
        this.hidden.add(page);
        return;
      }
      void this.adopt(page).catch(() => {});
    });
    context.on("close", () => this.forget());
    this.context = context;
    for (const page of context.pages()) await this.adopt(page);
    return context;
  }

  /** A page of this browser that is not a tab (the canvas): never listed, never a target. */
  async newHiddenPage(): Promise<Page> {
    const context = await this.start();
    this.hiddenPending++;
    try {
      const page = await context.newPage();
      this.hidden.add(page);
      return page;
    } finally {
      this.hiddenPending = 0;
    }
  }

  private forget(): void {
    this.context = undefined;
    this.browser = undefined;
    this.tabs.clear();
    this.current = undefined;
  }

  /** Registers a page (opened by us, by a script, or already there) under its CDP target id. */
  private async adopt(page: Page): Promise<Tab | undefined> {
    if (this.hidden.has(page)) return undefined;
    const known = this.byPage.get(page);
    if (known) return known;
    const session = await page.context().newCDPSession(page);
    let targetId: string;
    try {
      const info = (await session.send("Target.getTargetInfo")) as { targetInfo: { targetId: string } };
      targetId = info.targetInfo.targetId;
    } finally {
      // nothing waits on the detach: the id is known and the session holds nothing
      void session.detach().catch(() => {});
    }
    const again = this.byPage.get(page);
    if (again) return again;
    const tab = new Tab(targetId, page);
    this.byPage.set(page, tab);
    this.tabs.set(targetId, tab);
    this.current ??= tab;
    page.on("close", () => {
      this.tabs.delete(targetId);
      if (this.current === tab) this.current = [...this.tabs.values()].at(-1);
    });
    return tab;
  }

  async stop(): Promise<void> {
    const context = this.context;
    const browser = this.browser;
    const proxy = this.proxy;
    const tabs = [...this.tabs.values()];
    this.forget();
    this.proxy = undefined;
    if (this.profile === USER_PROFILE) await browser?.close().catch(() => {});
    else await context?.close().catch(() => {});
    await proxy?.stop();
    await savePlaywrightCodeCache();
    // an attached browser's pages stay open: their staged files go now all the same
    await Promise.all(tabs.map((tab) => tab.cleanup(true)));
  }

  async listTabs(): Promise<Array<{ targetId: string; title: string; url: string; type: "page" }>> {
    await this.start();
    return Promise.all(
      [...this.tabs.values()].map(async (tab) => ({
        targetId: tab.targetId,
        title: await titleOf(tab.page),
        url: tab.page.url(),
        type: "page" as const,
      })),
    );
  }

  /** A new blank tab, made the current one. */
  async newTab(): Promise<Tab> {
    const context = await this.start();
    const page = await context.newPage();
    const tab = (await this.adopt(page))!;
    this.current = tab;
    return tab;
  }

  /**
   * Navigates and fails with the policy's reason when the proxy refused the document or a
   * redirect hop (the URL itself was checked before; a redirect or a new DNS answer was not).
   */
  async goto(page: Page, url: string, waitUntil: "domcontentloaded" | "load" = "domcontentloaded") {
    const since = this.blockSeq;
    const recent = () => this.blocks.filter((b) => b.seq > since);
    let response: Awaited<ReturnType<Page["goto"]>>;
    try {
      response = await navigateWithin(page, this.actionTimeoutMs, `The page at ${url}`, () =>
        page.goto(url, { waitUntil }),
      );
    } catch (error) {
      // a refused tunnel: the first refusal since this navigation began is its hop
      const reason = recent()[0]?.message;
      if (reason && /ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY/.test(String(error)))
        throw new ToolInputError(`Navigation failed: ${reason}`);
      throw error;
    }
    // the proxy's 403 for the URL the navigation ended on (a page cannot fake one: the header
    // counts only with a refusal the proxy recorded for that host and port)
    const landedOn = response?.headers()[BLOCKED_HEADER] ? authority(response.url()) : undefined;
    const reason = landedOn && recent().findLast((b) => b.target === landedOn)?.message;
    if (reason) throw new ToolInputError(`Navigation failed: ${reason}`);
    return response;
  }

  /** The tab a call names, else the current one (a tab is opened when there is none). */
  async tab(targetId?: string): Promise<Tab> {
    const context = await this.start();
    if (targetId) {
      const tab = this.tabs.get(targetId);
      if (!tab) throw new ToolInputError(tabNotFound(this.profile));
      return tab;
    }
    if (this.current && !this.current.page.isClosed()) return this.current;
    const page =
      context.pages().find((p) => !p.isClosed() && !this.hidden.has(p)) ?? (await context.newPage());
    const tab = (await this.adopt(page))!;
    this.current = tab;
    return tab;
  }

  async focus(targetId: string): Promise<void> {
    const tab = await this.tab(targetId);
    await tab.page.bringToFront();
    this.current = tab;
  }

  async close(targetId?: string): Promise<void> {
    const tab = await this.tab(targetId);
    await tab.page.close();
    await tab.cleanup();
  }
}

/** Proxy switches in extraArgs would route around the egress proxy: they are dropped. */
function withoutProxySwitches(args: string[]): string[] {
  return args.filter(
    (arg) =>
      !/^--(proxy-server|proxy-bypass-list|proxy-pac-url|no-proxy-server|proxy-auto-detect|host-resolver-rules)\b/.test(
        arg,
      ),
  );
}

/** `host:port` of a URL as the egress proxy names it (default ports filled in). */
function authority(url: string): string | undefined {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === "https:" ? 443 : 80)}`;
  } catch {
    return undefined;
  }
}
