import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stageUploads, sweepStaleUploads } from "./files.js";

describe("staged uploads", () => {
  it("sweeps the staging directories of processes that are gone, keeps live ones", async () => {
    const state = mkdtempSync(path.join(tmpdir(), "ui-files-"));
    const root = path.join(state, "browser", "uploads");
    // a pid that existed and exited: its process is certainly gone
    const dead = spawnSync(process.execPath, [
      "-e",
      "process.stdout.write(String(process.pid))",
    ]).stdout.toString();
    for (const name of [`${dead}-aaaa`, `${process.pid}-bbbb`, `${process.ppid}-cccc`, "not-a-pid"]) {
      mkdirSync(path.join(root, name, "0"), { recursive: true });
      writeFileSync(path.join(root, name, "0", "f.txt"), "x");
    }
    await sweepStaleUploads(state);
    expect(readdirSync(root).sort()).toEqual(
      [`${process.pid}-bbbb`, `${process.ppid}-cccc`, "not-a-pid"].sort(),
    );
  });

  it("leaves no staging directory behind when a path is refused", async () => {
    const state = mkdtempSync(path.join(tmpdir(), "ui-files-"));
    const workspace = mkdtempSync(path.join(tmpdir(), "ui-ws-"));
    writeFileSync(path.join(workspace, "ok.txt"), "ok");
    await expect(stageUploads(workspace, state, ["ok.txt", "../escape.txt"])).rejects.toThrow(
      "Path escapes sandbox root",
    );
    expect(readdirSync(path.join(state, "browser", "uploads"))).toEqual([]);
    const staged = await stageUploads(workspace, state, ["ok.txt"]);
    expect(path.basename(staged.dir)).toMatch(new RegExp(`^${process.pid}-[0-9a-f]{12}$`));
    expect(staged.files.map((f) => path.basename(f))).toEqual(["ok.txt"]);
  });
});
