import { delay } from "@clawtools/core/time";
import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/** A request the fake model received: its path, and its body as parsed. */
export interface FakeModelRequest {
  path: string;
  body: Record<string, unknown>;
}

/** What a scripted fake answers one request with: text, or one call of a tool the request offers. */
export type FakeModelReply =
  | { text: string }
  | { toolCall: { name: string; arguments: Record<string, unknown> } };

/** Answers a request body (already checked against the wire format); may wait, e.g. for a test to release it. */
export type FakeModelResponder = (body: Record<string, unknown>) => Promise<FakeModelReply>;

export interface FakeOpenAiModel {
  /** The `baseUrl` for OpenClaw's `models.providers.<id>` (ends in /v1). */
  baseUrl: string;
  apiKey: string;
  requests: FakeModelRequest[];
  /** Wire-format violations seen (each refused with a 400); a test expects none. */
  problems: string[];
  /** Emits "slow" when a slow answer starts streaming, "slow-closed" when its client hangs up. */
  events: EventEmitter;
  close(): Promise<void>;
}

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

/** What is wrong with a chat-completions request body, by OpenAI's wire format. */
export function chatCompletionsProblems(body: unknown): string[] {
  if (!body || typeof body !== "object" || Array.isArray(body)) return ["the body is not a JSON object"];
  const b = body as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof b.model !== "string" || !b.model) problems.push("model is not a non-empty string");
  if (!Array.isArray(b.messages) || b.messages.length === 0)
    problems.push("messages is not a non-empty array");
  else
    b.messages.forEach((m: unknown, i: number) => {
      const msg = m as Record<string, unknown>;
      if (!msg || !ROLES.has(msg.role as string)) problems.push(`messages[${i}].role is not a chat role`);
      const c = msg?.content;
      const ok =
        typeof c === "string" ||
        (Array.isArray(c) && c.every((p) => p && typeof (p as { type?: unknown }).type === "string")) ||
        (c == null && msg?.role === "assistant");
      if (!ok) problems.push(`messages[${i}].content is neither a string nor content parts`);
    });
  if (b.stream !== undefined && typeof b.stream !== "boolean") problems.push("stream is not a boolean");
  if (b.tools !== undefined) {
    if (!Array.isArray(b.tools)) problems.push("tools is not an array");
    else
      b.tools.forEach((t: unknown, i: number) => {
        const tool = t as { type?: unknown; function?: { name?: unknown; parameters?: unknown } };
        if (tool?.type !== "function" || typeof tool.function?.name !== "string")
          problems.push(`tools[${i}] is not {type:"function", function:{name, …}}`);
      });
  }
  return problems;
}

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("")
      : "";

/**
 * A loopback OpenAI chat-completions server for OpenClaw's custom provider: it checks each
 * request against the wire format (refusing a bad one with OpenAI's 400 error shape), and
 * answers `reply`, streamed when asked. A conversation whose user text contains `SLOW` streams a
 * chunk every 200 ms until the client hangs up (an abort) or five minutes pass.
 */
