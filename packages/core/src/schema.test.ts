import { describe, expect, it } from "vitest";
import { checkToolSchema, optionalStringEnum, stringEnum, Type } from "./schema.js";

describe("stringEnum", () => {
  it("emits a flat string enum, never a union", () => {
    const schema = stringEnum(["markdown", "text"], { description: "Extraction mode", default: "markdown" });
    expect(JSON.parse(JSON.stringify(schema))).toEqual({
      type: "string",
      enum: ["markdown", "text"],
      description: "Extraction mode",
      default: "markdown",
    });
  });

  it("optionalStringEnum leaves the property out of required", () => {
    const schema = Type.Object({ mode: optionalStringEnum(["a", "b"]), path: Type.String() });
    expect(schema.required).toEqual(["path"]);
    expect(checkToolSchema(schema)).toEqual([]);
  });
});

describe("checkToolSchema", () => {
  it("accepts a TypeBox object and a hand-written schema", () => {
    expect(checkToolSchema(Type.Object({ path: Type.String() }))).toEqual([]);
    expect(checkToolSchema({ type: "object", properties: { q: { type: "string" } } })).toEqual([]);
  });

  it("reports a root that is not an object with properties", () => {
    expect(checkToolSchema({ type: "string" }).map((i) => i.message)).toEqual([
      'root schema must have type "object"',
      "root schema must have properties",
    ]);
  });

  it("reports null variants and a property named format; takes unions providers can be given", () => {
    const schema = Type.Object({
      mode: Type.Union([Type.Literal("a"), Type.Literal("b")]),
      maybe: Type.Union([Type.String(), Type.Null()]),
      format: Type.String(),
      typed: { type: ["string", "null"] } as never,
    });
    const issues = checkToolSchema(schema);
    expect(issues.filter((i) => i.path === "/properties/mode")).toEqual([]);
    expect(issues).toContainEqual({
      path: "/properties/maybe/anyOf/1",
      message: "null variants are not allowed; use Type.Optional instead",
    });
    expect(issues).toContainEqual({
      path: "/properties/format",
      message: 'a property named "format" is not allowed',
    });
    expect(issues).toContainEqual({
      path: "/properties/typed",
      message: "null variants are not allowed; use Type.Optional instead",
    });
    expect(checkToolSchema({ type: "object", properties: {}, oneOf: [] })).toEqual([
      { path: "", message: "oneOf has no variants: nothing can match" },
    ]);
  });

  it("looks inside arrays and nested objects", () => {
    const schema = Type.Object({
      edits: Type.Array(Type.Object({ x: { type: ["string", "null"] } as never })),
    });
    expect(checkToolSchema(schema).map((i) => i.path)).toEqual(["/properties/edits/items/properties/x"]);
  });

  it("takes JSON Schema 2020-12 composition that folds, and names what cannot", () => {
    const contact = {
      type: "object",
      properties: { phone: { type: "string" }, email: { type: "string" } },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { phone: { const: "" } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if / then / else
      then: { required: ["email"] },
    };
    expect(checkToolSchema(contact)).toEqual([]);
    expect(
      checkToolSchema({
        type: "object",
        properties: { a: { type: "string" } },
        anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "string" }],
      }),
    ).toEqual([
      {
        path: "/anyOf/1",
        message:
          "this anyOf variant is a string, but a tool's arguments are always an object: make every variant an object",
      },
    ]);
    expect(
      checkToolSchema({
        type: "object",
        properties: { n: { allOf: [{ type: "string" }, { type: "number" }] } },
      }),
    ).toEqual([
      { path: "/properties/n", message: 'allOf joins a "string" and a "number": no value is both' },
    ]);
  });
});
