import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as a provider stand-in saw it: everything a key could travel in. */
export interface SeenRequest {
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface Loopback {
  base: string;
  seen: SeenRequest[];
  /** Everything every request carried, as one string (to search for keys). */
  wire(): string;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server standing in for a model provider: records every request and answers
 * with `reply` (default: an OpenAI chat-completions stream saying "ok").
 */
export async function loopback(reply?: (req: SeenRequest, res: ServerResponse) => void): Promise<Loopback> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => {
      const entry = { url: req.url ?? "", headers: req.headers, body };
      seen.push(entry);
      (reply ?? openaiOk)(entry, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    wire: () => seen.map((s) => `${s.url}\n${JSON.stringify(s.headers)}\n${s.body}`).join("\n"),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A streamed chat completion answering "ok". */
export function openaiOk(_req: SeenRequest, res: ServerResponse): void {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(`${chunk({ role: "assistant", content: "ok" }, null)}${chunk({}, "stop")}data: [DONE]\n\n`);
}

/** A provider refusing the call with 400 (no retries), whatever the wire format. */
export function refuse(_req: SeenRequest, res: ServerResponse): void {
  res.writeHead(400, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message: "refused by the stand-in", type: "invalid_request_error" } }));
}

/** A provider answering 401 with the key it was sent echoed in the body, as some do. */
export function echoKey401(req: SeenRequest, res: ServerResponse): void {
  const auth = String(req.headers.authorization ?? req.headers["x-api-key"] ?? "");
  const key = auth.replace(/^Bearer /, "");
  res.writeHead(401, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      error: {
        message: `Incorrect API key provided: ${key}.`,
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    }),
  );
}
