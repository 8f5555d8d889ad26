import { describe, expect, it } from "vitest";
import { parseCommonOptions } from "../src/options.js";

describe("serve --gateway options", () => {
  it("takes a ws:// URL and a token", () => {
    const o = parseCommonOptions(["--gateway", "ws://127.0.0.1:18789", "--gateway-token", "t"], "serve");
    expect(o).toMatchObject({ gateway: "ws://127.0.0.1:18789", gatewayToken: "t" });
  });

  it.each([
    [
      ["--gateway", "127.0.0.1:18789"],
      '--gateway needs a ws://HOST:PORT URL of an OpenClaw Gateway, got "127.0.0.1:18789"',
    ],
    [
      ["--gateway", "not a url"],
      '--gateway needs a ws://HOST:PORT URL of an OpenClaw Gateway, got "not a url"',
    ],
    [["--gateway", "http://127.0.0.1:1"], '--gateway needs a ws:// or wss:// URL, got "http://127.0.0.1:1"'],
    [
      ["--gateway", "ws://me:secret@h:1"],
      "--gateway: put the token in --gateway-token or OPENCLAW_GATEWAY_TOKEN, not in the URL",
    ],
    [["--gateway-token", "t"], "--gateway-token only applies with --gateway ws://HOST:PORT"],
    [
      ["--gateway", "ws://h:1", "--nodes", "local"],
      "--nodes and --gateway both choose the node host: give one of them",
    ],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCommonOptions(argv, "serve")).toThrow(message);
  });

  it("is a serve option only", () => {
    expect(() => parseCommonOptions(["--gateway", "ws://h:1"], "list")).toThrow(/--gateway/);
  });
});
