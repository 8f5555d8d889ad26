import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { registerSecret } from "./redact.js";
import { redactWrites } from "./redact-stream.js";

describe("redactWrites", () => {
  it("redacts every string and buffer written to the stream, until undone", () => {
    const seen: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        seen.push(String(chunk));
        done();
      },
    });
    const unregister = registerSecret("stream-secret-3f9a1c");
    const undo = redactWrites(stream);
    try {
      expect(redactWrites(stream)).toBeTypeOf("function"); // installing twice is a no-op
      stream.write("usage error (got stream-secret-3f9a1c)\n");
      stream.write(Buffer.from("from a plugin: stream-secret-3f9a1c\n"));
    } finally {
      undo();
    }
    stream.write("after: stream-secret-3f9a1c\n");
    unregister();
    expect(seen).toEqual([
      "usage error (got [redacted])\n",
      "from a plugin: [redacted]\n",
      "after: stream-secret-3f9a1c\n",
    ]);
  });
});
