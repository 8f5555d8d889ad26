import type {
  ClientCapabilities,
  JSONRPCMessage,
  JSONRPCRequest,
  Transport,
} from "@modelcontextprotocol/server";
import { declares } from "./client-channel.js";
import type { McpToolsetLike } from "./server.js";
import type { ServeStdioOptions } from "./stdio.js";
import { FrontCalls } from "./stdio-calls.js";
import { frontInitialize, initializeResult, listResult, plainParams } from "./stdio-opening.js";
import type { LineTransport } from "./stdio-transport.js";

/** What the front loads on the first message it does not answer itself (`stdio-sdk.ts`). */
export interface StdioSdk {
  parseJSONRPCMessage(raw: unknown): JSONRPCMessage;
  serveWithSdk(
    toolset: McpToolsetLike,
    options: ServeStdioOptions,
    wire: Transport,
  ): { close(): Promise<void> };
}

type Phase = "opening" | "initialized" | "loading" | "handed" | "closed";

const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => "method" in m && "id" in m;
const isNotification = (m: JSONRPCMessage) => "method" in m && !("id" in m);

/**
 * The stdio server's front: it answers a 2025-era client's opening (`initialize`, then
 * `notifications/initialized`, `ping`, `tools/list`) itself, with the SDK server's exact answers,
 * so a client lists the tools without the process first building the SDK and its zod schemas.
 * Plain `tools/call`s of such a client (no approvals to ask through it, no progress token) it
 * runs too (`FrontCalls`), so calling a tool costs no SDK either.
 * The first other message loads the SDK and connects its server to the same line transport; the
 * opening is replayed into it (its answers swallowed) so it negotiated the same state, and every
 * later message goes to it in arrival order (held while it loads).
 */
export class StdioFront {
  private phase: Phase = "opening";
  /** The answered `initialize` and the notifications after it, replayed into the SDK server. */
  private readonly opening: JSONRPCMessage[] = [];
  private clientRoots = false;
  /** A tool may ask the client (elicitation, sampling, roots): its calls are the SDK's. */
  private clientApproves = false;
  private readonly calls: FrontCalls;
  private readonly held: JSONRPCMessage[] = [];
  private wire: HandoverWire | undefined;
  private sdk: { close(): Promise<void> } | undefined;
  private unsubscribe: (() => void) | undefined;
  private handing: Promise<void> | undefined;

  constructor(
    private readonly transport: LineTransport,
    private readonly toolset: McpToolsetLike,
    private readonly options: ServeStdioOptions,
    private readonly load: () => Promise<StdioSdk>,
  ) {
    this.calls = new FrontCalls(transport, toolset, options);
  }

  async start(): Promise<void> {
    const t = this.transport;
    t.onmessage = (message) => this.receive(message);
    t.onerror = (error) => (this.wire ? this.wire.onerror?.(error) : this.options.log?.(error.message));
    t.onclose = () => {
      this.phase = "closed";
      this.unsubscribe?.();
      this.wire?.onclose?.();
    };
    // until the SDK server takes over (and subscribes itself), tool changes are announced here
    this.unsubscribe = this.toolset.onToolsChanged?.(() => {
      if (this.phase === "initialized") this.notifyToolsChanged();
    });
    await t.start();
  }

  /** Closes the SDK server when it was loaded (which closes the transport), else the transport. */
  async close(): Promise<void> {
    await this.handing?.catch(() => {});
    this.unsubscribe?.();
    this.calls.abortAll();
    if (this.sdk) await this.sdk.close();
    else await this.transport.close();
  }

  private receive(message: JSONRPCMessage): void {
    // a call the front runs is cancelled here, whoever answers the rest by now
    if (this.calls.cancel(message)) return;
    if (this.phase === "handed") this.wire!.onmessage?.(message);
    else if (this.phase === "loading") this.held.push(message);
    else if (this.phase === "opening" || this.phase === "initialized") {
      if (!this.answer(message)) this.handOver(message);
    }
  }

