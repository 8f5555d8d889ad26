/** A workspace root and where a path stands under it: the first question of every walk. */
import fs from "node:fs/promises";
import path from "node:path";

/** A workspace root: as given (for messages), resolved lexically, and its real path. */
export interface Workspace {
  root: string;
  lexical: string;
  real: string;
}

const realRoots = new Map<string, Promise<string>>();
/** Workspaces whose real path is known, by root as given: each call of a small write asks several times. */
const knownWorkspaces = new Map<string, Workspace>();

export async function workspaceOf(root: string): Promise<Workspace> {
  const known = knownWorkspaces.get(root);
  if (known) return known;
  const lexical = path.resolve(root);
  let real = realRoots.get(lexical);
  if (!real) {
    real = fs.realpath(lexical);
    realRoots.set(lexical, real);
    real.catch(() => realRoots.delete(lexical));
  }
  const ws = { root, lexical, real: await real };
  // the real path is asked once per root for the process (realRoots); only a relative root
  // depends on the working directory, so only absolute ones are kept
  if (path.isAbsolute(root)) {
    if (knownWorkspaces.size > 1000) knownWorkspaces.clear();
    knownWorkspaces.set(root, ws);
  }
  return ws;
}

/** Whether a path relative to a root (as path.relative gives it) stays inside that root. */
const relInside = (rel: string) =>
  rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));

export function isInside(root: string, target: string): boolean {
  return relInside(path.relative(root, target));
}

/** Components of `abs` below the root (its lexical or its real spelling), or null when outside. */
export function below(ws: Workspace, abs: string): string[] | null {
  for (const base of [ws.lexical, ws.real]) {
    const rel = path.relative(base, abs);
    if (relInside(rel)) return rel.split(path.sep).filter((p) => p && p !== ".");
  }
  return null;
}
