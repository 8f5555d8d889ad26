import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }>;
  tools?: Array<{ type: string; function: { name: string; parameters: object } }>;
  stream?: boolean;
}

export type Reply = { text: string } | { toolCall: { name: string; arguments: Record<string, unknown> } };

const chunk = (choice: object, extra: object = {}) =>
  `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "scripted", choices: [{ index: 0, ...choice }], ...extra })}\n\n`;

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
const callOf = (reply: Extract<Reply, { toolCall: unknown }>) => ({
  id: `call_${Math.random().toString(36).slice(2, 8)}`,
  type: "function",
  function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) },
});

/** A whole chat.completion object (what the AI SDK's generateText asks for: stream off). */
function whole(res: ServerResponse, reply: Reply) {
  const message =
    "text" in reply
      ? { role: "assistant", content: reply.text }
      : { role: "assistant", content: null, tool_calls: [callOf(reply)] };
  res.writeHead(200, { "content-type": "application/json" }).end(
    JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "scripted",
      choices: [{ index: 0, message, finish_reason: "text" in reply ? "stop" : "tool_calls" }],
      usage,
    }),
  );
}

/** Server-sent chunks (what pi-ai and streamText ask for). */
function stream(res: ServerResponse, reply: Reply) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  if ("text" in reply) {
    res.write(chunk({ delta: { role: "assistant", content: reply.text }, finish_reason: null }));
    res.write(chunk({ delta: {}, finish_reason: "stop" }, { usage }));
  } else {
    res.write(
      chunk({
        delta: { role: "assistant", content: null, tool_calls: [{ index: 0, ...callOf(reply) }] },
        finish_reason: null,
      }),
    );
    res.write(chunk({ delta: {}, finish_reason: "tool_calls" }, { usage }));
  }
  res.end("data: [DONE]\n\n");
}

/**
 * A loopback model that speaks OpenAI's streamed chat-completions wire format (checked on every
 * request: method, path, bearer key, stream flag, tool definitions) and answers from a script.
 * With `whole`, a request with stream off gets a whole chat.completion (the AI SDK's generateText).
 */
export async function startModelServer(
  script: (request: ChatRequest) => Reply | Promise<Reply>,
  options: { whole?: boolean } = {},
) {
  const requests: ChatRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    try {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions")
        throw new Error(`unexpected ${req.method} ${req.url}`);
      if (req.headers.authorization !== "Bearer sk-loopback") throw new Error("missing bearer key");
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequest;
      if ((body.stream !== true && !options.whole) || !Array.isArray(body.messages))
        throw new Error("expected a streamed chat completion");
      for (const t of body.tools ?? [])
        if (t.type !== "function" || !t.function?.name || !t.function.parameters)
          throw new Error("bad tool definition");
      requests.push(body);
      const reply = await script(body);
      if (body.stream) stream(res, reply);
      else whole(res, reply);
    } catch (error) {
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: String(error) } }));
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The text of a chat message's content (string or parts). */
export const contentText = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((p: { text?: string }) => p.text ?? "").join("")
      : "";