  /** Answers `message` as the SDK server would; false when the SDK must. */
  private answer(message: JSONRPCMessage): boolean {
    if (!("method" in message)) return false;
    if (this.phase === "opening") {
      const opening =
        message.method === "initialize" && isRequest(message) && frontInitialize(message.params);
      if (!opening) return false;
      this.opening.push(message);
      this.clientRoots = opening.roots;
      // a client a tool may ask (a form, its model, its roots) has its calls run by the SDK server
      const capabilities = (message.params as { capabilities?: ClientCapabilities }).capabilities;
      this.clientApproves = (["elicitation", "sampling", "roots"] as const).some((c) =>
        declares(capabilities, c),
      );
      this.phase = "initialized";
      this.reply(message, initializeResult(opening.protocolVersion, this.toolset, this.options));
      return true;
    }
    if (message.method === "notifications/initialized" && isNotification(message)) {
      // a client with roots is asked for them once initialised: the SDK server does that
      if (!plainParams(message.params) || (this.clientRoots && this.options.onRoots)) return false;
      this.opening.push(message);
      return true;
    }
    if (!isRequest(message)) return false;
    if (message.method === "ping" && plainParams(message.params)) {
      this.reply(message, {});
      return true;
    }
    if (message.method === "tools/list" && plainParams(message.params, ["cursor"])) {
      this.reply(message, listResult(this.toolset));
      return true;
    }
    if (message.method === "tools/call" && !this.clientApproves) {
      const tool = this.calls.accepts(message);
      if (!tool) return false;
      this.calls.run(message, tool);
      return true;
    }
    return false;
  }

  private reply(request: JSONRPCRequest, result: Record<string, unknown>): void {
    // the SDK's key order, so the bytes match too
    void this.transport.send({ result, jsonrpc: "2.0", id: request.id } as JSONRPCMessage);
  }

  private notifyToolsChanged(): void {
    void this.transport.send({
      method: "notifications/tools/list_changed",
      jsonrpc: "2.0",
    } as JSONRPCMessage);
  }

  private handOver(first: JSONRPCMessage): void {
    const announced = this.phase === "initialized";
    this.phase = "loading";
    this.held.push(first);
    let changed = false;
    const stopWatching = this.toolset.onToolsChanged?.(() => {
      changed = true;
    });
    this.handing = this.connect()
      .then(() => {
        // a change while the SDK loaded was seen by no one: announce it now
        if (changed && announced && this.phase === "handed") this.notifyToolsChanged();
      })
      .catch((error: Error) => {
        this.options.log?.(`could not start the MCP server: ${error.message}`);
        void this.transport.close();
      })
      .finally(() => stopWatching?.());
  }

  private async connect(): Promise<void> {
    const sdk = await this.load();
    if (this.phase === "closed") return;
    const wire = new HandoverWire(this.transport);
    this.wire = wire;
    // later lines are read by the SDK's own parser, the held ones again below
    this.transport.parseMessage = sdk.parseJSONRPCMessage;
    this.sdk = sdk.serveWithSdk(this.toolset, this.options, wire);
    const [init, ...after] = this.opening;
    if (init && isRequest(init)) {
      const answered = await wire.replay(init);
      if ("error" in answered)
        this.options.log?.(
          `the MCP server refused the initialize already answered: ${answered.error.message}`,
        );
    }
    for (const message of after) wire.onmessage?.(message);
    this.phase = "handed";
    for (const message of this.held.splice(0)) {
      let parsed: JSONRPCMessage;
      try {
        parsed = sdk.parseJSONRPCMessage(message);
      } catch {
        this.transport.refuseInvalid(message);
        if (isRequest(message)) this.transport.forget(message.id);
        continue;
      }
      wire.onmessage?.(parsed);
    }
  }
}

type Answer = Extract<JSONRPCMessage, { id: unknown }> &
  ({ result: unknown } | { error: { message: string } });

/**
 * The SDK server's side of the line transport after the hand-over: what it sends goes out,
 * except its answer to the replayed `initialize`, which the client already has.
 */
class HandoverWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private swallow: { id: string | number; answered: (answer: Answer) => void } | undefined;

  constructor(private readonly transport: LineTransport) {}

  async start(): Promise<void> {}

  /** Delivers the already-answered `initialize`; resolves with the SDK server's (unsent) answer. */
  replay(init: JSONRPCRequest): Promise<Answer> {
    return new Promise((answered) => {
      this.swallow = { id: init.id, answered };
      this.onmessage?.(init);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const swallow = this.swallow;
    if (
      swallow &&
      "id" in message &&
      message.id === swallow.id &&
      ("result" in message || "error" in message)
    ) {
      this.swallow = undefined;
      swallow.answered(message as Answer);
      return;
    }
    await this.transport.send(message);
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}