export async function startFakeOpenAiModel(
  options: {
    reply?: string;
    apiKey?: string;
    /** Answers each request instead of `reply` (and of the SLOW stream): a scripted model. */
    respond?: FakeModelResponder;
  } = {},
): Promise<FakeOpenAiModel> {
  const apiKey = options.apiKey ?? "fake-model-key";
  const reply = options.reply ?? "pong from the loopback model";
  const requests: FakeModelRequest[] = [];
  const problems: string[] = [];
  const events = new EventEmitter();
  const refuse = (res: ServerResponse, status: number, message: string) => {
    problems.push(message);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message, type: "invalid_request_error", code: null } }));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions"))
      return refuse(res, 404, `${req.method} ${req.url} is not POST …/chat/completions`);
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return refuse(res, 401, "missing or wrong bearer key");
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw);
    } catch {
      return refuse(res, 400, "the body is not JSON");
    }
    requests.push({ path: req.url, body });
    const wrong = chatCompletionsProblems(body);
    if (wrong.length) return refuse(res, 400, wrong.join("; "));
    if (options.respond) return answerScripted(res, body, options.respond, requests.length);
    const messages = body.messages as Array<{ role: string; content: unknown }>;
    const slow = messages.some((m) => m.role === "user" && textOf(m.content).includes("SLOW"));
    const base = {
      id: `chatcmpl-${requests.length}`,
      created: Math.floor(Date.now() / 1000),
      model: body.model,
    };
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          ...base,
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    chunk({ role: "assistant", content: "" });
    if (slow) {
      res.once("close", () => events.emit("slow-closed"));
      events.emit("slow");
      for (let i = 0; i < 1500 && !res.destroyed && !res.writableEnded; i++) {
        chunk({ content: `tick ${i} ` });
        await delay(200);
      }
      if (res.destroyed) return;
    }
    chunk({ content: reply });
    chunk({}, "stop");
    res.write(
      `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })}\n\n`,
    );
    res.end("data: [DONE]\n\n");
  };
  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      raw += c;
    });
    req.on("end", () => {
      handle(req, res, raw).catch((error: Error) => refuse(res, 500, error.message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    problems,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Answers with the responder's reply in chat-completions form. A streamed answer starts (headers
 * and the role chunk) before the responder is asked, as a real model's does: while a reply is held
 * the run is streaming, so the Gateway steers a message into it instead of queueing a follow-up.
 */
async function answerScripted(
  res: ServerResponse,
  body: Record<string, unknown>,
  respond: FakeModelResponder,
  n: number,
): Promise<void> {
  const base = { id: `chatcmpl-${n}`, created: Math.floor(Date.now() / 1000), model: body.model };
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices, ...extra })}\n\n`);
  if (body.stream) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]);
  }
  let reply: FakeModelReply;
  try {
    reply = await respond(body);
  } catch (error) {
    if (!res.headersSent) throw error; // answered with OpenAI's error shape by the caller
    res.destroy(error as Error); // a stream already begun can only be cut
    return;
  }
  if (res.destroyed) return; // the client hung up (an abort) while the reply was held
  const call =
    "toolCall" in reply
      ? {
          id: `call_${n}`,
          type: "function",
          function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) },
        }
      : undefined;
  const finish = call ? "tool_calls" : "stop";
  if (!body.stream) {
    const message = call
      ? { role: "assistant", content: null, tool_calls: [call] }
      : { role: "assistant", content: (reply as { text: string }).text };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  const delta = call
    ? { tool_calls: [{ index: 0, ...call }] }
    : { content: (reply as { text: string }).text };
  chunk([{ index: 0, delta, finish_reason: null }]);
  chunk([{ index: 0, delta: {}, finish_reason: finish }]);
  chunk([], { usage });
  res.end("data: [DONE]\n\n");
}

/** A `models.providers.<id>` entry for OpenClaw with the fake's one model, `echo-1`. */
export function fakeProvider(model: Pick<FakeOpenAiModel, "baseUrl" | "apiKey">): Record<string, unknown> {
  return {
    baseUrl: model.baseUrl,
    apiKey: model.apiKey,
    api: "openai-completions",
    models: [
      {
        id: "echo-1",
        name: "Loopback echo",
        reasoning: false,
        input: ["text"],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 32000,
        maxTokens: 1000,
      },
    ],
  };
}

/**
 * OpenClaw config (openclaw.json) with the fake as provider `fake`, model `fake/echo-1` the default;
 * `more` adds providers (e.g. a scripted fake a session picks with its model override).
 */
export function fakeModelConfig(
  model: Pick<FakeOpenAiModel, "baseUrl" | "apiKey">,
  more: Record<string, Pick<FakeOpenAiModel, "baseUrl" | "apiKey">> = {},
): Record<string, unknown> {
  const providers: Record<string, unknown> = { fake: fakeProvider(model) };
  for (const [id, extra] of Object.entries(more)) providers[id] = fakeProvider(extra);
  return {
    models: { mode: "merge", providers },
    agents: { defaults: { model: { primary: "fake/echo-1" } } },
  };
}
