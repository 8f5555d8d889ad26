// The MCP SDK client's side of a stdio connection over two in-process streams (no child process):
// newline-delimited JSON-RPC, as its StdioClientTransport speaks it (SDK 1.x, and v2 for 2026-07-28).
import type { PassThrough } from "node:stream";
import {
  type JSONRPCMessage as ModernMessage,
  ReadBuffer as ModernReadBuffer,
  serializeMessage as serializeModern,
  type Transport as ModernTransport,
} from "@modelcontextprotocol/client";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export function streamClientTransport(toServer: PassThrough, fromServer: PassThrough): Transport {
  const buffer = new ReadBuffer();
  const transport: Transport = {
    async start() {
      fromServer.on("data", (chunk: Buffer) => {
        buffer.append(chunk);
        for (let message = buffer.readMessage(); message; message = buffer.readMessage())
          transport.onmessage?.(message);
      });
    },
    async send(message: JSONRPCMessage) {
      toServer.write(serializeMessage(message));
    },
    async close() {
      toServer.end();
      transport.onclose?.();
    },
  };
  return transport;
}

/** The same for the v2 client (`@modelcontextprotocol/client`), which speaks 2026-07-28 too. */
export function modernStreamClientTransport(toServer: PassThrough, fromServer: PassThrough): ModernTransport {
  const buffer = new ModernReadBuffer();
  const transport: ModernTransport = {
    async start() {
      fromServer.on("data", (chunk: Buffer) => {
        buffer.append(chunk);
        for (let message = buffer.readMessage(); message; message = buffer.readMessage())
          transport.onmessage?.(message);
      });
    },
    async send(message: ModernMessage) {
      toServer.write(serializeModern(message));
    },
    async close() {
      toServer.end();
      transport.onclose?.();
    },
  };
  return transport;
}
