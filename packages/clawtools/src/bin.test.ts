import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";

// these tests start Node under tsx: 10 s and more each on a loaded CI machine
vi.setConfig({ testTimeout: 90_000 });

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;
const scratch = mkdtempSync(path.join(tmpdir(), "clawtools-bin-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A project with the umbrella installed (its bin and package.json) and no @clawtools/cli. */
function project(name: string): { bin: string; dir: string } {
  const dir = path.join(scratch, name);
  const pkg = path.join(dir, "node_modules", "clawtools");
  mkdirSync(path.join(pkg, "src"), { recursive: true });
  writeFileSync(
    path.join(pkg, "package.json"),
    JSON.stringify({ name: "clawtools", version: "9.8.7", type: "module" }),
  );
  copyFileSync(path.join(here, "bin.ts"), path.join(pkg, "src", "bin.ts"));
  return { bin: path.join(pkg, "src", "bin.ts"), dir };
}

function run(bin: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ["--import", tsx, bin, ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe("the clawtools bin", () => {
  it("without @clawtools/cli installed, has npm fetch the CLI of its own version and passes on its exit code", async () => {
    const { bin, dir } = project("fetch");
    const fakeBin = path.join(dir, "fake-bin");
    mkdirSync(fakeBin);
    // an npm that reports how it was called and exits 3, so the exit code is seen to pass through
    const npm = path.join(fakeBin, "npm");
    writeFileSync(npm, `#!/bin/sh\necho "$CLAWTOOLS_CLI_FETCHED $*"\nexit 3\n`);
    chmodSync(npm, 0o755);
    const result = await run(bin, ["list", "--json"], {
      ...process.env,
      PATH: `${fakeBin}${path.delimiter}${process.env.PATH}`,
      CLAWTOOLS_CLI_FETCHED: "",
    });
    expect(result.stdout.trim()).toBe("1 exec --yes --package=@clawtools/cli@9.8.7 -- clawtools list --json");
    expect(result.code).toBe(3);
  });

  it("refuses in words, instead of fetching again, when the fetched CLI still cannot be found", async () => {
    const { bin } = project("loop");
    const result = await run(bin, ["list"], { ...process.env, CLAWTOOLS_CLI_FETCHED: "1" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the clawtools command is in @clawtools/cli, which is not installed");
  });

  it("runs an installed @clawtools/cli in its own process", async () => {
    const { bin, dir } = project("installed");
    const cli = path.join(dir, "node_modules", "@clawtools", "cli");
    mkdirSync(cli, { recursive: true });
    writeFileSync(
      path.join(cli, "package.json"),
      JSON.stringify({ name: "@clawtools/cli", type: "module", exports: { "./bin": "./bin.js" } }),
    );
    writeFileSync(
      path.join(cli, "bin.js"),
      'process.stdout.write("cli " + process.argv.slice(2).join(" "));\n',
    );
    const result = await run(bin, ["list"], {
      ...process.env,
      PATH: "/nonexistent",
      CLAWTOOLS_CLI_FETCHED: "",
    });
    expect(result).toMatchObject({ code: 0, stdout: "cli list" });
  });
});
