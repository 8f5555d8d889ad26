import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findOpenclawReference, runOpenclawReference } from "@clawtools/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadTool } from "../src/index.js";
import { text } from "./helpers.js";

// read beside OpenClaw 9.6's read on what a model types that is not quite the file's name
// (straight for curly apostrophes, a plain space for the screenshot's narrow one, NFC for NFD)
// and on a cursor between the halves of an emoji: the same answer, or the same error.

const ref = findOpenclawReference();

const FILES: Record<string, string> = {
  "it\u2019s.txt": "hello\n",
  // one long line: the note's bytes come off the page, so the cursor lands earlier
  "long\u2019s.txt": "x".repeat(40_000),
  // 1000 lines of 101 bytes: cut by lines, a few less for the note
  "rows\u2019s.txt": Array.from({ length: 1000 }, (_, i) => `${"r".repeat(96)}${String(i).padStart(4, "0")}`)
    .join("\n")
    .concat("\n"),
  "Screenshot 2026-01-01 at 10.00.00\u202fAM.txt": "shot\n",
  ["n\u00e9e.txt".normalize("NFD")]: "nfd\n",
  "blank\u2019s.txt": "\n\n\n",
  "empty\u2019s.txt": "",
  "amb's.txt": "straight\n",
  "amb\u2019s.txt": "curly\n",
  "emoji.txt": "A\u{1F600}B\u{1F600}\nnext\n",
};

type Args = { path: string; offset?: number; limit?: number; cursor?: number };
const CASES: Array<{ name: string; args: Args }> = [
  { name: "straight apostrophe", args: { path: "it's.txt" } },
  { name: "through a dot-dot", args: { path: "sub/../it's.txt" } },
  { name: "long line under another name", args: { path: "long's.txt" } },
  { name: "its continuation", args: { path: "long's.txt", offset: 1, cursor: 32_000 } },
  { name: "rows under another name", args: { path: "rows's.txt" } },
  { name: "rows with a limit", args: { path: "rows's.txt", offset: 10, limit: 400 } },
  { name: "rows with a small limit", args: { path: "rows's.txt", limit: 5 } },
  { name: "offset past the end", args: { path: "rows's.txt", offset: 5000 } },
  { name: "screenshot space", args: { path: "Screenshot 2026-01-01 at 10.00.00 AM.txt" } },
  { name: "NFC for NFD", args: { path: "n\u00e9e.txt" } },
  { name: "blank lines", args: { path: "blank's.txt" } },
  { name: "empty", args: { path: "empty's.txt" } },
  { name: "two spellings exist", args: { path: "amb\u2018s.txt" } },
  { name: "exact name wins", args: { path: "amb's.txt" } },
  { name: "cursor before the emoji", args: { path: "emoji.txt", cursor: 1 } },
  { name: "cursor inside the emoji", args: { path: "emoji.txt", cursor: 2 } },
  { name: "cursor after the emoji", args: { path: "emoji.txt", cursor: 3 } },
  { name: "cursor inside the last emoji", args: { path: "emoji.txt", cursor: 5 } },
];

const OPENCLAW_SCRIPT = `
const { createReadTool } = await chunk("tools-", "function createReadTool(cwd, options)");
const { createOpenClawReadTool, resolveAdaptiveReadMaxBytes } = await chunk("agent-tools.read-", "function createOpenClawReadTool(");
const base = createReadTool(input.root, { maxBytes: resolveAdaptiveReadMaxBytes({}) });
const read = createOpenClawReadTool(base, { cwd: input.root });
const out = {};
for (const c of input.cases) {
  try {
    const r = await read.execute("c", c.args);
    out[c.name] = r.content.filter((b) => b.type === "text").map((b) => b.text).join("\\n");
  } catch (error) {
    out[c.name] = "error: " + error.message;
  }
}
reply(out);
`;

describe.skipIf("skip" in ref)(
  "read beside OpenClaw 9.6: other spellings of a name, cursors inside a character",
  () => {
    let root: string;
    let openclaw: Record<string, string>;

    beforeAll(async () => {
      root = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-read-names-")));
      for (const [name, body] of Object.entries(FILES)) writeFileSync(path.join(root, name), body);
      if ("skip" in ref) return;
      openclaw = await runOpenclawReference(ref, OPENCLAW_SCRIPT, { root, cases: CASES });
    }, 60_000);
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it.each(CASES)("$name: answers as OpenClaw's", async ({ name, args }) => {
      const read = createReadTool({ workspaceDir: root });
      const ours = await read.execute("c", args).then(text, (error: Error) => `error: ${error.message}`);
      const theirs = openclaw[name]!;
      expect(ours.slice(0, 200), name).toBe(theirs.slice(0, 200));
      expect(ours.slice(-200), name).toBe(theirs.slice(-200));
      expect(ours.length, name).toBe(theirs.length);
    });

    it("9.6's own strings, as its source words them", () => {
      expect(openclaw["straight apostrophe"]).toBe(
        "[Resolved filename: it's.txt -> it\u2019s.txt.]\nhello\n",
      );
      expect(openclaw["cursor inside the emoji"]).toBe(
        "error: Cursor 2 splits a UTF-16 surrogate pair; retry with cursor=1 or cursor=3.",
      );
      expect(openclaw["two spellings exist"]).toBe(
        "error: Read path is ambiguous: amb\u2018s.txt matches amb's.txt, amb\u2019s.txt.",
      );
    });
  },
);
