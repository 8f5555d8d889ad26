/**
 * A TypeScript user's first compile: every packed package installed from its tarball into a
 * fresh project with npm, one file importing every published entry point, type-checked with
 * `strict` and `skipLibCheck: false` under NodeNext and under Bundler resolution; and the
 * spec/002 samples (`register`, `registerFactory`, `onUpdate`) compiled the same way and run.
 * Needs `pnpm build` first (the tarballs ship dist/).
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npm, packAll, Scratch } from "../src/tarballs.js";
import { publishablePackages, root, run } from "../src/workspace.js";

const packages = publishablePackages();
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
const scratch = new Scratch();
const SAMPLES = "spec-002-samples.ts";
let project: string;

/**
 * Every module specifier a user can write: each package's exports except its JSON data files
 * (./package.json, the umbrella's clawtools.schema.json: named in `$schema`, not imported as code).
 */
function entryPoints(): string[] {
  return packages.flatMap(({ manifest }) =>
    Object.keys(manifest.exports ?? { ".": "" })
      .filter((key) => !key.endsWith(".json"))
      .map((key) => manifest.name + key.slice(1)),
  );
}

/**
 * Third-party declarations that fail under skipLibCheck false whatever clawtools does, pulled in
 * by the ai-sdk and models adapters: @ai-sdk/provider imports `json-schema` without depending on
 * its types; @anthropic-ai/sdk names undici-types by a relative path into its own build tree;
 * @google/genai 2.x (through @earendil-works/pi-ai, runner-pi-core's loop) fails under it as well.
 */
const KNOWN_THIRD_PARTY = ["@ai-sdk/provider", "@anthropic-ai/sdk", "@google/genai"];

/** The package a diagnostic's file belongs to (`consumer` for the project's own files). */
function owner(line: string): string {
  const file = /^(.+?)\(\d+,\d+\): error/.exec(line)?.[1] ?? "";
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(file);
  return inModules ? inModules[1]! : "consumer";
}

const isOurs = (pkg: string) => pkg === "consumer" || pkg === "clawtools" || pkg.startsWith("@clawtools/");

/**
 * tsc's diagnostics for a project: those in clawtools' declarations or the consumer's files
 * (must be none), and the third-party packages that reported errors.
 */
async function typecheck(config: string): Promise<{ ours: string[]; thirdParty: string[] }> {
  let output = "";
  try {
    await run(process.execPath, [tsc, "-p", config], { cwd: project, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    output = `${stdout ?? ""}${stderr ?? ""}`.trim() || message;
  }
  const errors = output.split("\n").filter((line) => /\): error TS\d+/.test(line));
  // a failure that is no diagnostic (a bad tsconfig) counts as ours
  if (output && !errors.length) return { ours: [output], thirdParty: [] };
  const ours = errors.filter((line) => isOurs(owner(line)));
  const thirdParty = [...new Set(errors.map(owner).filter((pkg) => !isOurs(pkg)))].sort();
  return { ours, thirdParty };
}

async function expectCompiles(config: string): Promise<void> {
  const { ours, thirdParty } = await typecheck(config);
  expect(ours).toEqual([]);
  expect(KNOWN_THIRD_PARTY).toEqual(expect.arrayContaining(thirdParty));
}

beforeAll(async () => {
  const tarballs = await packAll(packages, scratch.dir("clawtools-types-tarballs-"));
  project = scratch.project("clawtools-types-", "types-consumer");
  // every tarball, so npm takes the workspace's packages from them and not the registry; the
  // native addons' build scripts are skipped (nothing here loads them). vitest (the testing kit's
  // peer) is pinned to the project's major: npm's newest wants @types/node 22+, which clashes with
  // a Node 20 consumer's types under the Node 24 npm
  await npm(
    ["install", "--ignore-scripts", ...tarballs.values(), "@types/node@^20.19.0", "vitest@^4.1.12"],
    project,
  );

  const specifiers = entryPoints();
  writeFileSync(
    path.join(project, "entries.ts"),
    [
      ...specifiers.map((s, i) => `import * as entry${i} from ${JSON.stringify(s)};`),
      `export const entries = [${specifiers.map((_, i) => `entry${i}`).join(", ")}];`,
      "",
    ].join("\n"),
  );
  copyFileSync(path.join(import.meta.dirname, "fixtures", SAMPLES), path.join(project, SAMPLES));
  const strict = { target: "ES2022", strict: true, skipLibCheck: false, types: ["node"] };
  const files = ["entries.ts", SAMPLES];
  writeFileSync(
    path.join(project, "tsconfig.nodenext.json"),
    JSON.stringify({
      compilerOptions: { ...strict, module: "NodeNext", moduleResolution: "NodeNext", outDir: "out" },
      files,
    }),
  );
  writeFileSync(
    path.join(project, "tsconfig.bundler.json"),
    JSON.stringify({
      compilerOptions: { ...strict, module: "ESNext", moduleResolution: "Bundler", noEmit: true },
      files,
    }),
  );
}, 900_000);

afterAll(() => scratch.removeAll(), 300_000);

describe("the published declarations", () => {
  it("inline no copy of a dependency's types (tsdown keeps every dependency external)", () => {
    const inlined: string[] = [];
    for (const { dir } of packages) {
      const dist = path.join(root, dir, "dist");
      for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
        if (!file.endsWith(".d.ts")) continue;
        const text = readFileSync(path.join(dist, file), "utf8");
        const region = /^\/\/#region .*node_modules\/(?:\.pnpm\/)?([^/]+)/m.exec(text);
        if (region) inlined.push(`${dir}/dist/${file} inlines ${region[1]}`);
      }
    }
    expect(inlined).toEqual([]);
  });

  it("compile for a consumer importing every entry point, strict, skipLibCheck false, under NodeNext", async () => {
    expect(entryPoints()).toEqual(expect.arrayContaining(["clawtools/tools", "@clawtools/core/providers"]));
    await expectCompiles("tsconfig.nodenext.json");
  }, 300_000);

  it("compile for the same consumer under Bundler resolution", async () => {
    await expectCompiles("tsconfig.bundler.json");
  }, 300_000);
});

describe("the spec/002 samples", () => {
  it("run as written: register and registerFactory tools answer, onUpdate prints the output once", async () => {
    // the NodeNext check emitted out/ (tsc emits despite third-party errors) unless it was skipped
    const compiled = path.join("out", SAMPLES.replace(/\.ts$/, ".js"));
    if (!existsSync(path.join(project, compiled))) await expectCompiles("tsconfig.nodenext.json");
    const { stdout } = await run(process.execPath, [compiled], {
      cwd: project,
      maxBuffer: 16 * 1024 * 1024,
    });
    const firstLine = stdout.indexOf("\n");
    const lastJson = stdout.lastIndexOf('{"result"');
    const { greeting, info } = JSON.parse(stdout.slice(0, firstLine)) as Record<
      string,
      { content: Array<{ text?: string }>; details?: unknown }
    >;
    expect(greeting!.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    expect(info!.content).toEqual([{ type: "text", text: project }]);
    // what the onUpdate callback wrote: each line once, in order
    expect(stdout.slice(firstLine + 1, lastJson)).toBe("one\ntwo\nthree\n");
    const { result } = JSON.parse(stdout.slice(lastJson)) as {
      result: { content: Array<{ text?: string }>; isError?: boolean };
    };
    expect(result.isError ?? false).toBe(false);
    expect(result.content[0]?.text?.trim()).toBe("one\ntwo\nthree");
  }, 300_000);
});
