import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { ConfigError, parseSectionConfig, readSectionConfig } from "./config.js";

const Schema = Type.Object(
  {
    security: Type.Optional(Type.Union([Type.Literal("deny"), Type.Literal("full")])),
    max: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

describe("section configuration", () => {
  it("returns the validated, coerced value", () => {
    expect(parseSectionConfig("runtime", Schema, { security: "deny", max: "5" })).toEqual({
      security: "deny",
      max: 5,
    });
    expect(parseSectionConfig("runtime", Schema, undefined)).toEqual({});
  });

  it("names the section and every bad key", () => {
    let error: unknown;
    try {
      parseSectionConfig("runtime", Schema, { security: "open", extra: 1 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration for runtime:/);
    expect(message).toContain("extra");
    expect(message).toContain("security");
  });

  it("overlays options in code on ctx.config.<section>, key by key", () => {
    const ctx = { config: { runtime: { security: "full", max: 3 } } };
    expect(readSectionConfig(ctx, "runtime", Schema, { max: 9, security: undefined })).toEqual({
      security: "full",
      max: 9,
    });
    expect(() => readSectionConfig({ config: { runtime: "full" } }, "runtime", Schema)).toThrow(
      "Invalid configuration for runtime:\n  - root: must be an object",
    );
  });
});

describe("ConfigError identity", () => {
  it("is recognised by its marker, not by which copy of core made it", async () => {
    const { isConfigError } = await import("./config.js");
    expect(isConfigError(new ConfigError("x", ["  - a: b"]))).toBe(true);
    const foreign = Object.assign(new Error("x"), { [Symbol.for("clawtools.error.ConfigError")]: true });
    expect(isConfigError(foreign)).toBe(true);
    expect(isConfigError(new Error("x"))).toBe(false);
  });
});
