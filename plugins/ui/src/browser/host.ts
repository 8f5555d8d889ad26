import { type Lookup, ToolInputError, type UrlPolicy } from "@clawtools/core";
import type { BrowserConfig } from "../config.js";
import { BrowserRuntime, DEFAULT_PROFILE, USER_PROFILE } from "./runtime.js";

/** The browsers of one toolset, one per profile, each started on first use and closed on dispose. */
export class BrowserHost {
  private readonly runtimes = new Map<string, BrowserRuntime>();

  constructor(
    readonly config: BrowserConfig,
    readonly stateDir: string,
    /** The resolver the URL policy checks with (default: the system's). */
    readonly lookup?: Lookup,
  ) {}

  get policy(): UrlPolicy {
    return {
      ...(this.config.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
      ...(this.config.allowedHostnames ? { allowedHostnames: this.config.allowedHostnames } : {}),
    };
  }

  profiles(): Array<Record<string, unknown>> {
    return [DEFAULT_PROFILE, USER_PROFILE].map((name) => {
      const runtime = this.runtimes.get(name);
      return {
        name,
        running: runtime?.running ?? false,
        ...(name === USER_PROFILE
          ? { attachOnly: true, configured: Boolean(this.config.cdpUrl) }
          : { managed: true, userDataDir: this.runtime(name).userDataDir }),
      };
    });
  }

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
  }
}
