/**
 * The root README's "Sections and tools" table says the same as `clawtools list`: every tool the
 * command knows is in the table under its section, "implemented" exactly when the command has it
 * installed, with the package that provides it. Drives the built CLI (`pnpm build` first).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../src/workspace.js";

const run = promisify(execFile);

interface ReadmeRow {
  section: string;
  tools: string[];
  implemented: boolean;
  packageName: string;
}

interface Listed {
  sections: Array<{ section: string; packageName: string; installed: boolean }>;
  tools: Array<{ tool: string; section: string; available: boolean; unavailable?: string; plugin?: string }>;
}

/** The rows of the table under "## Sections and tools". */
function readmeRows(): ReadmeRow[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const start = readme.indexOf("## Sections and tools");
  if (start < 0) throw new Error('README.md has no "## Sections and tools" heading');
  const lines = readme.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("| section |"));
  const rows: ReadmeRow[] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    const [section, tools, status, packageName] = line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    rows.push({
      section: section!,
      tools: [...tools!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
      implemented: status!.startsWith("implemented"),
      packageName: packageName!.replaceAll("`", ""),
    });
  }
  return rows;
}

describe("the README's tools table", () => {
  let workspace: string;
  let listed: Listed;
  beforeAll(async () => {
    workspace = mkdtempSync(path.join(tmpdir(), "clawtools-readme-"));
    const { stdout } = await run(
      process.execPath,
      [path.join(root, "apps", "cli", "dist", "bin.js"), "list", "--json", "--workspace", workspace],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    listed = JSON.parse(stdout) as Listed;
  }, 60_000);
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  it("lists every tool `clawtools list` knows, once, under the same section", () => {
    const rows = readmeRows();
    const inReadme = rows.flatMap((row) => row.tools.map((tool) => `${row.section}/${tool}`)).sort();
    const inList = listed.tools.map((t) => `${t.section}/${t.tool}`).sort();
    expect(inReadme).toEqual(inList);
  });

  it('says "implemented" exactly for the tools the command has installed, and names their package', () => {
    const rows = readmeRows();
    const sectionPackage = new Map(listed.sections.map((s) => [s.section, s.packageName]));
    const fromReadme = rows.flatMap((row) =>
      row.tools.map((tool) => ({ tool, implemented: row.implemented, packageName: row.packageName })),
    );
    const fromList = listed.tools.map((t) => {
      const installed = t.available || t.unavailable !== undefined;
      return {
        tool: t.tool,
        implemented: installed,
        packageName: installed ? (t.plugin ?? sectionPackage.get(t.section) ?? "?") : "—",
      };
    });
    const byTool = (a: { tool: string }, b: { tool: string }) => a.tool.localeCompare(b.tool);
    expect(fromReadme.sort(byTool)).toEqual(fromList.sort(byTool));
  });
});
