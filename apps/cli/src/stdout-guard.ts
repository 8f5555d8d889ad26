/**
 * On the stdio transport stdout carries protocol messages only. Plugins and sections that log with
 * `console.log` / `console.info` or write to `process.stdout` (at module load or in a call) would
 * corrupt the stream, so from here on every such write goes to stderr; the returned stream is the
 * one writer left on stdout, for the transport. The console reads `process.stdout.write` at each
 * call, so replacing that one method reroutes it too.
 */
export function reserveStdoutForProtocol(): NodeJS.WritableStream {
  const stdout = process.stdout;
  const protocolWrite = stdout.write.bind(stdout);
  const stderrWrite = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
  stdout.write = ((...args: unknown[]) => stderrWrite(...args)) as typeof stdout.write;
  return {
    write: protocolWrite,
    on: (event: string, listener: (...args: unknown[]) => void) => stdout.on(event, listener),
    once: (event: string, listener: (...args: unknown[]) => void) => stdout.once(event, listener),
    off: (event: string, listener: (...args: unknown[]) => void) => stdout.off(event, listener),
  } as unknown as NodeJS.WritableStream;
}
