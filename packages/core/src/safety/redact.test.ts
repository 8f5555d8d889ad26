import { afterEach, describe, expect, it } from "vitest";
import { Type } from "../schema.js";
import type { AnyAgentTool } from "../tool.js";
import { wrapTool } from "../wrap/wrap-tool.js";
import { isCredentialUrl, maskCredentialUrls, secretsInDocument } from "./credential-url.js";
import {
  hasSecrets,
  REDACTED_MARKER,
  redactError,
  redactSecrets,
  redactValue,
  registerEnvSecrets,
  registerSecret,
  registerSecrets,
} from "./redact.js";

const KEY = "sk-test-0123456789abcdef";
const HOOK = "https://hooks.slack.com/services/T0001/B0002/xYzSecretPart123";
const undo: Array<() => void> = [];
const register = (...values: string[]) => undo.push(registerSecrets(values));
afterEach(() => {
  for (const u of undo.splice(0)) u();
});

describe("the secret registry", () => {
  it("replaces a registered value, its URL-encoded and JSON-escaped forms", () => {
    const odd = 'k3y/with+"quote"&amp';
    register(KEY, odd);
    expect(redactSecrets(`Bearer ${KEY} and ${KEY}`)).toBe(
      `Bearer ${REDACTED_MARKER} and ${REDACTED_MARKER}`,
    );
    expect(redactSecrets(`?key=${encodeURIComponent(odd)}`)).toBe(`?key=${REDACTED_MARKER}`);
    expect(redactSecrets(JSON.stringify({ k: odd }))).toBe(`{"k":"${REDACTED_MARKER}"}`);
    expect(redactSecrets("nothing here")).toBe("nothing here");
  });

  it("takes out a credential URL whole, and its path where it shows up alone", () => {
    register(HOOK);
    expect(redactSecrets(`POST ${HOOK} failed`)).toBe(`POST ${REDACTED_MARKER} failed`);
    expect(redactSecrets("404 for /services/T0001/B0002/xYzSecretPart123")).toBe(
      `404 for ${REDACTED_MARKER}`,
    );
    const pg = "postgres://app:s3cretPassw0rd@db.internal/app";
    register(pg);
    expect(redactSecrets("auth failed for password s3cretPassw0rd")).toBe(
      `auth failed for password ${REDACTED_MARKER}`,
    );
  });

  it("ignores values too short to be keys, and counts registrations", () => {
    const short = registerSecret("abc");
    expect(hasSecrets()).toBe(false);
    expect(redactSecrets("abc abc")).toBe("abc abc");
    short();
    const a = registerSecret(KEY);
    const b = registerSecret(KEY);
    a();
    a(); // a second call does nothing
    expect(redactSecrets(KEY)).toBe(REDACTED_MARKER);
    b();
    expect(redactSecrets(KEY)).toBe(KEY);
    expect(hasSecrets()).toBe(false);
  });

  it("registers the credential variables of an environment, not the others", () => {
    undo.push(
      registerEnvSecrets({
        XAI_API_KEY: "xai-secret-value-1",
        TELEGRAM_BOT_TOKEN: "123456:telegram-secret",
        SLACK_WEBHOOK_URL: HOOK,
        HOME: "/home/someone-long",
        PATH: "/usr/local/bin:/usr/bin",
      }),
    );
    expect(redactSecrets(`xai-secret-value-1 123456:telegram-secret ${HOOK}`)).toBe(
      `${REDACTED_MARKER} ${REDACTED_MARKER} ${REDACTED_MARKER}`,
    );
    expect(redactSecrets("/home/someone-long /usr/local/bin:/usr/bin")).toBe(
      "/home/someone-long /usr/local/bin:/usr/bin",
    );
  });

  it("redacts extra values for one call without registering them", () => {
    expect(redactSecrets("token=one-off-secret-9", ["one-off-secret-9", undefined])).toBe(
      `token=${REDACTED_MARKER}`,
    );
    expect(redactSecrets("token=one-off-secret-9")).toBe("token=one-off-secret-9");
  });

  it("walks arrays and plain objects (keys too), keeps identity when nothing changed, survives cycles", () => {
    register(KEY);
    const clean = { a: ["x", { b: 1 }], n: null, buf: Buffer.from(KEY) };
    expect(redactValue(clean)).toBe(clean);
    const dirty: Record<string, unknown> = {
      msg: `401: ${KEY}`,
      nested: [{ [KEY]: KEY }],
      when: new Date(0),
    };
    dirty.self = dirty;
    const out = redactValue(dirty) as Record<string, unknown>;
    expect(out.msg).toBe(`401: ${REDACTED_MARKER}`);
    expect(out.nested).toEqual([{ [REDACTED_MARKER]: REDACTED_MARKER }]);
    expect(out.when).toBe(dirty.when);
    expect(out.self).toBe(out);
    expect(dirty.msg).toBe(`401: ${KEY}`); // the original is untouched
  });

  it("copies an error with its message and stack redacted, keeping its class", () => {
    register(KEY);
    class ProviderError extends Error {
      status = 401;
    }
    const original = new ProviderError(`invalid key ${KEY}`);
    const copy = redactError(original) as ProviderError;
    expect(copy).toBeInstanceOf(ProviderError);
    expect(copy.message).toBe(`invalid key ${REDACTED_MARKER}`);
    expect(copy.stack).not.toContain(KEY);
    expect(copy.status).toBe(401);
    expect(original.message).toContain(KEY);
    const clean = new Error("fine");
    expect(redactError(clean)).toBe(clean);
  });

  it("is linear on large adversarial inputs (near-misses of a long secret, no regex backtracking)", () => {
    const secret = `${"a".repeat(200)}Z`;
    register(secret, KEY, HOOK);
    // 8 MB of almost-matches: a quadratic scan would not finish within the test's timeout
    const text = `${"a".repeat(8_000_000)}Z${"sk-test-".repeat(100_000)}`;
    const out = redactSecrets(text);
    expect(out.length).toBe(text.length - secret.length + REDACTED_MARKER.length);
    expect(out.endsWith(`${REDACTED_MARKER}${"sk-test-".repeat(100_000)}`)).toBe(true);
  });
});

