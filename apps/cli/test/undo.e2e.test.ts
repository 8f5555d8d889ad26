// The undo journal and the exact-bytes edits as a user meets them: the built CLI, one process per
// call, real files, `clawtools undo` reading the journal the calls wrote.
import { execFileSync, spawnSync } from "node:child_process";
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, ensureBuilt, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

const dirs: string[] = [];
const temp = () => {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-undo-")));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
beforeAll(() => ensureBuilt(), BUILD_TIMEOUT_MS);

const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** Every path with its bytes, mode and link target. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(root).sort()) {
    const abs = path.join(root, name);
    const st = lstatSync(abs);
    out[name] = st.isSymbolicLink()
      ? `link:${readlinkSync(abs)}`
      : `file:${(st.mode & 0o777).toString(8)}:${readFileSync(abs).toString("base64")}`;
  }
  return out;
}

describe("clawtools undo over calls of the built CLI", () => {
  it("journals write, apply_patch, edit and exec; --to restores byte for byte, --dry-run changes nothing, redo puts back, a hand edit refuses", () => {
    const ws = temp();
    const state = temp();
    writeFileSync(path.join(ws, "c.txt"), "to be removed\n");
    const call = (tool: string, args: unknown) =>
      cli([
        "call",
        tool,
        "--workspace",
        ws,
        "--state-dir",
        state,
        "--provider",
        "openai",
        "--args",
        JSON.stringify(args),
      ]);
    expect(call("write", { path: "a.txt", content: "one\r\ntwo\r\n" }).code).toBe(0);
    const afterWrite = snapshot(ws);
    const patched = call("apply_patch", {
      input: "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n+one and a half\n two\n*** End Patch",
    });
    expect(patched.code).toBe(0);
    // a patch on a CRLF file writes its new line with CRLF
    expect(readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("one\r\none and a half\r\ntwo\r\n");
    expect(call("edit", { path: "a.txt", oldText: "two", newText: "TWO" }).code).toBe(0);
    const afterEdit = snapshot(ws);
    const ran = call("exec", {
      command: "sed -i 's/one/ONE/' a.txt && mv a.txt b.txt && ln -s b.txt l && chmod 700 b.txt && rm c.txt",
    });
    expect(ran.code, ran.err).toBe(0);
    const final = snapshot(ws);

    const list = cli(["undo", "--workspace", ws, "--state-dir", state, "--list"]);
    expect(list.code, list.err).toBe(0);
    const entries = list.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; tool: string; files: string[] });
    expect(entries.map((e) => [e.tool, e.files.sort()])).toEqual([
      ["write", ["a.txt"]],
      ["apply_patch", ["a.txt"]],
      ["edit", ["a.txt"]],
      ["exec", ["a.txt", "b.txt", "c.txt", "l"]],
    ]);
    const [, patchCall, , execCall] = entries;

    const dry = cli(["undo", "--workspace", ws, "--state-dir", state, "--to", execCall!.id, "--dry-run"]);
    expect(dry.code, dry.err).toBe(0);
    expect(
      dry.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).path)
        .sort(),
    ).toEqual(["a.txt", "b.txt", "c.txt", "l"]);
    expect(snapshot(ws)).toEqual(final);

    expect(cli(["undo", "--workspace", ws, "--state-dir", state, "--to", execCall!.id]).code).toBe(0);
    expect(snapshot(ws)).toEqual(afterEdit);
    expect(cli(["undo", "--workspace", ws, "--state-dir", state, "--to", patchCall!.id]).code).toBe(0);
    expect(snapshot(ws)).toEqual(afterWrite);
    expect(cli(["undo", "--workspace", ws, "--state-dir", state, "--redo"]).code).toBe(0);
    expect(snapshot(ws)).toEqual(afterEdit);
    expect(cli(["undo", "--workspace", ws, "--state-dir", state, "--redo"]).code).toBe(0);
    expect(snapshot(ws)).toEqual(final);

    writeFileSync(path.join(ws, "b.txt"), "changed by hand\n");
    const refused = cli(["undo", "--workspace", ws, "--state-dir", state, "--to", patchCall!.id]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^clawtools: b\.txt changed outside the journal/);
    expect(readFileSync(path.join(ws, "b.txt"), "utf8")).toBe("changed by hand\n");
    expect(execFileSync("ls", [ws], { encoding: "utf8" }).split("\n").filter(Boolean)).toEqual([
      "b.txt",
      "l",
    ]);
  });

  it("an empty patch is an error through the CLI, as in Codex and OpenClaw", () => {
    const ws = temp();
    const r = cli([
      "call",
      "apply_patch",
      "--workspace",
      ws,
      "--state-dir",
      temp(),
      "--provider",
      "openai",
      "--args",
      JSON.stringify({ input: "*** Begin Patch\n*** End Patch" }),
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("No files were modified.");
  });

  it("a background command is journalled when it ends, apart from the edit made while it ran; the undo tool undoes it over MCP", async () => {
    const ws = temp();
    const state = temp();
    writeFileSync(path.join(ws, "kept.txt"), "alpha\n");
    const { client, transport } = await connectCli([
      "serve",
      "--workspace",
      ws,
      "--state-dir",
      state,
      "--owner",
    ]);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = await client.callTool({ name, arguments: args });
        expect(r.isError, text(r)).toBeFalsy();
        return text(r);
      };
      // the command outlives its call: it waits for a go file, then writes
      const started = await call("exec", {
        command: "while [ ! -f go ]; do sleep 0.05; done; rm go; printf 'from the background\\n' > bg.txt",
        background: true,
      });
      const sessionId = /session (\S+),/.exec(started)![1]!;
      // an edit while it runs is the edit's own call, never the command's
      await call("edit", { path: "kept.txt", oldText: "alpha", newText: "beta" });
      writeFileSync(path.join(ws, "go"), "");
      // as a host model would: poll the process the result named until it has exited
      let polled = "";
      for (let i = 0; i < 100 && !/exited|completed|failed/i.test(polled); i++)
        polled = await call("process", { action: "poll", sessionId, timeout: 200 });
      expect(readFileSync(path.join(ws, "bg.txt"), "utf8")).toBe("from the background\n");
      let listed: Array<{ id: string; tool: string; files: string[] }> = [];
      for (let i = 0; i < 50 && listed.length < 2; i++) {
        const out = await call("undo", { action: "list" });
        listed = out.startsWith("{") ? out.split("\n").map((l) => JSON.parse(l)) : [];
      }
      // the go file came and went while the command ran: no change of the command's
      expect(listed.map((e) => [e.tool, e.files.sort()])).toEqual([
        ["edit", ["kept.txt"]],
        ["exec", ["bg.txt"]],
      ]);
      const execEntry = listed.find((e) => e.tool === "exec")!;
      expect(await call("undo", { action: "undo", id: execEntry.id })).toMatch(/^Restored/);
      expect(readdirSync(ws).sort()).toEqual(["kept.txt"]);
      expect(readFileSync(path.join(ws, "kept.txt"), "utf8")).toBe("beta\n");
    } finally {
      await transport.close();
    }
  });

  it("a default start (no --owner) leaves the owner-only undo tool out without warning that the profile names an unknown tool", async () => {
    const { client, transport, stderr } = await connectCli([
      "serve",
      "--workspace",
      temp(),
      "--state-dir",
      temp(),
    ]);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("edit");
      expect(names).not.toContain("undo");
      expect(stderr()).not.toMatch(/allowlist contains unknown entries/);
    } finally {
      await transport.close();
    }
  });
});
