import { ToolInputError } from "../errors.js";

const MAX_QUOTED = 200;

/** A model-supplied path as quoted in an error: at most a short prefix of it. */
export function quotePath(input: string): string {
  if (input.length <= MAX_QUOTED) return input;
  return `${input.slice(0, MAX_QUOTED)}… (${input.length} characters)`;
}

export function pathEscapesError(root: string, input: string): ToolInputError {
  return new ToolInputError(`Path escapes sandbox root (${root}): ${quotePath(input)}`);
}

export function symlinkEscapesError(root: string, input: string, target: string): ToolInputError {
  return new ToolInputError(
    `Symlink escapes sandbox root (${root}): ${quotePath(input)} -> ${quotePath(target)}`,
  );
}

export function hardlinkError(
  root: string,
  input: string,
  links: number,
  action: "read" | "write",
): ToolInputError {
  return new ToolInputError(
    `Refusing to ${action} through a hardlink (${links} links) inside ${root}: ${quotePath(input)}`,
  );
}

export function pathTooLongError(input: string, bytes: number): ToolInputError {
  return new ToolInputError(`Path too long (${bytes} bytes resolved; at most 4096): ${quotePath(input)}`);
}

export function nameTooLongError(input: string, bytes: number): ToolInputError {
  return new ToolInputError(`File name too long (${bytes} bytes; at most 255): ${quotePath(input)}`);
}

export function tooManySymlinksError(input: string): ToolInputError {
  return new ToolInputError(`Too many symlinks resolving ${quotePath(input)}`);
}

export function keptChangingError(root: string, input: string): ToolInputError {
  return new ToolInputError(
    `Path kept changing while it was opened (${root}), try again: ${quotePath(input)}`,
  );
}

export function symlinkNotFollowedError(root: string, input: string): ToolInputError {
  return new ToolInputError(`Path is a symlink, not followed here (${root}): ${quotePath(input)}`);
}

export function notRegularFileError(input: string): ToolInputError {
  return new ToolInputError(`Not a regular file (a device, socket or pipe): ${quotePath(input)}`);
}

/** A Node-style errno error, so callers that test `code` keep working. */
export function errnoError(code: "ENOENT" | "ENOTDIR" | "EISDIR", syscall: string, target: string) {
  const text = {
    ENOENT: "no such file or directory",
    ENOTDIR: "not a directory",
    EISDIR: "illegal operation on a directory",
  }[code];
  return Object.assign(new Error(`${code}: ${text}, ${syscall} '${quotePath(target)}'`), {
    code,
    syscall,
    path: target,
  }) as NodeJS.ErrnoException;
}
