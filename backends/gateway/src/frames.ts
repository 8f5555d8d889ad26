/**
 * The Gateway's wire frames (protocol 4): JSON text frames of three kinds. The server speaks
 * first with a `connect.challenge` event; the first client frame must be the `connect` request.
 */
export const PROTOCOL_VERSION = 4;

export interface RequestFrame {
  type: "req";
  id: string;
  method: string;
  params?: unknown;
}

export interface ErrorShape {
  code: string;
  message: string;
  details?: unknown;
  retryable?: boolean;
  retryAfterMs?: number;
}

export interface ResponseFrame {
  type: "res";
  id: string;
  ok: boolean;
  payload?: unknown;
  error?: ErrorShape;
}

export interface EventFrame {
  type: "event";
  event: string;
  payload?: unknown;
  seq?: number;
  stateVersion?: unknown;
}

export type InboundFrame = ResponseFrame | EventFrame;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses one text frame; anything that is not a well-formed `res` or `event` is refused with the reason. */
export function parseFrame(text: string): InboundFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`not JSON: ${text.slice(0, 80)}`);
  }
  if (!isObject(value)) throw new Error("frame is not a JSON object");
  if (value.type === "res") {
    if (typeof value.id !== "string" || typeof value.ok !== "boolean")
      throw new Error("res frame needs a string id and a boolean ok");
    if (value.ok === false && value.error !== undefined) {
      const e = value.error;
      if (!isObject(e) || typeof e.code !== "string" || typeof e.message !== "string")
        throw new Error("res error needs a string code and message");
    }
    return value as unknown as ResponseFrame;
  }
  if (value.type === "event") {
    if (typeof value.event !== "string") throw new Error("event frame needs a string event");
    return value as unknown as EventFrame;
  }
  throw new Error(`unknown frame type ${JSON.stringify(value.type)}`);
}
