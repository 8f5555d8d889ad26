import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  json?: any;
}

/** A loopback server that records each request (JSON bodies parsed) and answers through `handler`. */
export async function fakeServer(handler: (req: Recorded, res: ServerResponse) => void | Promise<void>) {
  const requests: Recorded[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const rec: Recorded = { method: req.method ?? "", path: req.url ?? "", headers: req.headers };
    if ((req.headers["content-type"] ?? "").includes("json") && raw) rec.json = JSON.parse(raw);
    requests.push(rec);
    try {
      await handler(rec, res);
    } catch (error) {
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: String(error) } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Server-sent events, one `data:` line per payload (with an `event:` line when named). */
export function sse(res: ServerResponse, events: Array<{ event?: string; data: unknown }>): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const e of events)
    res.write(
      `${e.event ? `event: ${e.event}\n` : ""}data: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`,
    );
  res.end();
}

export function expectWire(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`wire format: ${what}`);
}
