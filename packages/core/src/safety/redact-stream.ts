import { hasSecrets, redactSecrets } from "./redact.js";

type Write = NodeJS.WritableStream["write"];
const PATCHED = Symbol.for("clawtools.redacting-writes");

/**
 * Sends every write to `stream` (stderr, say) through the one redaction path: the process's own
 * lines, and any a plugin, a mounted server's client, a database driver or `console.error`
 * writes. Whole chunks are redacted as they come (the writers here write whole lines). Installing
 * twice is a no-op; the returned function puts the original `write` back.
 */
export function redactWrites(stream: NodeJS.WritableStream = process.stderr): () => void {
  const target = stream as NodeJS.WritableStream & { [PATCHED]?: Write };
  if (target[PATCHED]) return () => {};
  const original = target.write;
  const write = function (this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
    let out = chunk;
    if (hasSecrets()) {
      if (typeof chunk === "string") out = redactSecrets(chunk);
      else if (chunk instanceof Uint8Array) {
        const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("utf8");
        const clean = redactSecrets(text);
        if (clean !== text) out = clean;
      }
    }
    return (original as (...args: unknown[]) => boolean).call(this, out, ...rest);
  } as Write;
  target.write = write;
  target[PATCHED] = original;
  return () => {
    if (target.write === write) target.write = original;
    delete target[PATCHED];
  };
}
