/**
 * On the stdio transport stdout carries protocol messages only. Plugins and sections that log with
 * `console.log` / `console.info` or write to `process.stdout` (at module load or in a call) would
 * corrupt the stream, so from here on every such write goes to stderr; the returned stream is the
 * one writer left on stdout, for the transport (`onWrite` hears its writes). The console reads `process.stdout.write` at each
 * call, so replacing that one method reroutes it too.
 */
export function reserveStdoutForProtocol(onWrite?: () => void): NodeJS.WritableStream {
  const stdout = process.stdout;
  const bound = stdout.write.bind(stdout) as (...args: unknown[]) => boolean;
  // `onWrite`: told of each protocol write (serve's quiet watch)
  const protocolWrite = onWrite
    ? (...args: unknown[]) => {
        onWrite();
        return bound(...args);
      }
    : bound;
  const stderrWrite = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
  stdout.write = ((...args: unknown[]) => stderrWrite(...args)) as typeof stdout.write;
  return {
    write: protocolWrite,
    on: (event: string, listener: (...args: unknown[]) => void) => stdout.on(event, listener),
    once: (event: string, listener: (...args: unknown[]) => void) => stdout.once(event, listener),
    off: (event: string, listener: (...args: unknown[]) => void) => stdout.off(event, listener),
  } as unknown as NodeJS.WritableStream;
}
