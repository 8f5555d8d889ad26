import { describe, expect, it } from "vitest";
import { ModelConfigError, resolveModel } from "../src/resolve.js";

describe("resolveModel", () => {
  it("maps providers to wire formats, configuration first, then the providers' own variables", () => {
    const openai = resolveModel(
      { model: "openai/gpt-4o-mini" },
      { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://127.0.0.1:1/v1/" },
    );
    expect(openai.model).toMatchObject({
      api: "openai-completions",
      baseUrl: "http://127.0.0.1:1/v1",
      id: "gpt-4o-mini",
      provider: "openai",
    });
    expect(openai.apiKey).toBe("k");
    expect(openai.label).toBe("openai/gpt-4o-mini");
    const configured = resolveModel(
      { model: "openai/x", baseUrl: "http://h/v1", apiKey: "c" },
      { OPENAI_API_KEY: "k" },
    );
    expect([configured.model.baseUrl, configured.apiKey]).toEqual(["http://h/v1", "c"]);
    expect(resolveModel({ model: "anthropic/claude-x" }, { ANTHROPIC_API_KEY: "a" }).model).toMatchObject({
      api: "anthropic-messages",
      baseUrl: "https://api.anthropic.com",
    });
    // providers pi-ai lists take their models' own endpoint and their own key variable
    expect(resolveModel({ model: "xai/grok-2" }, { XAI_API_KEY: "x" })).toMatchObject({
      apiKey: "x",
      model: { api: "openai-completions", baseUrl: "https://api.x.ai/v1", provider: "xai" },
    });
    expect(resolveModel({ model: "google/gemini-x" }, { GEMINI_API_KEY: "g" })).toMatchObject({
      apiKey: "g",
      model: { api: "google-generative-ai" },
    });
    // an unknown provider is assumed OpenAI-compatible (Ollama, vLLM, LM Studio) at the URL one sets
    expect(resolveModel({ model: "ollama/llava", baseUrl: "http://127.0.0.1:11434/v1" }, {}).model.api).toBe(
      "openai-completions",
    );
  });

  it("refuses a spec that is not provider/model", () => {
    expect(() => resolveModel({ model: "gpt-4o" }, {})).toThrow(ModelConfigError);
    expect(() => resolveModel({ model: "openai/" }, {})).toThrow(
      'model must be "provider/model" (got "openai/")',
    );
  });
});
