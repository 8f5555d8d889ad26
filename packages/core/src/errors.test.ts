import { describe, expect, it } from "vitest";
import {
  isToolAuthorizationError,
  isToolInputError,
  isToolUnavailableError,
  ToolAuthorizationError,
  ToolInputError,
  ToolUnavailableError,
} from "./errors.js";

// A second copy of the errors module, as a second install of core would load it: vitest loads a
// module again, with its own classes, for a different query string.
async function secondCopy(): Promise<typeof import("./errors.js")> {
  return import(/* @vite-ignore */ `./errors.js?copy=${Date.now()}`);
}

describe("error identity", () => {
  it("survives two copies of core: guards and instanceof go by the Symbol.for marker", async () => {
    const other = await secondCopy();
    expect(other.ToolInputError).not.toBe(ToolInputError);
    const input = new other.ToolInputError("bad path");
    const auth = new other.ToolAuthorizationError("Tool restricted to owner senders.");
    const unavailable = new other.ToolUnavailableError("no workspace root");
    expect([isToolInputError(input), isToolAuthorizationError(input), isToolUnavailableError(input)]).toEqual(
      [true, false, false],
    );
    expect([isToolInputError(auth), isToolAuthorizationError(auth)]).toEqual([true, true]);
    expect(isToolUnavailableError(unavailable)).toBe(true);
    expect(input instanceof ToolInputError).toBe(true);
    expect(auth instanceof ToolInputError).toBe(true);
    expect(auth instanceof ToolAuthorizationError).toBe(true);
    expect(input instanceof ToolAuthorizationError).toBe(false);
    expect(unavailable instanceof ToolUnavailableError).toBe(true);
    expect(new ToolAuthorizationError("x") instanceof other.ToolInputError).toBe(true);
    expect([auth.status, input.status, auth.name]).toEqual([403, 400, "ToolAuthorizationError"]);
  });

  it("a subclass written elsewhere keeps ordinary instanceof", () => {
    class EditNoChange extends ToolInputError {}
    expect(new EditNoChange("same") instanceof EditNoChange).toBe(true);
    expect(new EditNoChange("same") instanceof ToolInputError).toBe(true);
    expect(new ToolInputError("other") instanceof EditNoChange).toBe(false);
    expect(isToolInputError(new EditNoChange("same"))).toBe(true);
    expect(isToolInputError(new Error("plain"))).toBe(false);
    expect(isToolInputError({ message: "duck" })).toBe(false);
  });
});
