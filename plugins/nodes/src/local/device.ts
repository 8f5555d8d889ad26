import { readdir, readFile, statfs } from "node:fs/promises";
import os from "node:os";

/** What this machine is: OS, CPU, memory (all read from the kernel, nothing invented). */
export function deviceInfo() {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    platform: process.platform,
    os: { type: os.type(), release: os.release(), version: os.version() },
    arch: os.arch(),
    cpu: { model: cpus[0]?.model ?? "unknown", cores: cpus.length },
    memory: { totalBytes: os.totalmem() },
    node: process.version,
  };
}

async function battery(): Promise<Array<Record<string, unknown>> | null> {
  const dir = "/sys/class/power_supply";
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  const out: Array<Record<string, unknown>> = [];
  for (const name of names) {
    const read = (f: string) =>
      readFile(`${dir}/${name}/${f}`, "utf8")
        .then((s) => s.trim())
        .catch(() => undefined);
    if ((await read("type")) !== "Battery") continue;
    const capacity = await read("capacity");
    out.push({
      name,
      ...(capacity ? { percent: Number(capacity) } : {}),
      status: (await read("status")) ?? "unknown",
    });
  }
  return out.length > 0 ? out : null;
}

/** Live state: uptime, load, memory and disk use, battery where the kernel exposes one. */
export async function deviceStatus(diskPath = "/") {
  const fsStat = await statfs(diskPath).catch(() => undefined);
  const bat = await battery();
  return {
    uptimeSeconds: Math.round(os.uptime()),
    loadAverage: os.loadavg(),
    memory: { totalBytes: os.totalmem(), freeBytes: os.freemem() },
    ...(fsStat
      ? {
          disk: {
            path: diskPath,
            totalBytes: fsStat.blocks * fsStat.bsize,
            freeBytes: fsStat.bavail * fsStat.bsize,
          },
        }
      : {}),
    battery: bat ?? "not present",
  };
}

/** A health verdict from the same readings, with the reasons. */
export async function deviceHealth(diskPath = "/") {
  const status = await deviceStatus(diskPath);
  const problems: string[] = [];
  const cores = Math.max(1, os.cpus().length);
  if (status.loadAverage[0]! > cores * 2)
    problems.push(`load ${status.loadAverage[0]!.toFixed(2)} over twice the ${cores} cores`);
  if (status.memory.freeBytes / status.memory.totalBytes < 0.05) problems.push("less than 5% memory free");
  if (status.disk && status.disk.freeBytes / status.disk.totalBytes < 0.05)
    problems.push(`less than 5% disk free on ${diskPath}`);
  return { ok: problems.length === 0, problems, ...status };
}
