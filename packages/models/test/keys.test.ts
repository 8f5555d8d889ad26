import { REDACTED_MARKER, redactSecrets } from "@clawtools/core/safety";
import { afterEach, describe, expect, it } from "vitest";
import { completeText, ModelCallError } from "../src/complete.js";
import { KNOWN_PROVIDERS, knownProvider } from "../src/providers.js";
import { ModelConfigError, resolveModel, withModel } from "../src/resolve.js";
import { echoKey401, type Loopback, loopback, refuse } from "./loopback.js";

const OPENAI_KEY = "sk-openai-only-0123456789";
const XAI_KEY = "xai-own-key-9876543210";
const servers: Loopback[] = [];
const serve = async (...args: Parameters<typeof loopback>) => {
  const s = await loopback(...args);
  servers.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const ask = (resolved: ReturnType<typeof resolveModel>) =>
  completeText(resolved, { content: [{ type: "text", text: "hi" }], maxTokens: 16 });

describe("a provider's key goes only to that provider", () => {
  it("refuses a model of another provider when only OPENAI_API_KEY is set, naming the variable to set", () => {
    const others = KNOWN_PROVIDERS.filter((p) => p !== "openai");
    expect(others.length).toBeGreaterThanOrEqual(14);
    for (const provider of others) {
      const wanted = knownProvider(provider)!.keyEnv[0]!;
      expect(() => resolveModel({ model: `${provider}/some-model` }, { OPENAI_API_KEY: OPENAI_KEY })).toThrow(
        new RegExp(`no API key for provider "${provider}": set ${wanted}\\b`),
      );
    }
    expect(() => resolveModel({ model: "xai/grok-2" }, { OPENAI_API_KEY: OPENAI_KEY })).toThrow(
      'xai/grok-2: no API key for provider "xai": set XAI_API_KEY (or XAI_BASE_URL for an endpoint of your own)',
    );
    // a provider clawtools does not know has no public endpoint to fall back to
    expect(() => resolveModel({ model: "ollama/llava" }, { OPENAI_API_KEY: OPENAI_KEY })).toThrow(
      ModelConfigError,
    );
    expect(() => resolveModel({ model: "ollama/llava" }, { OPENAI_API_KEY: OPENAI_KEY })).toThrow(
      /set OLLAMA_BASE_URL to its OpenAI-compatible endpoint \(and OLLAMA_API_KEY/,
    );
  });

  it("sends each provider's own key to its own host, and the OpenAI key to none of the others", async () => {
    const openai = await serve();
    const xai = await serve();
    const env = {
      OPENAI_API_KEY: OPENAI_KEY,
      OPENAI_BASE_URL: `${openai.base}/v1`,
      XAI_API_KEY: XAI_KEY,
      XAI_BASE_URL: `${xai.base}/v1`,
    };
    expect((await ask(resolveModel({ model: "xai/grok-2" }, env))).text).toBe("ok");
    expect((await ask(resolveModel({ model: "openai/gpt-4o-mini" }, env))).text).toBe("ok");
    expect(xai.seen.map((s) => [s.url, s.headers.authorization])).toEqual([
      ["/v1/chat/completions", `Bearer ${XAI_KEY}`],
    ]);
    expect(openai.seen.map((s) => [s.url, s.headers.authorization])).toEqual([
      ["/v1/chat/completions", `Bearer ${OPENAI_KEY}`],
    ]);
    expect(xai.wire()).not.toContain(OPENAI_KEY);
    expect(openai.wire()).not.toContain(XAI_KEY);
    // without XAI_BASE_URL the key goes to xAI's own endpoint
    const own = resolveModel({ model: "xai/grok-2" }, { OPENAI_API_KEY: OPENAI_KEY, XAI_API_KEY: XAI_KEY });
    expect([own.model.baseUrl, own.apiKey]).toEqual(["https://api.x.ai/v1", XAI_KEY]);
  });

  it("never sends the OpenAI key to an endpoint set for any other provider (every wire format)", async () => {
    for (const provider of KNOWN_PROVIDERS.filter((p) => p !== "openai")) {
      const stand = await serve(refuse);
      const { baseEnv, api } = knownProvider(provider)!;
      const resolved = resolveModel(
        { model: `${provider}/some-model` },
        { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: "http://127.0.0.1:9/v1", [baseEnv]: stand.base },
      );
      expect(resolved.apiKey).toBeUndefined();
      expect(resolved.model.baseUrl).toBe(stand.base);
      await expect(ask(resolved), `${provider} (${api})`).rejects.toThrow(ModelCallError);
      expect(stand.seen.length, provider).toBeGreaterThan(0);
      expect(stand.wire(), provider).not.toContain(OPENAI_KEY);
    }
    // a provider clawtools does not know, pointed at a server of one's own, gets no key at all
    const local = await serve();
    const ollama = resolveModel(
      { model: "ollama/llava" },
      { OPENAI_API_KEY: OPENAI_KEY, OLLAMA_BASE_URL: `${local.base}/v1` },
    );
    expect((await ask(ollama)).text).toBe("ok");
    expect(local.wire()).not.toContain(OPENAI_KEY);
  });

  it("keeps a spec's configured key and endpoint with its own provider when the model is overridden", async () => {
    const configured = await serve();
    const xai = await serve();
    const spec = {
      model: "openai/gpt-4o-mini",
      apiKey: "sk-configured-for-openai",
      baseUrl: `${configured.base}/v1`,
    };
    const env = { XAI_BASE_URL: `${xai.base}/v1` };
    expect(withModel(spec, "openai/gpt-4.1")).toEqual({ ...spec, model: "openai/gpt-4.1" });
    expect(withModel(spec, "xai/grok-2")).toEqual({ model: "xai/grok-2" });
    await ask(resolveModel(withModel(spec, "xai/grok-2"), env));
    expect(xai.seen).toHaveLength(1);
    expect(xai.wire()).not.toContain("sk-configured-for-openai");
    expect(configured.seen).toHaveLength(0);
    expect(() => withModel(spec, "grok-2")).toThrow(ModelConfigError);
  });

  it("takes the key out of a provider's error that echoes it", async () => {
    const echo = await serve(echoKey401);
    const resolved = resolveModel(
      { model: "openai/gpt-4o-mini" },
      { OPENAI_API_KEY: "sk-echoed-back-5555555", OPENAI_BASE_URL: `${echo.base}/v1` },
    );
    const error = await ask(resolved).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(echo.wire()).toContain("sk-echoed-back-5555555"); // the provider did get (and echo) it
    expect((error as Error).message).not.toContain("sk-echoed-back-5555555");
    expect((error as Error).message).toContain(REDACTED_MARKER);
    // the failure names what answered, so the reader knows what to fix
    expect((error as Error).message).toMatch(
      new RegExp(`^Model call failed \\(provider openai, base URL ${echo.base}/v1, model gpt-4o-mini\\): `),
    );
    // and the key is now a secret of the process: redacted wherever it would surface
    expect(redactSecrets("key sk-echoed-back-5555555")).toBe(`key ${REDACTED_MARKER}`);
  });
});
