import { Type as Type1 } from "typebox";
import { Compile } from "typebox/compile";
import { describe, expect, it } from "vitest";
import { emptyObjectPasses, quickCheckFor } from "./schema-check.js";
import { stringEnum, Type } from "./schema.js";
import { isSchemaCompilerLoaded, schemaIssues, validateToolArguments } from "./validate.js";

// A read-like schema: what a typical tool declares.
const readSchema = Type.Object({
  path: Type.String({ description: "Path to the file" }),
  offset: Type.Optional(Type.Number({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000 })),
});

describe("the quick check before the schema compiler", () => {
  // Runs first in this file: vitest gives each test file fresh modules, so nothing has loaded
  // the compiler yet.
  it("validates a typical call without loading the compiler, and loads it to explain a bad one", () => {
    expect(
      validateToolArguments({ name: "read", parameters: readSchema }, { path: "a.txt", limit: "20" }),
    ).toEqual({ path: "a.txt", limit: 20 });
    expect(isSchemaCompilerLoaded()).toBe(false);
    expect(() =>
      validateToolArguments({ name: "read", parameters: readSchema }, { path: "a.txt", limit: 0 }),
    ).toThrow(
      'Validation failed for tool "read":\n  - limit: must be >= 1\n\nReceived arguments:\n{\n  "path": "a.txt",\n  "limit": 0\n}',
    );
    expect(isSchemaCompilerLoaded()).toBe(true);
  });

  it("supports the schemas tools usually declare (TypeBox 0.34, TypeBox 1.x, hand-written)", () => {
    const supported = [
      readSchema,
      Type.Object({ action: stringEnum(["list", "kill"]), ids: Type.Optional(Type.Array(Type.String())) }),
      Type.Object({
        mode: Type.Union([Type.Literal("a"), Type.Literal("b")]),
        n: Type.Optional(Type.Boolean()),
      }),
      Type1.Object({ n: Type1.Integer(), s: Type1.Optional(Type1.String({ maxLength: 3 })) }),
      Type.Object({ env: Type.Optional(Type.Record(Type.String(), Type.String())) }),
      {
        type: "object",
        properties: {
          url: { type: "string", pattern: "^https?://" },
          env: { type: "object", additionalProperties: { type: "string" } },
        },
        required: ["url"],
        additionalProperties: false,
      },
    ];
    for (const schema of supported) expect(quickCheckFor(schema)).not.toBeNull();
    // exec's shape: a string map (Type.Record → patternProperties) is answered without the compiler
    const env = Type.Object({
      command: Type.String(),
      env: Type.Optional(Type.Record(Type.String(), Type.String())),
    });
    expect(quickCheckFor(env)!({ command: "ls", env: { A: "1" } })).toBe(true);
    expect(quickCheckFor(env)!({ command: "ls", env: { A: 1 } })).toBe(false);
    for (const schema of [
      { type: "object", properties: { a: { $ref: "#/$defs/A" } } },
      { type: "object", properties: { a: { type: "string", format: "uri" } } },
      { type: "object", properties: { a: { enum: [{ deep: 1 }] } } },
    ]) {
      expect(quickCheckFor(schema)).toBeNull();
    }
  });

  it("never accepts what the compiler rejects (differential over schemas and values)", () => {
    const schemas: object[] = [
      readSchema,
      Type1.Object({ n: Type1.Integer(), s: Type1.Optional(Type1.String({ minLength: 2, maxLength: 3 })) }),
      {
        type: "object",
        properties: {
          tags: { type: "array", items: { type: "string", enum: ["x", "y"] }, minItems: 1, maxItems: 2 },
          k: {
            anyOf: [
              { type: "string", const: "on" },
              { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 5 },
            ],
          },
          one: { oneOf: [{ type: "number" }, { type: "integer" }] },
          t: { type: ["string", "null"], pattern: "^\\p{Lu}" },
          o: {
            type: "object",
            properties: { d: { type: "boolean" } },
            required: ["d"],
            additionalProperties: false,
          },
        },
        required: ["tags"],
        additionalProperties: { type: "number" },
      },
      { type: "object", properties: { toString: { type: "string" }, constructor: { type: "number" } } },
      Type.Object({
        env: Type.Optional(Type.Record(Type.String(), Type.String())),
        path: Type.Optional(Type.String()),
      }),
      Type1.Object({ env: Type1.Record(Type1.String(), Type1.Number()) }),
      {
        type: "object",
        patternProperties: { "^x_": { type: "number" }, "^\\p{Lu}": { type: "string" } },
        additionalProperties: false,
      },
    ];
    const values: unknown[] = [
      {},
      { path: "a" },
      { path: 1 },
      { path: "a", offset: 0.5 },
      { path: "a", offset: Number.NaN },
      { path: "a", limit: 1.5 },
      { path: "a", limit: 2001 },
      { path: "a", extra: true },
      { n: 1 },
      { n: 1, s: "ab" },
      { n: 1, s: "a" },
      { n: 1, s: "😀😀" },
      { n: 1, s: "😀😀😀😀" },
      { n: 1.5, s: "abc" },
      { tags: ["x"] },
      { tags: [] },
      { tags: ["x", "y", "x"] },
      { tags: ["z"] },
      { tags: ["x"], k: "on" },
      { tags: ["x"], k: "off" },
      { tags: ["x"], k: 5 },
      { tags: ["x"], k: 4.9 },
      { tags: ["x"], one: 1 },
      { tags: ["x"], one: 1.5 },
      { tags: ["x"], t: null },
      { tags: ["x"], t: "Émile" },
      { tags: ["x"], t: "émile" },
      { tags: ["x"], o: { d: true } },
      { tags: ["x"], o: { d: true, e: 1 } },
      { tags: ["x"], o: [] },
      { tags: ["x"], extra: 2 },
      { tags: ["x"], extra: "2" },
      { toString: "s" },
      { constructor: 1 },
      { constructor: "1" },
      JSON.parse('{"__proto__": {"x": 1}, "path": "a"}'),
      { path: "a", limit: undefined },
      { env: { A: "1", B: "2" } },
      { env: { A: 1 } },
      { env: {} },
      { env: [] },
      { env: { A: "1" }, path: "p" },
      { x_a: 1, Éa: "s" },
      { x_a: "1" },
      { y: 1 },
      { Éa: 2 },
    ];
    let agreedTrue = 0;
    for (const schema of schemas) {
      const quick = quickCheckFor(schema);
      expect(quick).not.toBeNull();
      const compiled = Compile(schema as never);
      for (const value of values) {
        const fast = quick!(value);
        const slow = compiled.Check(value);
        if (fast) {
          expect({ schema, value, slow }).toEqual({ schema, value, slow: true });
          agreedTrue++;
        }
      }
    }
    expect(agreedTrue).toBeGreaterThan(10);
  });
});

