import type { JsonSchema } from "../tool.js";

/** MCP's log levels, least to most severe. */
export type ClientLogLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/** What a client may declare it can do for a server (MCP client capabilities). */
export type ClientCapability = "elicitation" | "sampling" | "roots";

/** A form the client shows its user (MCP `elicitation/create`, form mode). */
export interface ElicitForm {
  message: string;
  /** A flat object schema: string, number, integer, boolean and enum properties (with defaults). */
  requestedSchema: JsonSchema;
}

/** The user's answer: `content` holds the form's values when they accepted. */
export interface ElicitAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, unknown>;
}

/** A message of a sampling request or answer (MCP `sampling/createMessage`). */
export interface SamplingMessage {
  role: "user" | "assistant";
  content: { type: string; [key: string]: unknown };
}

/** A request for one completion from the client's model. */
export interface SamplingRequest {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  [key: string]: unknown;
}

/** The client model's answer. */
export interface SamplingAnswer {
  role: "assistant";
  content: { type: string; text?: string; [key: string]: unknown };
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** A directory (`file://` URI) the client lets the server work in. */
export interface ClientRoot {
  uri: string;
  name?: string;
}

export interface ClientAskOptions {
  /**
   * The name of this question, stable across retries (MCP 2026-07-28 keys each input request of an
   * `input_required` result by it). Default: the method's kind (`elicit`, `sample`, `roots`),
   * numbered when one call asks it more than once.
   */
  key?: string;
  signal?: AbortSignal;
}

/**
 * The client that made the current tool call, as the tool sees it: what it declared, a log
 * channel, and the three questions a server may ask it. Only a call served over MCP has one
 * (`currentClient()`); on MCP 2026-07-28 a question ends the round and the call is retried with the
 * answer (the tool runs again from the start with its earlier answers given back in order), so a
 * tool that asks does so before it changes anything.
 */
export interface ClientChannel {
  /** Whether the client declared the capability a question needs. */
  supports(capability: ClientCapability): boolean;
  /** A log message to the client at `level` (dropped below the level the client asked for). */
  log(level: ClientLogLevel, data: unknown, logger?: string): void;
  /** Asks the user to fill in a form. Throws ClientCapabilityError when the client cannot show one. */
  elicit(form: ElicitForm, options?: ClientAskOptions): Promise<ElicitAnswer>;
  /** Asks the client's model for a completion. Throws ClientCapabilityError without `sampling`. */
  sample(request: SamplingRequest, options?: ClientAskOptions): Promise<SamplingAnswer>;
  /** The client's roots. Throws ClientCapabilityError without `roots`. */
  listRoots(options?: ClientAskOptions): Promise<ClientRoot[]>;
}
