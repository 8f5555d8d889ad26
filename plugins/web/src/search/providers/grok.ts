import { json, type SearchProvider } from "../types.js";

interface XaiResponse {
  output?: Array<{
    type?: string;
    content?: Array<{ type?: string; text?: string; annotations?: Array<{ type?: string; url?: string }> }>;
  }>;
  citations?: string[];
}

/** Grok through the xAI Responses API with the web_search tool. */
export const grok: SearchProvider = {
  id: "grok",
  order: 30,
  env: ["XAI_API_KEY"],
  needsKey: true,
  defaultBaseUrl: "https://api.x.ai/v1",
  async search(req, call) {
    const data = await json<XaiResponse>(
      call,
      `${call.baseUrl.replace(/\/$/, "")}/responses`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${call.apiKey}`, "content-type": "application/json" },
        body: {
          model: "grok-4-1-fast",
          input: [{ role: "user", content: req.query }],
          tools: [{ type: "web_search" }],
        },
      },
      "Grok",
    );
    const parts = (data.output ?? []).filter((o) => o.type === "message").flatMap((o) => o.content ?? []);
    const content = parts
      .filter((p) => p.type === "output_text")
      .map((p) => p.text ?? "")
      .join("\n");
    const citations = [
      ...(data.citations ?? []),
      ...parts.flatMap((p) => (p.annotations ?? []).map((a) => a.url ?? "")),
    ].filter(Boolean);
    return { kind: "answer", content, citations: [...new Set(citations)] };
  },
};
