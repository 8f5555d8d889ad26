import { ToolInputError } from "@clawtools/core";
import type { Lookup, UrlPolicy } from "@clawtools/core/safety";
import type { BrowserConfig } from "../config.js";
import type { BrowserDriver, BrowserDriverInit, ProfileInfo } from "../driver/types.js";
import { ChromiumCanvasHost } from "../canvas/host.js";
import type { CanvasHost } from "../canvas/host-types.js";
import { PlaywrightSession } from "./playwright-session.js";
import { BrowserRuntime, DEFAULT_PROFILE, USER_PROFILE } from "./runtime.js";

/**
 * The default browser driver: playwright-core on Debian's Chromium, one browser per profile,
 * each started on first use behind the egress proxy and closed on dispose.
 */
export class PlaywrightBrowserDriver implements BrowserDriver {
  private readonly runtimes = new Map<string, BrowserRuntime>();
  private readonly sessions = new Map<string, PlaywrightSession>();
  readonly config: BrowserConfig;
  readonly stateDir: string;
  readonly policy: UrlPolicy;
  /** The resolver the URL policy checks with (default: the system's). */
  readonly lookup: Lookup | undefined;

  constructor(init: BrowserDriverInit) {
    this.config = init.config;
    this.stateDir = init.stateDir;
    this.policy = init.policy;
    this.lookup = init.lookup;
  }

  async profiles(): Promise<ProfileInfo[]> {
    return [DEFAULT_PROFILE, USER_PROFILE].map((name) => ({
      name,
      running: this.runtimes.get(name)?.running ?? false,
      ...(name === USER_PROFILE
        ? { attachOnly: true, configured: Boolean(this.config.cdpUrl) }
        : { managed: true, userDataDir: this.runtime(name).userDataDir }),
    }));
  }

  session(profile: string = DEFAULT_PROFILE): PlaywrightSession {
    let session = this.sessions.get(profile);
    if (!session) {
      session = new PlaywrightSession(this.runtime(profile), this.config.evaluateEnabled !== false);
      this.sessions.set(profile, session);
    }
    return session;
  }

  /** The canvas: a page of the managed profile's Chromium, never listed as a tab. */
  canvas(size: { width: number; height: number }): CanvasHost {
    return new ChromiumCanvasHost(this.runtime(DEFAULT_PROFILE), size);
  }

  /** One profile's browser (tests reach the pages through it; the tools never do). */
  runtime(profile: string = DEFAULT_PROFILE): BrowserRuntime {
    if (profile !== DEFAULT_PROFILE && profile !== USER_PROFILE)
      throw new ToolInputError(
        `Unknown browser profile "${profile.slice(0, 60)}" (known: ${DEFAULT_PROFILE}, ${USER_PROFILE}).`,
      );
    let runtime = this.runtimes.get(profile);
    if (!runtime) {
      runtime = new BrowserRuntime(profile, this.config, this.stateDir, this.policy, this.lookup);
      this.runtimes.set(profile, runtime);
    }
    return runtime;
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.runtimes.values()].map((r) => r.stop()));
    this.runtimes.clear();
    this.sessions.clear();
  }
}
