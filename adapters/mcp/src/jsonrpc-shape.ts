import type { JSONRPCMessage } from "@modelcontextprotocol/server";

/**
 * The JSON-RPC 2.0 message shapes MCP's schema accepts (the SDK's `JSONRPCMessageSchema`),
 * checked by hand so that stdio can read and answer the opening messages without loading the SDK
 * and its zod schemas. It must never accept what the SDK's parser refuses: a test runs both over
 * the same corpus.
 */

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A request id or progress token: a string or a safe integer (zod's `int()`). */
export const isId = (value: unknown): value is string | number =>
  typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));

const onlyKeys = (value: JsonObject, allowed: readonly string[]) =>
  Object.keys(value).every((key) => allowed.includes(key));

/** A request's or notification's `_meta` (loose, with typed progress token and related task). */
function metaOk(meta: unknown): boolean {
  if (!isObject(meta)) return false;
  if (meta.progressToken !== undefined && !isId(meta.progressToken)) return false;
  const task = meta["io.modelcontextprotocol/related-task"];
  return task === undefined || (isObject(task) && typeof task.taskId === "string");
}

const paramsOk = (params: unknown) =>
  params === undefined || (isObject(params) && (params._meta === undefined || metaOk(params._meta)));

const REQUEST_KEYS = ["jsonrpc", "id", "method", "params"] as const;
const NOTIFICATION_KEYS = ["jsonrpc", "method", "params"] as const;

function requestOk(m: JsonObject): boolean {
  return onlyKeys(m, REQUEST_KEYS) && isId(m.id) && typeof m.method === "string" && paramsOk(m.params);
}

function notificationOk(m: JsonObject): boolean {
  return onlyKeys(m, NOTIFICATION_KEYS) && typeof m.method === "string" && paramsOk(m.params);
}

function resultOk(m: JsonObject): boolean {
  if (!onlyKeys(m, ["jsonrpc", "id", "result"]) || !isId(m.id) || !isObject(m.result)) return false;
  return m.result._meta === undefined || isObject(m.result._meta);
}

function errorOk(m: JsonObject): boolean {
  if (!onlyKeys(m, ["jsonrpc", "id", "error"]) || (m.id !== undefined && !isId(m.id))) return false;
  const error = m.error;
  return isObject(error) && Number.isSafeInteger(error.code) && typeof error.message === "string";
}

/** Whether `raw` (parsed JSON) is a JSON-RPC message MCP's schema accepts. */
export function isJsonRpcMessage(raw: unknown): raw is JSONRPCMessage {
  if (!isObject(raw) || raw.jsonrpc !== "2.0") return false;
  return requestOk(raw) || notificationOk(raw) || resultOk(raw) || errorOk(raw);
}

/** `raw` as a JSON-RPC message, or a throw (the SDK's `parseJSONRPCMessage` contract, unparsed). */
export function checkJsonRpcMessage(raw: unknown): JSONRPCMessage {
  if (!isJsonRpcMessage(raw)) throw new TypeError("not a JSON-RPC 2.0 message");
  return raw;
}
