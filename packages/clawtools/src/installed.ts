import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The installed version of a package (its package.json); throws when it is not installed. */
export function installedVersion(packageName: string): string {
  const file = require.resolve(`${packageName}/package.json`);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}
