import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  raw: Buffer;
  json?: any;
  form?: Record<string, string>;
  /** multipart fields; files as { name, type, size, text } */
  multipart?: Record<string, string | { name: string; type: string; size: number; text: string }>;
}

type Handler = (req: Recorded, res: ServerResponse) => void | Promise<void>;

/** A loopback HTTP server that parses each request (JSON, form, multipart) and records it. */
export async function fakeServer(handler: Handler) {
  const requests: Recorded[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const type = req.headers["content-type"] ?? "";
    const rec: Recorded = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, raw };
    if (type.startsWith("application/json")) rec.json = JSON.parse(raw.toString("utf8"));
    if (type.startsWith("application/x-www-form-urlencoded"))
      rec.form = Object.fromEntries(new URLSearchParams(raw.toString("utf8")));
    if (type.startsWith("multipart/form-data")) {
      const form = await new Response(raw, { headers: { "content-type": type } }).formData();
      rec.multipart = {};
      // forEach, not entries(): FormData's iterator is typed only where a DOM iterable lib is in
      const fields: [string, string | Blob][] = [];
      form.forEach((v, k) => {
        fields.push([k, v]);
      });
      for (const [k, v] of fields) {
        rec.multipart[k] =
          typeof v === "string"
            ? v
            : { name: (v as File).name, type: v.type, size: v.size, text: await v.text() };
      }
    }
    requests.push(rec);
    try {
      await handler(rec, res);
    } catch (error) {
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ error: String(error) }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export const reply = (res: ServerResponse, status: number, body?: unknown) => {
  if (body === undefined) res.writeHead(status).end();
  else res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
};

/** Throws (answered as 400 by the server) unless the condition holds: the request is checked as the provider documents it. */
export function expectWire(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`wire format: ${what}`);
}
