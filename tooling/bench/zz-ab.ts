// temporary: A/B of spawn → first result with an env toggle, interleaved (not committed)
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RpcChild } from "./src/rpc-child.ts";
const bin = process.env.BIN ?? "/work/wt/perf/apps/cli/dist/bin.js";
const ws = mkdtempSync(path.join(tmpdir(), "zzab-"));
mkdirSync(path.join(ws, "src"));
for (let i = 0; i < 40; i++)
  writeFileSync(path.join(ws, "src", `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(20));
writeFileSync(path.join(ws, "notes.txt"), "line\n".repeat(200));
const tool = process.env.TOOL ?? "exec";
const args = tool === "exec" ? { command: "echo hi" } : { path: "notes.txt" };
const toggle = process.env.TOGGLE!;
async function first(env: Record<string, string>) {
  const t0 = performance.now();
  const c = RpcChild.spawn([bin, "serve", "--profile", "coding", "--workspace", ws], { env });
  await c.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "b", version: "1" },
  });
  const t1 = performance.now();
  c.notify("notifications/initialized");
  await c.request("tools/list");
  await c.call(tool, args);
  const t3 = performance.now();
  const cpu = c.cpuMs();
  await c.stop();
  return [t1 - t0, t3 - t1, t3 - t0, cpu];
}
const A: number[][] = [],
  B: number[][] = [];
for (let i = 0; i < Number(process.env.N ?? 20); i++) {
  if (i % 2) {
    A.push(await first({}));
    B.push(await first({ [toggle]: "1" }));
  } else {
    B.push(await first({ [toggle]: "1" }));
    A.push(await first({}));
  }
}
const med = (rows: number[][], k: number) => rows.map((r) => r[k]!).sort((x, y) => x - y)[rows.length >> 1]!;
for (const [n, r] of [
  ["off", A],
  [`${toggle}`, B],
] as const)
  console.log(
    `${n.padEnd(8)} init ${med(r, 0).toFixed(1)} rest ${med(r, 1).toFixed(1)} total ${med(r, 2).toFixed(1)} cpu(10ms ticks) ${med(r, 3)}`,
  );
