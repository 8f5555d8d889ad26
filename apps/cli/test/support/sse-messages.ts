// The JSON-RPC messages of a Streamable HTTP response's SSE body (a 2026-07-28 listen stream).

/** The messages of an SSE body as they arrive. */
export async function* sseMessages(body: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  for (;;) {
    const { value: chunk, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(chunk, { stream: true });
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line.startsWith("data:")) yield JSON.parse(line.slice(5)) as Record<string, any>;
    }
  }
}

/** An array the body's messages are pushed to as they arrive, until the stream ends or is aborted. */
export function collectSseMessages(body: ReadableStream<Uint8Array>): Array<Record<string, any>> {
  const got: Array<Record<string, any>> = [];
  void (async () => {
    try {
      for await (const message of sseMessages(body)) got.push(message);
    } catch {
      // aborted at the end of the test
    }
  })();
  return got;
}
