import { describe, expect, it } from "vitest";
import { ToolInputError } from "./errors.js";
import {
  readNumberParam,
  readParamRaw,
  readStringArrayParam,
  readStringOrNumberParam,
  readStringParam,
} from "./params.js";

describe("readParamRaw", () => {
  it("falls back from camelCase to snake_case", () => {
    expect(readParamRaw({ file_path: "a.txt" }, "filePath")).toBe("a.txt");
    expect(readParamRaw({ filePath: "b", file_path: "a" }, "filePath")).toBe("b");
    expect(readParamRaw({}, "filePath")).toBeUndefined();
  });
});

describe("readStringParam", () => {
  it("trims by default and can keep whitespace", () => {
    expect(readStringParam({ path: "  a.txt \n" }, "path")).toBe("a.txt");
    expect(readStringParam({ path: "  a " }, "path", { trim: false })).toBe("  a ");
  });

  it("treats empty strings as missing unless allowEmpty", () => {
    expect(readStringParam({ path: "   " }, "path")).toBeUndefined();
    expect(readStringParam({ content: "" }, "content", { allowEmpty: true })).toBe("");
    expect(() => readStringParam({ path: "" }, "path", { required: true })).toThrow("path required");
  });

  it("throws ToolInputError with the label", () => {
    try {
      readStringParam({}, "command", { required: true, label: "Command" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as ToolInputError).message).toBe("Command required");
      expect((error as ToolInputError).status).toBe(400);
    }
  });

  it("coerces numbers to strings and refuses other types", () => {
    expect(readStringParam({ id: 42 }, "id")).toBe("42");
    expect(readStringParam({ id: { a: 1 } }, "id")).toBeUndefined();
    expect(() => readStringParam({ id: true }, "id", { required: true })).toThrow("id required");
  });

  it("reads the snake_case spelling", () => {
    expect(readStringParam({ old_text: "x" }, "oldText")).toBe("x");
  });
});

describe("readNumberParam", () => {
  it("accepts numbers and numeric strings", () => {
    expect(readNumberParam({ n: 5 }, "n")).toBe(5);
    expect(readNumberParam({ n: " 12.5 " }, "n")).toBe(12.5);
    expect(readNumberParam({ n: "12px" }, "n")).toBe(12);
    expect(readNumberParam({ n: "12px" }, "n", { strict: true })).toBeUndefined();
  });

  it("truncates with integer and reports missing", () => {
    expect(readNumberParam({ max_chars: "9.9" }, "maxChars", { integer: true })).toBe(9);
    expect(readNumberParam({ n: Number.NaN }, "n")).toBeUndefined();
    expect(() => readNumberParam({ n: "abc" }, "n", { required: true })).toThrow("n required");
  });
});

describe("readStringArrayParam", () => {
  it("wraps a single string and cleans arrays", () => {
    expect(readStringArrayParam({ urls: "https://a" }, "urls")).toEqual(["https://a"]);
    expect(readStringArrayParam({ urls: [" a ", "", 3, null, "b"] }, "urls")).toEqual(["a", "3", "b"]);
    expect(readStringArrayParam({ urls: [] }, "urls")).toBeUndefined();
    expect(() => readStringArrayParam({ urls: ["  "] }, "urls", { required: true })).toThrow("urls required");
  });
});

describe("readStringOrNumberParam", () => {
  it("coerces numbers to strings", () => {
    expect(readStringOrNumberParam({ thread_id: 123 }, "threadId")).toBe("123");
    expect(readStringOrNumberParam({ threadId: " t1 " }, "threadId")).toBe("t1");
    expect(() => readStringOrNumberParam({}, "threadId", { required: true })).toThrow("threadId required");
  });
});
