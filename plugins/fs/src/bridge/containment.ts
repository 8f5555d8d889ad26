import { constants, type Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { ToolInputError } from "@clawtools/core";
import { escapeError, isInside } from "../paths.js";

export interface ContainedPath {
  /** Canonical path: every symlink on the way resolved and checked. */
  path: string;
  /** Identity of the final entry when it existed at check time. */
  identity?: { dev: number; ino: number };
}

const realRoots = new Map<string, Promise<string>>();
export function realRoot(root: string): Promise<string> {
  let real = realRoots.get(root);
  if (!real) {
    real = fs.realpath(root);
    realRoots.set(root, real);
    real.catch(() => realRoots.delete(root));
  }
  return real;
}

async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await fs.lstat(p);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Resolves `abs` inside `root` hop by hop: each symlink met on the way must lead inside the
 * real root. `final: "nofollow"` stops at a final symlink (unlink semantics) instead of following.
 */
export async function resolveContained(
  root: string,
  abs: string,
  options: { input: string; final?: "follow" | "nofollow" } = { input: abs },
): Promise<ContainedPath> {
  const real = await realRoot(root);
  const lexicalRoot = path.resolve(root);
  let rel: string;
  if (isInside(lexicalRoot, abs)) rel = path.relative(lexicalRoot, abs);
  else if (isInside(real, abs)) rel = path.relative(real, abs);
  else throw escapeError(root, options.input);
  const parts = rel.split(path.sep).filter((p) => p && p !== ".");
  let current = real;
  let hops = 0;
  for (let i = 0; i < parts.length; i++) {
    const next = path.join(current, parts[i]!);
    const st = await lstatOrNull(next);
    if (!st) return { path: path.join(next, ...parts.slice(i + 1)) };
    const isLast = i === parts.length - 1;
    if (st.isSymbolicLink() && !(isLast && options.final === "nofollow")) {
      if (++hops > 40) throw new ToolInputError(`Too many symlinks resolving ${options.input}`);
      const target = path.resolve(current, await fs.readlink(next));
      let resolved: string;
      try {
        resolved = await fs.realpath(target);
      } catch {
        resolved = target; // dangling: the lexical target must still stay inside
      }
      if (!isInside(real, resolved)) {
        throw new ToolInputError(`Symlink escapes sandbox root (${root}): ${options.input} -> ${resolved}`);
      }
      current = resolved;
      if (isLast) {
        const fin = await lstatOrNull(resolved);
        return { path: resolved, ...(fin ? { identity: { dev: fin.dev, ino: fin.ino } } : {}) };
      }
      continue;
    }
    current = next;
    if (isLast) return { path: current, identity: { dev: st.dev, ino: st.ino } };
  }
  const st = await fs.lstat(current);
  return { path: current, identity: { dev: st.dev, ino: st.ino } };
}

/**
 * Opens a checked path without following a final symlink and verifies it is still the entry
 * that was checked: a path swapped for a symlink (or another file) in between is refused.
 */
export async function openVerified(
  root: string,
  checked: ContainedPath,
  input: string,
  flags = constants.O_RDONLY,
) {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(checked.path, flags | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new ToolInputError(`Path changed to a symlink during access (${root}): ${input}`);
    }
    throw error;
  }
  const st = await handle.stat();
  const real = await fs.realpath(checked.path).catch(() => checked.path);
  const swapped =
    (checked.identity && (st.dev !== checked.identity.dev || st.ino !== checked.identity.ino)) ||
    !isInside(await realRoot(root), real);
  if (swapped) {
    await handle.close();
    throw new ToolInputError(`Path changed during access (${root}): ${input}`);
  }
  return { handle, stat: st };
}
