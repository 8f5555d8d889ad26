import fs from "node:fs";

/** Whether a process exists and is not a zombie waiting for a parent that will never reap it. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!fs.existsSync("/proc/self/stat")) return true; // no /proc: the signal check is all there is
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false; // gone between the two checks
  }
}

/** Resolves once `pid` is gone (a SIGKILLed process still needs a moment to die); the test's timeout bounds it. */
export async function gone(pid: number): Promise<boolean> {
  while (isAlive(pid)) await new Promise((r) => setTimeout(r, 10));
  return true;
}
