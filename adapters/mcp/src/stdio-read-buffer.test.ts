import { describe, expect, it } from "vitest";
import { servedToolName } from "./import.js";
import { answerTooLargeMessage, StdioLineBuffer } from "./stdio-read-buffer.js";

const drain = (buffer: StdioLineBuffer) => {
  const out: unknown[] = [];
  for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) out.push(m);
  return out;
};

describe("StdioLineBuffer", () => {
  it("splits lines across and within chunks, drops CR, skips blank and non-JSON lines", () => {
    const buffer = new StdioLineBuffer(1000, (line) => JSON.parse(line));
    buffer.append(Buffer.from('{"id":1}\n{"id"'));
    buffer.append(Buffer.from(':2}\r\n\nnot json\n{"id":3}'));
    expect(drain(buffer)).toEqual([{ id: 1 }, { id: 2 }]);
    buffer.append(Buffer.from("\n"));
    expect(drain(buffer)).toEqual([{ id: 3 }]);
  });

  it("a line over the limit becomes an error answer for its id; the next line is read as usual", () => {
    const buffer = new StdioLineBuffer(64, (line) => JSON.parse(line));
    const big = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { text: "x".repeat(200) } });
    buffer.append(Buffer.from(big.slice(0, 50)));
    buffer.append(Buffer.from(`${big.slice(50)}\n{"id":8}\n`));
    expect(drain(buffer)).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32603, message: answerTooLargeMessage(Buffer.byteLength(big), 64) },
      },
      { id: 8 },
    ]);
  });

  it("a line that is JSON but not a message throws from readMessage only, and reading goes on", () => {
    const buffer = new StdioLineBuffer(1000, (line) => {
      const value = JSON.parse(line);
      if (!("id" in value)) throw new Error("not JSON-RPC");
      return value;
    });
    buffer.append(Buffer.from('{"x":1}\n{"id":2}\n'));
    expect(() => buffer.readMessage()).toThrow("not JSON-RPC");
    expect(buffer.readMessage()).toEqual({ id: 2 });
  });
});

describe("servedToolName", () => {
  it("keeps short names, and cuts long ones to 64 characters, deterministically and distinctly", () => {
    expect(servedToolName("gh__", "Create-Issue")).toBe("gh__create_issue");
    const one = servedToolName("srv__", `${"a".repeat(100)}1`);
    const two = servedToolName("srv__", `${"a".repeat(100)}2`);
    expect(one).toHaveLength(64);
    expect(one).toMatch(/^srv__a{50}_[0-9a-f]{8}$/);
    expect(two).not.toBe(one);
    expect(servedToolName("srv__", `${"a".repeat(100)}1`)).toBe(one);
  });
});
