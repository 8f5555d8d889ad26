import { readFile } from "node:fs/promises";
import { delay } from "@clawtools/core/time";
import { describe, expect, it } from "./vitest-api.js";
import type {
  BackgroundProcessUnderTest,
  ConformanceSpawnOptions,
  Factory,
  ProcessHostUnderTest,
} from "./process-host-types.js";
import type { ConformanceOptions } from "./sessions-conformance.js";

/*
 * Conformance suite for the `ProcessHost` / `BackgroundProcess` seam of @clawtools/runtime (what
 * `exec` and `process` drive). Written against the shapes, so any host runs it (this machine, a
 * container, an SSH node, a Gateway):
 *
 *   processHostConformance(() => ({ host: myHost, cwd: "/tmp", env: { PATH: "/usr/bin:/bin" } }));
 *
 * Commands are POSIX shell lines. The factory is called once per test.
 */

export type {
  BackgroundProcessUnderTest,
  ConformanceExit,
  ConformanceSpawnOptions,
  ProcessHostUnderTest,
} from "./process-host-types.js";

/** For hosts that run on this machine: alive unless gone or a zombie nobody reaped yet. */
export async function localPidAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return !/^\d+ \(.*\) Z /.test(stat);
}

/** Resolves once `handle` has printed `marker` (waiting on its output, never on a timer). */
function printed(handle: BackgroundProcessUnderTest, marker: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const check = (chunk: string) => {
      seen += chunk;
      const found = seen.match(marker);
      if (found) {
        off();
        resolve(found);
      }
    };
    const off = handle.onData(check);
    check(handle.tail);
    handle.exited.then(() => {
      const found = (seen + handle.tail).match(marker);
      if (found) resolve(found);
      else reject(new Error(`exited without printing ${marker}: ${JSON.stringify(handle.tail)}`));
    });
  });
}

async function waitUntilDead(
  alive: (pid: number) => boolean | Promise<boolean>,
  pid: number,
): Promise<boolean> {
  // the host promises death, not its moment: re-check until a generous deadline
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (!(await alive(pid))) return true;
    await delay(50);
  }
  return false;
}