describe("an empty object against a schema's root", () => {
  const nested = Type.Object({
    exec: Type.Optional(Type.Object({ timeoutSec: Type.Integer({ minimum: 1 }), shell: Type.String() })),
    limits: Type.Optional(Type.Record(Type.String(), Type.Number())),
  });
  it("passes an object schema with nothing required without building a check, as the compiler does", () => {
    const settled = [
      nested,
      Type.Object({}, { additionalProperties: false }),
      Type1.Object({ a: Type1.Optional(Type1.String()) }),
      { type: "object", properties: { a: { $ref: "#/$defs/A" } }, required: [], minProperties: 0 },
    ];
    for (const schema of settled) {
      expect(emptyObjectPasses(schema)).toBe(true);
      expect(Compile(schema as never).Check({})).toBe(true);
      expect(schemaIssues(schema, {})).toEqual([]);
    }
  });

  it("leaves anything that could reject {} to the usual check, which names the problem", () => {
    const unsure = [
      Type.Object({ command: Type.String() }),
      { type: "object", minProperties: 1 },
      { type: "object", not: { maxProperties: 0 } },
      { type: "object", const: { a: 1 } },
      { properties: {} },
    ];
    for (const schema of unsure) expect(emptyObjectPasses(schema)).toBe(false);
    expect(schemaIssues(Type.Object({ command: Type.String() }), {})).toEqual(["  - command: is required"]);
    expect(schemaIssues(Type.Object({ a: Type.Optional(Type.String()) }), { a: 1 })).toEqual([
      "  - a: must be string",
    ]);
  });
});
