import type {
  Channel,
  ChannelResult,
  MessageAction,
  MessageRequest,
  PreparedRequest,
} from "@clawtools/core/contracts";
import type { GatewayClient } from "./client.js";

export interface GatewayChannelOptions {
  client: GatewayClient;
  /** The clawtools channel id (what the message tool's `channel` names); default "gateway". */
  id?: string;
  /** The Gateway's channel to use (telegram, slack, …); unset lets the Gateway pick its configured one. */
  channel?: string;
}

// poll is not advertised by 9.6's Gateway (features.methods), so it is not offered
const ACTIONS: MessageAction[] = ["send", "reply", "thread-reply", "react", "read", "search"];

/**
 * A Channel over the Gateway: `send` goes to the Gateway's `send`, every other action to
 * `message.action`. The Gateway owns the real channels, their credentials and their errors: a
 * Gateway with none answers `INVALID_REQUEST Channel is required (no configured channels
 * detected)…`, and that text reaches the caller as is. `prepare` (dryRun) stays local: it shows
 * the Gateway call that would be made and sends nothing. Attachments are not offered: the
 * Gateway takes media by URL, not the bytes clawtools resolves.
 */
export class GatewayChannel implements Channel {
  readonly id: string;
  readonly actions: ReadonlySet<MessageAction> = new Set(ACTIONS);
  readonly capabilities = { threads: true, reactions: true };
  readonly #client: GatewayClient;
  readonly #channel: string | undefined;

  constructor(options: GatewayChannelOptions) {
    this.#client = options.client;
    this.id = options.id ?? "gateway";
    this.#channel = options.channel;
  }

  /** The Gateway method and its params for a request. */
  call(request: MessageRequest): { method: "send" | "message.action"; params: Record<string, unknown> } {
    const channel = this.#channel ? { channel: this.#channel } : {};
    if (request.action === "send")
      return {
        method: "send",
        params: {
          to: request.to,
          ...(request.text !== undefined ? { message: request.text } : {}),
          ...channel,
          ...(request.threadId ? { threadId: request.threadId } : {}),
          idempotencyKey: request.idempotencyKey,
        },
      };
    const { action, idempotencyKey, media: _media, ...rest } = request;
    return {
      method: "message.action",
      params: { ...channel, action, params: rest, idempotencyKey },
    };
  }

  prepare(request: MessageRequest): PreparedRequest[] {
    const { method, params } = this.call(request);
    return [{ method: "POST", url: `gateway:${method}`, headers: {}, json: params }];
  }

  async execute(request: MessageRequest): Promise<ChannelResult> {
    const { method, params } = this.call(request);
    const answer = await this.#client.request<Record<string, unknown>>(method, params);
    return typeof answer === "object" && answer !== null ? answer : { result: answer };
  }
}