describe("the wrap pipeline redacts every result", () => {
  const tool = (execute: AnyAgentTool["execute"]): AnyAgentTool => ({
    name: "probe",
    label: "probe",
    description: "probe",
    parameters: Type.Object({}),
    execute,
  });

  it("in results, partial results and errors (thrown or returned)", async () => {
    register(KEY);
    const updates: unknown[] = [];
    const ok = wrapTool(
      tool(async (_id, _p, _s, onUpdate) => {
        onUpdate?.({ content: [{ type: "text", text: `progress ${KEY}` }], details: {} });
        return { content: [{ type: "text", text: `echo ${KEY}` }], details: { key: KEY } };
      }),
    );
    const result = await ok.execute("c1", {}, undefined, (p) => updates.push(p));
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(result.content).toEqual([{ type: "text", text: `echo ${REDACTED_MARKER}` }]);
    expect(JSON.stringify(updates)).not.toContain(KEY);
    expect(updates).toHaveLength(1);

    const failing = wrapTool(
      tool(async () => {
        throw new Error(`401 Unauthorized: incorrect API key provided: ${KEY}`);
      }),
    );
    const failed = await failing.execute("c2", {}, undefined);
    expect(failed.isError).toBe(true);
    expect(failed.details).toEqual({
      status: "error",
      tool: "probe",
      error: `401 Unauthorized: incorrect API key provided: ${REDACTED_MARKER}`,
    });
    expect(JSON.stringify(failed)).not.toContain(KEY);

    const plain = wrapTool(tool(async () => ({ leaked: KEY }) as never));
    expect(JSON.stringify(await plain.execute("c3", {}, undefined))).not.toContain(KEY);
  });
});

describe("credential URLs", () => {
  it("knows webhook URLs, URLs with a password and URLs with a token in the query", () => {
    expect(isCredentialUrl(HOOK)).toBe(true);
    expect(isCredentialUrl("https://discord.com/api/webhooks/123/abcDEF")).toBe(true);
    expect(isCredentialUrl("https://discordapp.com/api/v10/webhooks/123/abcDEF")).toBe(true);
    expect(isCredentialUrl("postgres://app:pw@db/app")).toBe(true);
    expect(isCredentialUrl("https://example.com/hook?token=abc")).toBe(true);
    expect(isCredentialUrl("https://example.com/hook?page=2")).toBe(false);
    expect(isCredentialUrl("https://discord.com/channels/1/2")).toBe(false);
    expect(isCredentialUrl("not a url")).toBe(false);
  });

  it("masks them in a document, and any URL under a key naming a webhook", () => {
    const doc = {
      channels: { slack: { webhookUrl: "https://example.com/any" }, webhook: { url: HOOK, retries: 2 } },
      list: ["https://discord.com/api/webhooks/1/x", "https://example.com/"],
      name: "kept",
    };
    expect(maskCredentialUrls(doc, "MASK")).toEqual({
      channels: { slack: { webhookUrl: "MASK" }, webhook: { url: "MASK", retries: 2 } },
      list: ["MASK", "https://example.com/"],
      name: "kept",
    });
  });

  it("finds the credentials of a configuration document", () => {
    const doc = {
      gateway: { url: "ws://127.0.0.1:18789", token: "gw-token-123456" },
      channels: { telegram: { botToken: "123:abc-telegram" }, webhook: { url: HOOK, retries: 3 } },
      models: [{ apiKey: "sk-in-config-1234" }, { name: "plain" }],
    };
    expect(secretsInDocument(doc).sort()).toEqual(
      ["123:abc-telegram", "gw-token-123456", HOOK, "sk-in-config-1234"].sort(),
    );
  });

  it("registerEnvSecrets registers a credential URL under any variable name", () => {
    undo.push(registerEnvSecrets({ ALERTS_HOOK: HOOK, SITE: "https://example.com/page-one" }));
    expect(redactSecrets(`${HOOK} https://example.com/page-one`)).toBe(
      `${REDACTED_MARKER} https://example.com/page-one`,
    );
  });
});
