/**
 * Quick local measure of a warm `read` (issue 29): clawtools (the tool alone and through a
 * toolset's wrap pipeline) against pi on a 200-line and a 6-byte file, interleaved so load hits
 * every side alike. Not a bench row: run it by hand when touching the read path.
 *   pnpm --filter @clawtools/bench exec node --conditions=@clawtools/source --import tsx src/fs-read-warm.ts
 */
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolset } from "@clawtools/core";
import { createReadTool, fsPlugin } from "@clawtools/fs";
import { createReadTool as piRead } from "@mariozechner/pi-coding-agent";

const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "warm-read-")));
const lines = Array.from(
  { length: 200 },
  (_, i) => `line ${i + 1}: ${"lorem ipsum dolor sit amet ".repeat(2)}`,
);
writeFileSync(path.join(dir, "f200.txt"), `${lines.join("\n")}\n`);
writeFileSync(path.join(dir, "tiny.txt"), "hello\n");
const ours = createReadTool({ workspaceDir: dir });
const wrapped = createToolset({
  plugins: [fsPlugin],
  context: { workspaceDir: dir },
  policy: { profile: "coding" },
}).tools.find((t) => t.name === "read")!;
const pi = piRead(dir);

type Variant = [string, () => Promise<unknown>];

/** Interleaved rounds, so a burst of load hits every variant alike; min and median per call. */
async function compare(variants: Variant[], rounds = Number(process.env.ROUNDS ?? 30), per = 100) {
  const wall = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  for (const [, fn] of variants) for (let i = 0; i < 200; i++) await fn();
  for (let r = 0; r < rounds; r++) {
    for (const [label, fn] of variants) {
      const t0 = process.hrtime.bigint();
      const c0 = process.cpuUsage();
      for (let i = 0; i < per; i++) await fn();
      const c = process.cpuUsage(c0);
      (wall.get(label) ?? wall.set(label, []).get(label)!).push(
        Number(process.hrtime.bigint() - t0) / 1e6 / per,
      );
      (cpu.get(label) ?? cpu.set(label, []).get(label)!).push((c.user + c.system) / 1000 / per);
    }
  }
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `min ${s[0]!.toFixed(3)} p25 ${s[Math.floor(s.length / 4)]!.toFixed(3)} median ${s[Math.floor(s.length / 2)]!.toFixed(3)}`;
  };
  for (const [label] of variants)
    console.log(`${label.padEnd(36)} wall ${stats(wall.get(label)!)} | cpu ${stats(cpu.get(label)!)} ms`);
}

for (const file of ["f200.txt", "tiny.txt"]) {
  await compare([
    [`pi read ${file}`, () => pi.execute("c", { path: file })],
    [`clawtools read ${file}`, () => ours.execute("c", { path: file })],
    [`clawtools read (toolset) ${file}`, () => wrapped.execute("c", { path: file })],
  ]);
}
