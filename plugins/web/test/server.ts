import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A real HTTP server on loopback; `handler` answers, every request is recorded. */
export async function serve(
  handler: (req: Received, res: ServerResponse) => void,
): Promise<{ url: string; port: number; requests: Received[] }> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      const received = { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body };
      requests.push(received);
      handler(received, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, requests };
}
