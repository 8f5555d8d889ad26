import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

const binaryName = process.platform === "win32" ? "rg.exe" : "rg";

async function isExecutable(file: string | undefined): Promise<boolean> {
  if (!file) return false;
  try {
    await fs.access(file, constants.X_OK);
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

async function fromPackage(): Promise<string | undefined> {
  try {
    // 1.18+ ships rg in an optional platform package and throws at import when it is missing
    const mod = (await import("@vscode/ripgrep")) as { rgPath?: string };
    return mod.rgPath;
  } catch {
    return undefined;
  }
}

async function fromPath(): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = dir ? path.join(dir, binaryName) : "";
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

let located: Promise<string | undefined> | undefined;

/**
 * Where ripgrep is, looked up once per process: `RG_PATH`, then the `@vscode/ripgrep`
 * package (whose binary comes from the npm registry), then `rg` on PATH. Nothing is downloaded.
 */
export function locateRipgrep(): Promise<string | undefined> {
  located ??= (async () => {
    for (const find of [async () => process.env.RG_PATH, fromPackage, fromPath]) {
      const candidate = await find();
      if (await isExecutable(candidate)) return candidate;
    }
    return undefined;
  })();
  return located;
}
