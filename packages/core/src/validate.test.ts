import { Type as Type1 } from "typebox";
import { describe, expect, it } from "vitest";
import { Type } from "./schema.js";
import { coerceToSchema, validateToolArguments } from "./validate.js";

const tb034 = Type.Object({
  path: Type.String(),
  limit: Type.Optional(Type.Number({ default: 100 })),
  tags: Type.Optional(Type.Array(Type.String())),
  flag: Type.Optional(Type.Boolean()),
});
const tb1 = Type1.Object({ n: Type1.Integer(), s: Type1.String() });
const plain = {
  type: "object",
  properties: { url: { type: "string" }, count: { type: "integer", minimum: 1, maximum: 10 } },
  required: ["url"],
  additionalProperties: false,
};

describe("validateToolArguments", () => {
  it("coerces numeric strings, single strings to arrays and applies defaults (TypeBox 0.34)", () => {
    const args = validateToolArguments(
      { name: "t", parameters: tb034 },
      { path: 42, tags: "a", flag: "true" },
    );
    expect(args).toEqual({ path: "42", limit: 100, tags: ["a"], flag: true });
  });

  it("accepts TypeBox 1.x schemas and JSON-string arguments", () => {
    expect(validateToolArguments({ name: "t", parameters: tb1 }, '{"n":"7","s":3}')).toEqual({
      n: 7,
      s: "3",
    });
  });

  it("names every failing path, the expectation and the received arguments", () => {
    let message = "";
    try {
      validateToolArguments({ name: "web", parameters: plain }, { count: 20, extra: true });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('Validation failed for tool "web":');
    expect(message).toContain("  - url: is required");
    expect(message).toContain("  - count: must be <= 10");
    expect(message).toContain("must not have additional properties (extra)");
    expect(message).toContain('Received arguments:\n{\n  "count": 20,\n  "extra": true\n}');
  });

  it("refuses a non-object payload", () => {
    expect(() => validateToolArguments({ name: "t", parameters: plain }, "[1,2]")).toThrow(
      /root: must be an object/,
    );
  });

  it("does not mutate the caller's arguments", () => {
    const raw = { path: "x" };
    validateToolArguments({ name: "t", parameters: tb034 }, raw);
    expect(raw).toEqual({ path: "x" });
  });

  it("leaves non-numeric strings alone so the check reports them", () => {
    expect(coerceToSchema({ type: "number" }, "abc")).toBe("abc");
    expect(coerceToSchema({ type: "integer" }, "1.5")).toBe("1.5");
    expect(coerceToSchema({ type: ["string", "null"] }, null)).toBe(null);
  });
});

describe("validation errors stay short", () => {
  it("echoes at most 2,000 characters of the received arguments", () => {
    const tool = {
      name: "t",
      parameters: Type.Object({ path: Type.String() }, { additionalProperties: false }),
    };
    let message = "";
    try {
      validateToolArguments(tool, { path: "x".repeat(1_000_000), extra: 1 });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("must not have additional properties (extra)");
    expect(message.length).toBeLessThan(2_600);
    expect(message).toMatch(/… \(\d+ more characters not shown\)$/);
  });
});
