import { describe, expect, it } from "vitest";
import { cleanSchemaForGemini } from "./gemini.js";

describe("cleanSchemaForGemini: required without properties", () => {
  it("drops required on an object schema that has no properties, at the root and nested", () => {
    expect(cleanSchemaForGemini({ type: "object", required: ["path"] })).toEqual({ type: "object" });
    expect(
      cleanSchemaForGemini({
        type: "object",
        properties: {
          opts: { type: "object", description: "free-form", required: ["a", "b"] },
          list: { type: "array", items: { type: "object", required: ["id"] } },
        },
        required: ["opts"],
      }),
    ).toEqual({
      type: "object",
      properties: {
        opts: { type: "object", description: "free-form" },
        list: { type: "array", items: { type: "object" } },
      },
      required: ["opts"],
    });
  });

  it("keeps the required keys that are properties and drops the rest", () => {
    expect(
      cleanSchemaForGemini({
        type: "object",
        properties: { path: { type: "string" } },
        required: ["path", "ghost"],
      }),
    ).toEqual({ type: "object", properties: { path: { type: "string" } }, required: ["path"] });
  });
});
