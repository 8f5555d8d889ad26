import { describe, expect, it } from "vitest";
import { cleanSchemaForGemini } from "./gemini.js";

describe("cleanSchemaForGemini: required with and without properties", () => {
  it("keeps required as it is on an object schema that has no properties, at the root and nested", () => {
    expect(cleanSchemaForGemini({ type: "object", required: ["path"] })).toEqual({
      type: "object",
      required: ["path"],
    });
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
        opts: { type: "object", description: "free-form", required: ["a", "b"] },
        list: { type: "array", items: { type: "object", required: ["id"] } },
      },
      required: ["opts"],
    });
  });

  it("drops an empty required list", () => {
    expect(cleanSchemaForGemini({ type: "object", required: [] })).toEqual({ type: "object" });
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
