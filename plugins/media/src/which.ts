import { accessSync, constants } from "node:fs";
import path from "node:path";

/** The first executable named `name` on PATH (or the absolute path itself when executable). */
export function which(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = path.isAbsolute(name)
    ? [name]
    : (env.PATH ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, name));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}
