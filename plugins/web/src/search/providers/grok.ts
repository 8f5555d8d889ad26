import { Type } from "@clawtools/core";
import { json, type SearchProvider } from "../types.js";

const Str = Type.Optional(Type.String());
const XaiResponse = Type.Object({
  output: Type.Array(
    Type.Object({
      type: Type.String(),
      content: Type.Optional(
        Type.Array(
          Type.Object({
            type: Type.String(),
            text: Str,
            annotations: Type.Optional(Type.Array(Type.Object({ type: Str, url: Str }))),
          }),
        ),
      ),
    }),
  ),
  citations: Type.Optional(Type.Array(Type.String())),
});

/** Grok through the xAI Responses API with the web_search tool. */
export const grok: SearchProvider = {
  id: "grok",
  order: 30,
  env: ["XAI_API_KEY"],
  needsKey: true,
  defaultBaseUrl: "https://api.x.ai/v1",
  async search(req, call) {
    const data = await json(
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
      XaiResponse,
    );
    const parts = data.output.filter((o) => o.type === "message").flatMap((o) => o.content ?? []);
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
