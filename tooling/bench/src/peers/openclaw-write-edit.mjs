// Run by the journal suite under Node 24 (OpenClaw 9.6 needs it): OpenClaw's host workspace write
// and edit tools beside clawtools' built fs section, taking turns call by call in this one process.
// Prints one JSON line of p50 times in ms.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { open, readFile, rename } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { timeInTurns } from "../harness.ts";

const dist = process.env.OPENCLAW_DIST;
const dir = process.env.BENCH_DIR;
const here = path.dirname(fileURLToPath(import.meta.url));
const fsDist = path.resolve(here, "../../../../plugins/fs/dist/index.js");

// the module of 9.6's dist that makes the host workspace's write and edit tools, as OpenClaw
// serves them (its file name carries a content hash)
const toolsFile = readdirSync(dist).find(
  (f) =>
    /^agent-tools\..*\.mjs$/.test(f) &&
    /createHostWorkspaceEditTool as \w+/.test(readFileSync(path.join(dist, f), "utf8")),
);
const exportsOf = readFileSync(path.join(dist, toolsFile), "utf8");
const alias = (name) => new RegExp(`${name} as (\\w+)`).exec(exportsOf)[1];
const openclaw = await import(pathToFileURL(path.join(dist, toolsFile)).href);
const clawtools = await import(pathToFileURL(fsDist).href);

const ocDir = path.join(dir, "openclaw");
const ctDir = path.join(dir, "clawtools");
mkdirSync(ocDir, { recursive: true });
mkdirSync(ctDir, { recursive: true });
const text = `${Array.from({ length: 200 }, (_, i) => `line ${i + 1}: ${"lorem ipsum ".repeat(4)}`).join("\n")}\n`;
for (const d of [ocDir, ctDir]) writeFileSync(path.join(d, "edit.txt"), text);

const oc = {
  write: openclaw[alias("createHostWorkspaceWriteTool")](ocDir),
  edit: openclaw[alias("createHostWorkspaceEditTool")](ocDir),
};
const ctx = { workspaceDir: ctDir, stateDir: path.join(dir, "state"), sessionKey: "bench" };
const ct = {
  write: clawtools.createWriteTool(ctx),
  edit: clawtools.createEditTool(ctx),
  read: clawtools.createReadTool(ctx),
};
await ct.read.execute("r", { path: "edit.txt" });

const content = "x".repeat(2047) + "\n";
const flip = { oc: false, ct: false };
const flipEdit = (side) => {
  flip[side] = !flip[side];
  const [a, b] = flip[side] ? ["line 100:", "LINE 100:"] : ["LINE 100:", "line 100:"];
  return side === "oc"
    ? oc.edit.execute("e", { path: "edit.txt", edits: [{ oldText: a, newText: b }] })
    : ct.edit.execute("e", { path: "edit.txt", oldText: a, newText: b });
};
// the physical limit of a crash-safe replace, and the same without its fsync (never done by the
// product; here only to show how much of a write's time is the flush itself)
const rawDir = path.join(dir, "raw");
mkdirSync(rawDir, { recursive: true });
writeFileSync(path.join(rawDir, "edit.txt"), text);
let rawFlip = false;
const atomic = async (name, data, sync) => {
  const tmp = path.join(rawDir, `.${name}.tmp`);
  const handle = await open(tmp, "w");
  await handle.writeFile(data);
  if (sync) await handle.sync();
  await handle.close();
  await rename(tmp, path.join(rawDir, name));
};
const rawEdit = async (sync) => {
  rawFlip = !rawFlip;
  const [a, b] = rawFlip ? ["line 100:", "LINE 100:"] : ["LINE 100:", "line 100:"];
  const now = await readFile(path.join(rawDir, "edit.txt"), "utf8");
  await atomic("edit.txt", now.replace(a, b), sync);
};

const variants = {
  rawWrite: () => atomic("w.txt", content, true),
  rawWriteNoSync: () => atomic("w.txt", content, false),
  rawEdit: () => rawEdit(true),
  rawEditNoSync: () => rawEdit(false),
  openclawWrite: () => oc.write.execute("w", { path: "w.txt", content }),
  clawtoolsWrite: () => ct.write.execute("w", { path: "w.txt", content }),
  openclawEdit: () => flipEdit("oc"),
  clawtoolsEdit: () => flipEdit("ct"),
};

// the harness's own turn-taking (Node 24 strips the types of harness.ts); p50 of each, in ms
const p50 = await timeInTurns(variants, 300, 30);
console.log(JSON.stringify(p50));
