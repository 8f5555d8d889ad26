import { type ChildProcess, spawn } from "node:child_process";

/**
 * The reaper: one small `/bin/sh` per server process, in its own session, reading lines from a
 * pipe only the server holds. `+ <pgid>` watches a process group, `- <pgid>` forgets it. When the
 * pipe closes (the server exited or was killed, SIGKILL included) it kills every group it still
 * watches with SIGKILL. `setpriv --pdeathsig` would reach only direct children; this reaches
 * whole groups (background jobs, grandchildren).
 */
const REAPER_SCRIPT = `trap '' HUP INT PIPE
g=' '
while read -r op id; do
  case $op in
    +) g="$g$id ";;
    -) case $g in *" $id "*) g="\${g%% $id *} \${g#* $id }";; esac;;
  esac
done
for id in $g; do kill -9 "-$id" 2>/dev/null; done
`;

/** How often a released group that still has members is checked for being empty. */
const LINGER_CHECK_MS = 1_000;

const SUPPORTED = process.platform !== "win32";

let reaper: ChildProcess | undefined;
let warned = false;
/** Groups the reaper watches (sent `+`, not yet `-`). */
const watched = new Set<number>();
/** Released groups whose leader is gone but which still have members. */
const lingering = new Set<number>();
let lingerTimer: NodeJS.Timeout | undefined;

/** Writes a line to the reaper; `written` runs once the line is in the pipe (or cannot be). */
function send(line: string, written?: () => void): void {
  const stdin = ensureReaper()?.stdin;
  if (!stdin || stdin.destroyed) {
    written?.();
    return;
  }
  stdin.write(`${line}\n`, () => written?.());
}

function ensureReaper(): ChildProcess | undefined {
  if (reaper && reaper.exitCode === null && reaper.signalCode === null) return reaper;
  try {
    const child = spawn("/bin/sh", ["-c", REAPER_SCRIPT], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
    child.on("error", (error) => reaperLost(child, error.message));
    child.on("exit", () => reaperLost(child, "it exited"));
    child.stdin?.on("error", () => {});
    // the reaper never keeps this process alive
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    reaper = child;
    // a new reaper learns the groups the lost one watched
    for (const pgid of watched) child.stdin?.write(`+ ${pgid}\n`);
    return child;
  } catch (error) {
    reaperLost(undefined, (error as Error).message);
    return undefined;
  }
}

function reaperLost(child: ChildProcess | undefined, why: string): void {
  if (child && child !== reaper) return;
  reaper = undefined;
  if (!warned && watched.size > 0) {
    warned = true;
    process.stderr.write(
      `clawtools: the process-group reaper stopped (${why}); a new one starts with the next process\n`,
    );
  }
}

/** Whether a process group still has members (EPERM: the id belongs to someone else now). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function forget(pgid: number): void {
  lingering.delete(pgid);
  if (watched.delete(pgid)) send(`- ${pgid}`);
  if (lingering.size === 0 && lingerTimer) {
    clearInterval(lingerTimer);
    lingerTimer = undefined;
  }
}

function checkLingering(): void {
  for (const pgid of lingering) if (!groupAlive(pgid)) forget(pgid);
}

/**
 * Ties a process group (a child spawned with `detached: true`, or a PTY's session, whose id is
 * the child's pid) to this process: however this process ends, SIGKILL included, the whole
 * group is killed. Call the returned `release` once the group's leader has exited: the group
 * stays watched while any member is left (background jobs), then is forgotten, so its id is never
 * signalled after it could be reused. A no-op where there are no process groups (Windows).
 * `registered` runs once the reaper's pipe holds the group (see `spawnSupervised`, which holds
 * the child until then).
 */
export function superviseProcessGroup(pgid: number, registered?: () => void): () => void {
  if (!SUPPORTED || !Number.isInteger(pgid) || pgid <= 1) {
    registered?.();
    return () => {};
  }
  if (!watched.has(pgid)) {
    watched.add(pgid);
    send(`+ ${pgid}`, registered);
  } else registered?.();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (!watched.has(pgid)) return;
    if (!groupAlive(pgid)) return forget(pgid);
    lingering.add(pgid);
    if (!lingerTimer) {
      // a raw unref'd interval: a process-wide poll of OS process groups, not a wait anything awaits
      lingerTimer = setInterval(checkLingering, LINGER_CHECK_MS);
      lingerTimer.unref();
    }
  };
}

/**
 * Starts the reaper now (it otherwise starts with the first supervised group), so that a group
 * spawned next is registered with one write rather than after the reaper's own spawn.
 */
export function startProcessGroupReaper(): void {
  if (SUPPORTED) ensureReaper();
}

/** The groups currently watched (for diagnostics and tests). */
export function supervisedProcessGroups(): number[] {
  return [...watched];
}

/** The reaper's pid, once one runs (for diagnostics and tests). */
export function processGroupReaperPid(): number | undefined {
  return reaper?.pid;
}