/** Declares the ProcessHost conformance suite for the hosts `factory` makes. */
export function processHostConformance(
  factory: Factory<ProcessHostUnderTest>,
  options: ConformanceOptions = {},
): void {
  describe(options.name ?? "ProcessHost conformance", () => {
    const start = async (command: string, extra: Partial<ConformanceSpawnOptions> = {}) => {
      const { host, cwd, env, pidAlive } = await factory();
      const handle = host.spawn({ command, cwd, env, scopeKey: "conformance", ...extra });
      return { handle, cwd, pidAlive };
    };

    it("spawn gives a running handle echoing what it was asked; ids are distinct", async () => {
      const { handle, cwd } = await start("echo started; cat", { stdin: "open" });
      const other = (await start("true")).handle;
      expect(handle).toMatchObject({ command: "echo started; cat", cwd, scopeKey: "conformance" });
      expect(handle.id).not.toBe(other.id);
      await printed(handle, /started/);
      expect(handle.running).toBe(true);
      expect(handle.status).toBe("running");
      expect(handle.exit).toBeUndefined();
      handle.closeStdin();
      expect(await handle.exited).toEqual({ exitCode: 0, exitSignal: null });
      await other.exited;
      handle.dispose();
      other.dispose();
    });

    it("the exit code and status are reported: 0 completed, non-zero failed", async () => {
      const ok = (await start("echo fine")).handle;
      const bad = (await start("echo broken; exit 3")).handle;
      expect(await ok.exited).toEqual({ exitCode: 0, exitSignal: null });
      expect(await bad.exited).toEqual({ exitCode: 3, exitSignal: null });
      expect(ok).toMatchObject({ status: "completed", running: false, exit: { exitCode: 0 } });
      expect(bad).toMatchObject({ status: "failed", running: false, exit: { exitCode: 3 } });
      expect(ok.result()).toMatchObject({ text: "fine", truncated: false });
      expect(bad.result().text).toBe("broken");
    });

    it("poll returns unread output once; hasUnread and tail follow it", async () => {
      const { handle } = await start("printf 'a\\nb\\n'; read _go; printf 'c\\n'", { stdin: "open" });
      await printed(handle, /b\n/);
      expect(handle.hasUnread).toBe(true);
      expect(handle.poll()).toEqual({ text: "a\nb\n", omittedChars: 0 });
      expect(handle.hasUnread).toBe(false);
      expect(handle.poll().text).toBe("");
      handle.write("go\n");
      await handle.exited;
      expect(handle.poll().text).toBe("c\n");
      expect(handle.tail).toBe("a\nb\nc\n");
    });

    it("log pages the whole output by 0-based line offset and limit", async () => {
      const { handle } = await start("for i in 0 1 2 3 4 5; do echo line$i; done");
      await handle.exited;
      handle.poll(); // reading the unread output does not shorten the log
      expect(await handle.log(undefined, undefined)).toEqual({
        text: "line0\nline1\nline2\nline3\nline4\nline5",
        shown: 6,
      });
      expect(await handle.log(2, 3)).toEqual({ text: "line2\nline3\nline4", shown: 3 });
      expect((await handle.log(5, 10)).text).toContain("line5");
      expect(handle.outputInfo()).toMatchObject({ totalLines: 6, truncated: false });
      expect(handle.outputInfo().totalChars).toBe(36);
    });

    it("write feeds stdin when it is open, and closeStdin ends it", async () => {
      const { handle } = await start("read first; echo got:$first; cat; echo eof", { stdin: "open" });
      handle.write("hello\n");
      await printed(handle, /got:hello/);
      handle.write("more\n");
      await printed(handle, /more/);
      handle.closeStdin();
      expect(await handle.exited).toEqual({ exitCode: 0, exitSignal: null });
      expect(handle.result().text).toBe("got:hello\nmore\neof");
    });

    it("onData streams chunks until the listener is removed", async () => {
      const { handle } = await start("echo one; read _go; echo two", { stdin: "open" });
      let heard = "";
      const off = handle.onData((chunk) => {
        heard += chunk;
      });
      await printed(handle, /one/);
      await expect.poll(() => heard).toContain("one");
      off();
      handle.write("go\n");
      await handle.exited;
      expect(heard).not.toContain("two");
      expect(handle.tail).toContain("two");
    });

    it("a command that cannot start settles at once with spawnError, never running", async () => {
      const { host, env } = await factory();
      const handle = host.spawn({
        command: "echo never",
        cwd: "/nonexistent/conformance/dir",
        env,
        scopeKey: "conformance",
      });
      const exit = await handle.exited;
      expect(exit.exitCode === 0).toBe(false);
      expect(handle.running).toBe(false);
      expect(handle.status).toBe("failed");
      expect(handle.tail).not.toContain("never");
      expect(typeof handle.spawnError === "string" || (exit.exitCode ?? 0) !== 0).toBe(true);
    });

    it("kill ends the run with its signal and status killed; a second kill is a no-op", async () => {
      const { handle } = await start("echo ready; sleep 300");
      await printed(handle, /ready/);
      handle.kill();
      const exit = await handle.exited;
      expect(exit.exitSignal).toBe("SIGTERM");
      expect(handle.status).toBe("killed");
      expect(handle.running).toBe(false);
      expect(() => handle.kill("SIGKILL")).not.toThrow();
      handle.dispose();
    });

    it("kill ends the whole group, a grandchild ignoring SIGTERM included", async (ctx) => {
      const { handle, pidAlive } = await start(
        "sh -c 'trap \"\" TERM; echo grandchild:$$; while :; do sleep 1; done' & wait",
      );
      if (!pidAlive) return ctx.skip("the host gave no pidAlive check");
      const [, pid] = await printed(handle, /grandchild:(\d+)/);
      const grandchild = Number(pid);
      expect(await pidAlive(grandchild)).toBe(true);
      handle.kill("SIGTERM", 200);
      await handle.exited;
      expect(await waitUntilDead(pidAlive, grandchild), `grandchild ${grandchild} outlived kill`).toBe(true);
    });
  });
}
