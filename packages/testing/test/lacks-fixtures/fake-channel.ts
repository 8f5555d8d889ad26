import type { ChannelUnderTest, ConformanceMessageRequest, DeliveredMessage } from "../../src/index.js";

/**
 * An in-memory channel that sends, reads and searches, so every step of the Channel suite passes
 * for it; `hangingRead` makes read and search never answer.
 */
export function fakeChannel(options: { hangingRead?: boolean } = {}) {
  const log: DeliveredMessage[] = [];
  let n = 0;
  const channel: ChannelUnderTest = {
    id: "fake",
    actions: new Set(["send", "read", "search"]),
    capabilities: { media: { maxBytes: 64 } },
    prepare: (request: ConformanceMessageRequest) => [
      { action: request.action, to: request.to, text: request.text },
    ],
    async execute(request: ConformanceMessageRequest) {
      if (!channel.actions.has(request.action)) throw new Error(`fake does not ${request.action}`);
      if (request.action === "send") {
        const media = request.media;
        if (media && media.data.length > 64) throw new Error(`${media.filename} is over 64 bytes`);
        log.push({
          to: request.to,
          text: request.text,
          ...(media ? { media: { filename: media.filename, bytes: media.data.length } } : {}),
        });
        return { messageId: `m-${++n}` };
      }
      if (options.hangingRead) return new Promise<never>(() => {});
      const mine = log.filter((m) => m.to === request.to);
      const query = request.query;
      return { messages: query ? mine.filter((m) => m.text?.includes(query)) : mine };
    },
  };
  return { channel, delivered: () => [...log] };
}
