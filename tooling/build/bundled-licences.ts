import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The part of a rolldown plugin this needs (tsdown's plugin type, without importing tsdown here). */
interface LicencePlugin {
  name: string;
  generateBundle(
    this: { emitFile(file: { type: "asset"; fileName: string; source: string }): string },
    options: unknown,
    bundle: Record<string, { type: string; moduleIds?: string[] }>,
  ): void;
}

interface BundledPackage {
  name: string;
  version: string;
  license: string;
  text: string | undefined;
}

/** The package a bundled module belongs to: the nearest package.json under node_modules. */
function packageOf(
  moduleId: string,
): { dir: string; name: string; version: string; license: string } | undefined {
  const file = moduleId.split("?")[0] ?? moduleId;
  if (!file.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
  for (
    let dir = path.dirname(file);
    dir.includes(`${path.sep}node_modules${path.sep}`);
    dir = path.dirname(dir)
  ) {
    const manifest = path.join(dir, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, unknown>;
    // nested package.json files (`{"type":"module"}` in a dist folder) carry no name
    if (typeof pkg.name !== "string") continue;
    return {
      dir,
      name: pkg.name,
      version: String(pkg.version ?? ""),
      license: String(pkg.license ?? "unknown"),
    };
  }
  return undefined;
}

function licenceText(dir: string): string | undefined {
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
  return file ? readFileSync(path.join(dir, file), "utf8").trim() : undefined;
}

/**
 * Third-party code bundled into a package's dist keeps its licence: the build writes
 * THIRD-PARTY-LICENSES.md beside the bundle, naming each bundled package with its licence text.
 */
export function bundledLicences(): LicencePlugin {
  return {
    name: "clawtools-bundled-licences",
    generateBundle(_options, bundle) {
      const found = new Map<string, BundledPackage>();
      for (const output of Object.values(bundle)) {
        for (const id of output.type === "chunk" ? (output.moduleIds ?? []) : []) {
          const pkg = packageOf(id);
          if (!pkg || found.has(`${pkg.name}@${pkg.version}`)) continue;
          found.set(`${pkg.name}@${pkg.version}`, { ...pkg, text: licenceText(pkg.dir) });
        }
      }
      if (found.size === 0) return;
      const entries = [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
      const body = entries
        .map(
          (p) =>
            `## ${p.name}@${p.version} (${p.license})\n\n${p.text ?? `No licence file shipped; package.json says ${p.license}.`}\n`,
        )
        .join("\n");
      this.emitFile({
        type: "asset",
        fileName: "THIRD-PARTY-LICENSES.md",
        source: `# Third-party code bundled into this package\n\nThese packages are bundled into the JavaScript in this folder; their licences follow.\n\n${body}`,
      });
    },
  };
}
