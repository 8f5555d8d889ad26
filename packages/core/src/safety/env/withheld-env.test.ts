import { describe, expect, it } from "vitest";
import { sanitizeEnv } from "./env.js";
import { withheldEnvKeys, withholdEnv } from "./withheld-env.js";

describe("withholdEnv", () => {
  it("leaves the withheld variables out of what sanitizeEnv passes on, until undone", () => {
    const inherited = { PGPASSWORD: "pw", OPENAI_API_KEY: "sk", HOME: "/home/u" };
    const undo = withholdEnv(["PGPASSWORD", "openai_api_key"]);
    try {
      expect(withheldEnvKeys()).toEqual(expect.arrayContaining(["OPENAI_API_KEY", "PGPASSWORD"]));
      expect(sanitizeEnv(inherited, undefined)).toEqual({ HOME: "/home/u" });
      // a call may still set one of its own on purpose: only the inherited value is withheld
      expect(sanitizeEnv(inherited, { OPENAI_API_KEY: "mine" })).toEqual({
        HOME: "/home/u",
        OPENAI_API_KEY: "mine",
      });
    } finally {
      undo();
    }
    expect(sanitizeEnv(inherited, undefined)).toEqual(inherited);
  });
});
