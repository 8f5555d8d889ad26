import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The installed version of a package: the package.json in the nearest `node_modules` above this
 * module, where `import()` from here finds the package; throws when it is not installed. A plain
 * walk of reads: `require.resolve` cost serve's start several ms of cold CommonJS resolution
 * (exports, realpath) for the nine section manifests.
 */
export function installedVersion(packageName: string): string {
  for (let dir = here; ; dir = path.dirname(dir)) {
    let text: string | undefined;
    try {
      text = readFileSync(path.join(dir, "node_modules", packageName, "package.json"), "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    }
    if (text !== undefined) return (JSON.parse(text) as { version: string }).version;
    if (path.dirname(dir) === dir)
      throw Object.assign(new Error(`Cannot find package '${packageName}' above ${here}`), {
        code: "ERR_MODULE_NOT_FOUND",
      });
  }
}
