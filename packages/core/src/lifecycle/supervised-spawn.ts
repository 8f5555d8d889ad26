import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";
import { startProcessGroupReaper, superviseProcessGroup } from "./group-reaper.js";

const SUPPORTED = process.platform !== "win32";

/**
 * The gate: the child's first program, a `/bin/sh` that waits for a line on fd 3 before it
 * becomes the command (`exec`, same pid, fd 3 closed). The line is written only once the reaper's
 * pipe holds the child's group; if this process dies first, fd 3 reads end-of-file and the child
 * exits without having run anything. So no moment exists in which the command runs and a
 * kill -9 of this process would leave it behind: not while `spawn` waits for the exec, not between
 * `spawn` returning and the registration, not while a first reaper is being started.
 */
const GATE = 'IFS= read -r _ <&3 || exit 125; exec 3<&-; exec "$0" "$@"';

/** Whether `command` names a program `spawn` would find and could run (its own lookup: PATH of the child's env). */
function runnable(command: string, options: SpawnOptions): boolean {
  const can = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (command.includes("/")) return can(path.resolve(String(options.cwd ?? process.cwd()), command));
  const PATH = (options.env ?? process.env).PATH ?? "";
  return PATH.split(":").some((dir) => dir !== "" && can(path.join(dir, command)));
}

/** A child spawned by `spawnSupervised`, and the release of its group once it has exited. */
export interface SupervisedChild {
  child: ChildProcess;
  /** Call once the child has exited (see `superviseProcessGroup`). */
  release: () => void;
}

/**
 * Spawns `command` leading a new process group (`detached`) that nothing outlives this process:
 * however this process ends, SIGKILL included and at any moment, the group is killed or never
 * ran (see the gate above). `options.stdio` is given as an array of up to three entries; fd 3 is
 * the gate's. A program that cannot be found or run is spawned as it is, so `spawn` reports it
 * as before (nothing starts). Where there are no process groups (Windows), a plain spawn.
 */
export function spawnSupervised(
  command: string,
  args: readonly string[],
  options: SpawnOptions & { stdio: ["pipe" | "ignore", "pipe" | "ignore", "pipe" | "ignore"] },
): SupervisedChild {
  if (!SUPPORTED || !runnable(command, options)) {
    const child = spawn(command, args, { ...options, detached: SUPPORTED });
    const release = child.pid !== undefined ? superviseProcessGroup(child.pid) : () => {};
    return { child, release };
  }
  // the reaper first, so the registration after the spawn is a single write
  startProcessGroupReaper();
  const child = spawn("/bin/sh", ["-c", GATE, command, ...args], {
    ...options,
    detached: true,
    stdio: [...options.stdio, "pipe"],
  });
  const gate = child.stdio[3] as NodeJS.WritableStream & { on(e: "error", f: () => void): unknown };
  gate.on("error", () => {}); // a child that died at the gate
  if (child.pid === undefined) return { child, release: () => {} };
  const release = superviseProcessGroup(child.pid, () => gate.end("go\n"));
  return { child, release };
}
