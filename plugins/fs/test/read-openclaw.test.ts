import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findOpenclawReference, runOpenclawReference } from "@clawtools/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadTool } from "../src/index.js";
import { text } from "./helpers.js";

// read side by side with OpenClaw 9.6's own read tool (its session read tool wrapped as its agents
// get it, no model context window known) on the same files: every call of a model that does
// exactly what each answer's notice says, until the file is read.

const ref = findOpenclawReference();
const numbered = (n: number, body: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => body(i + 1)).join("\n");

const FILES: Record<string, string> = {
  // the issue's case: 3,000 lines, 28.9 KB, whole in one call
  "three-thousand.txt": `${numbered(3000, (i) => `line ${i}`)}\n`,
  // 100 KB of 100-character lines: 32 KB a call
  "hundred-kb.txt": `${numbered(1000, (i) => `${"x".repeat(96)}${String(i).padStart(4, "0")}`)}\n`,
  // one 80 KB line: continued by cursor inside it
  "one-line.txt": `${"a".repeat(40 * 1024)}${"b".repeat(40 * 1024)}\nshort\n`,
  // short lines past four pages of 2000
  "ten-thousand.txt": numbered(10_000, (i) => `${i}`),
  "two-thousand.txt": `${numbered(2000, (i) => `row ${i}`)}\n`,
  "no-final-newline.txt": numbered(2500, (i) => `entry ${i}`),
  // a line just over the budget, then a little more: the rest fits the same call
  "just-over.txt": `${"c".repeat(32_700)}\ntail\n`,
  "wide-unicode.txt": `${numbered(400, (i) => `${"日本語のテキスト".repeat(8)} ${i}`)}\n`,
  "long-unicode-line.txt": `${"é".repeat(50_000)}\n`,
  "blank.txt": "\n\n\n",
  "mixed.txt": `${numbered(50, (i) => `short ${i}`)}\n${"z".repeat(70_000)}\n${numbered(50, (i) => `after ${i}`)}\n`,
};

type Args = { path: string; offset?: number; limit?: number; cursor?: number };
const CASES: Array<{ name: string; args: Args }> = [
  ...Object.keys(FILES).map((file) => ({ name: file, args: { path: file } })),
  { name: "limit 5", args: { path: "hundred-kb.txt", limit: 5 } },
  { name: "limit 3000 of short lines", args: { path: "ten-thousand.txt", limit: 3000 } },
  { name: "offset and limit", args: { path: "three-thousand.txt", offset: 2990, limit: 20 } },
  { name: "limit over the budget", args: { path: "hundred-kb.txt", offset: 10, limit: 400 } },
  { name: "limit inside a long line", args: { path: "one-line.txt", limit: 1 } },
  { name: "offset near the end", args: { path: "no-final-newline.txt", offset: 2400 } },
];

/** The next call a result's notice asks for, if any. */
function nextCall(file: string, answer: string): Args | undefined {
  const m = /Use (?:read with )?offset=(\d+)(?:, cursor=(\d+))?(?:, limit=(\d+))? to continue\.\]$/.exec(
    answer,
  );
  if (!m) return undefined;
  return {
    path: file,
    offset: Number(m[1]),
    ...(m[2] ? { cursor: Number(m[2]) } : {}),
    ...(m[3] ? { limit: Number(m[3]) } : {}),
  };
}

const MAX_CALLS = 12;

const OPENCLAW_SCRIPT = `
const { createReadTool } = await chunk("tools-", "function createReadTool(cwd, options)");
const { createOpenClawReadTool, resolveAdaptiveReadMaxBytes } = await chunk("agent-tools.read-", "function createOpenClawReadTool(");
const base = createReadTool(input.root, { maxBytes: resolveAdaptiveReadMaxBytes({}) });
const read = createOpenClawReadTool(base, { cwd: input.root });
const out = {};
for (const c of input.cases) {
  const texts = [];
  let args = c.args;
  while (args && texts.length < ${MAX_CALLS}) {
    const r = await read.execute("c", args);
    const t = r.content.filter((b) => b.type === "text").map((b) => b.text).join("\\n");
    texts.push(t);
    const m = /Use (?:read with )?offset=(\\d+)(?:, cursor=(\\d+))?(?:, limit=(\\d+))? to continue\\.\\]$/.exec(t);
    args = m ? { path: c.args.path, offset: Number(m[1]), ...(m[2] ? { cursor: Number(m[2]) } : {}), ...(m[3] ? { limit: Number(m[3]) } : {}) } : undefined;
  }
  out[c.name] = texts;
}
reply(out);
`;

describe.skipIf("skip" in ref)("read beside OpenClaw 9.6's read on the same files", () => {
  let root: string;
  let openclaw: Record<string, string[]>;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-read-openclaw-")));
    for (const [name, body] of Object.entries(FILES)) writeFileSync(path.join(root, name), body);
    if ("skip" in ref) return;
    openclaw = await runOpenclawReference(ref, OPENCLAW_SCRIPT, { root, cases: CASES });
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each(CASES)("$name: every call answers as OpenClaw's", async ({ name, args }) => {
    const read = createReadTool({ workspaceDir: root });
    const ours: string[] = [];
    let call: Args | undefined = args;
    while (call && ours.length < MAX_CALLS) {
      const answer = text(await read.execute("c", call));
      ours.push(answer);
      call = nextCall(args.path, answer);
    }
    const theirs = openclaw[name]!;
    expect(ours.length).toBe(theirs.length);
    for (let i = 0; i < ours.length; i++) {
      // the notice first (a readable diff), then the whole answer
      expect(ours[i]!.slice(-160), `${name}: call ${i + 1}`).toBe(theirs[i]!.slice(-160));
      if (ours[i] !== theirs[i]) {
        let at = 0;
        while (ours[i]![at] === theirs[i]![at]) at++;
        expect(ours[i]!.slice(at, at + 80), `${name}: call ${i + 1} differs at ${at}`).toBe(
          theirs[i]!.slice(at, at + 80),
        );
      }
    }
  });
});
