import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { ConfigError } from "@clawtools/core";
import { EgressProxy, type UrlPolicy } from "@clawtools/core/safety";
import { shellQuote } from "../security/shell-quote.js";
import { BRIDGE_SOURCE } from "./bridge.js";
import { bwrapArgs, findBwrap, probeBwrap } from "./bwrap.js";

export type SandboxMode = "auto" | "bwrap" | "none";

export interface SandboxOptions {
  mode: SandboxMode;
  /** `proxy` (default): out through the egress proxy only; `off`: no network, no bridge to start. */
  network?: "proxy" | "off";
  /** Where the sandbox's network goes: the egress proxy's URL policy (web_fetch's rules). */
  urlPolicy?: UrlPolicy;
  stateDir?: string;
  /** Told once when `auto` runs commands unsandboxed (default: a line on stderr). */
  warn?: (line: string) => void;
  /** The bubblewrap binary (default: found on PATH). */
  bwrapPath?: string;
}

const warned = new Set<string>();

/**
 * The exec sandbox: bubblewrap around every local command (foreground, background, PTY) with
 * the network only through core's egress proxy. `auto` falls back to running unsandboxed where
 * bubblewrap cannot run, and says so at start and in every result (`details.sandbox`).
 */
export class ExecSandbox {
  readonly bwrap: string | undefined;
  /** `bwrap`, or `none` with the reason when commands run unsandboxed. */
  readonly status: string;
  private proxy: EgressProxy | undefined;
  private dir: string | undefined;
  private starting: Promise<void> | undefined;

  constructor(private readonly options: SandboxOptions) {
    if (options.mode === "none") {
      this.status = "none";
      return;
    }
    const bwrap = options.bwrapPath ?? findBwrap();
    const problem = bwrap ? probeBwrap(bwrap) : "bubblewrap (bwrap) is not installed";
    if (problem && options.mode === "bwrap")
      throw new ConfigError("runtime", [
        `  - sandbox: "bwrap" is required but ${problem}; install bubblewrap or set sandbox to "auto" or "none"`,
      ]);
    if (problem) {
      this.status = `none (sandbox auto: ${problem}; commands run unsandboxed)`;
      const line = `clawtools runtime: ${this.status}`;
      if (!warned.has(line)) {
        warned.add(line);
        (options.warn ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
      }
      return;
    }
    this.bwrap = bwrap;
    this.status = "bwrap";
  }

  get active(): boolean {
    return this.bwrap !== undefined;
  }

  private async start(): Promise<void> {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-sandbox-"));
    writeFileSync(path.join(dir, "bridge.mjs"), BRIDGE_SOURCE, { mode: 0o600 });
    const proxy = new EgressProxy({
      policy: this.options.urlPolicy ?? {},
      owner: "the sandbox's",
      socketPath: path.join(dir, "proxy.sock"),
    });
    await proxy.start();
    this.dir = dir;
    this.proxy = proxy;
  }

  /** The command line that runs `command` inside the sandbox (under the same shell). */
  async wrap(
    command: string,
    plan: { cwd: string; workspaceDir: string; shell: string; pty: boolean },
  ): Promise<string> {
    if (!this.bwrap) return command;
    if (this.options.network === "off") {
      const args = bwrapArgs({
        workspaceDir: plan.workspaceDir,
        cwd: plan.cwd,
        home: homedir(),
        ...(this.options.stateDir ? { stateDir: this.options.stateDir } : {}),
        expose: [],
        keepTerminal: plan.pty,
      });
      return `exec ${[this.bwrap, ...args, "--", plan.shell, "-c", command].map(shellQuote).join(" ")}`;
    }
    this.starting ??= this.start();
    await this.starting;
    const dir = this.dir!;
    const bridge = path.join(dir, "bridge.mjs");
    const socket = path.join(dir, "proxy.sock");
    const args = bwrapArgs({
      workspaceDir: plan.workspaceDir,
      cwd: plan.cwd,
      home: homedir(),
      ...(this.options.stateDir ? { stateDir: this.options.stateDir } : {}),
      expose: [process.execPath, bridge, socket],
      keepTerminal: plan.pty,
    });
    const argv = [this.bwrap, ...args, "--", process.execPath, bridge, socket, plan.shell, "-c", command];
    return `exec ${argv.map(shellQuote).join(" ")}`;
  }

  async dispose(): Promise<void> {
    const proxy = this.proxy;
    this.proxy = undefined;
    this.starting = undefined;
    await proxy?.stop();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}
