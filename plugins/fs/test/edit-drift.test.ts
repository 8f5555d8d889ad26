import { describe, expect, it } from "vitest";
import { createEditTool, createMemoryBridge } from "../src/index.js";
import { text } from "./helpers.js";

const setup = (content: string) => {
  const bridge = createMemoryBridge({ "f.txt": content });
  return {
    edit: createEditTool({ root: "/workspace", bridge }),
    read: () => bridge.files.get("/workspace/f.txt")!.toString(),
  };
};

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected the edit to fail");
    },
    (error: Error) => error.message,
  );

describe("edit: indentation and spacing drift", () => {
  it("applies an oldText indented uniformly shallower than the file, re-indenting newText", async () => {
    const { edit, read } = setup(
      "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        pass\n",
    );
    const r = await edit.execute("c", {
      path: "f.txt",
      oldText: "def f(self):\n    return 1\n",
      newText: "def f(self):\n    # doubled\n    return 2\n",
    });
    expect(read()).toBe(
      "class A:\n    def f(self):\n        # doubled\n        return 2\n\n    def g(self):\n        pass\n",
    );
    expect(text(r)).toBe(
      "Successfully replaced 1 block(s) in f.txt.\nApplied with indentation drift: the file has the lines of oldText 4 spaces deeper; newText was re-indented to match.",
    );
    expect(r.details).toMatchObject({ drift: [{ edit: 0, kind: "indentation", detail: "4 spaces deeper" }] });
  });

  it("applies an oldText indented uniformly deeper than the file, blank lines included", async () => {
    const { edit, read } = setup("if x:\n  y = 1\n\n  z = 2\nend\n");
    const r = await edit.execute("c", {
      path: "f.txt",
      edits: [
        { oldText: "    y = 1\n\n    z = 2", newText: "    y = 10\n\n    z = 20" },
        { oldText: "end", newText: "done" },
      ],
    });
    expect(read()).toBe("if x:\n  y = 10\n\n  z = 20\ndone\n");
    expect(text(r)).toBe(
      "Successfully replaced 2 block(s) in f.txt.\nApplied with indentation drift: the file has the lines of edits[0].oldText 2 spaces shallower; newText was re-indented to match.",
    );
  });

  it("applies an oldText whose runs of spaces inside a line differ, saying so", async () => {
    const { edit, read } = setup("const  total =   a + b;\nkeep   this\n");
    const r = await edit.execute("c", {
      path: "f.txt",
      oldText: "const total = a + b;",
      newText: "const total = a - b;",
    });
    // the file's runs of spaces are kept: each word lands at the column it had
    expect(read()).toBe("const  total =   a - b;\nkeep   this\n");
    expect(text(r)).toBe(
      "Successfully replaced 1 block(s) in f.txt.\nApplied with spacing drift: oldText matched lines whose runs of spaces differ; newText follows the file's spacing.",
    );
    expect(r.details).toMatchObject({
      drift: [{ edit: 0, kind: "spacing", detail: "runs of spaces inside lines" }],
    });
  });

  it("keeps CRLF and tab indentation when re-indenting", async () => {
    const { edit, read } = setup("func main() {\r\n\t\tif ok {\r\n\t\t\treturn\r\n\t\t}\r\n}\r\n");
    const r = await edit.execute("c", {
      path: "f.txt",
      oldText: "\tif ok {\n\t\treturn\n\t}",
      newText: "\tif ok {\n\t\tlog()\n\t\treturn\n\t}",
    });
    expect(read()).toBe("func main() {\r\n\t\tif ok {\r\n\t\t\tlog()\r\n\t\t\treturn\r\n\t\t}\r\n}\r\n");
    expect(r.details).toMatchObject({ drift: [{ edit: 0, kind: "indentation", detail: "1 tab deeper" }] });
  });

  it("refuses a drift that matches more than one place, changing nothing", async () => {
    const original = "a:\n  x()\nb:\n    x()\n";
    const { edit, read } = setup(original);
    expect(
      await failure(edit.execute("c", { path: "f.txt", oldText: "      x()\n", newText: "y()\n" })),
    ).toBe(
      [
        "Found 2 places in f.txt that match the text once indentation is ignored. Please provide more context to make it unique.",
        "  candidate 1 at line 2:",
        "    1 | a:",
        "  > 2 |   x()",
        "    3 | b:",
        "  candidate 2 at line 4:",
        "    3 | b:",
        "  > 4 |     x()",
      ].join("\n"),
    );
    const spaced = setup("f(a,  b)\nf(a,   b)\n");
    expect(
      await failure(
        spaced.edit.execute("c", {
          path: "f.txt",
          edits: [
            { oldText: "f(a, b)", newText: "g()" },
            { oldText: "zz", newText: "" },
          ],
        }),
      ),
    ).toBe(
      [
        "Found 2 places in f.txt that match edits[0] once spacing is ignored. Please provide more context to make it unique.",
        "  candidate 1 at line 1:",
        "  > 1 | f(a,  b)",
        "    2 | f(a,   b)",
        "  candidate 2 at line 2:",
        "    1 | f(a,  b)",
        "  > 2 | f(a,   b)",
      ].join("\n"),
    );
    expect(read()).toBe(original);
  });
});

describe("edit: failure hints name the real mismatch", () => {
  const hintOf = (message: string) =>
    message
      .split("\n")
      .filter((line) => line.startsWith("    hint: "))
      .map((line) => line.slice("    hint: ".length));

  it("a line that matches exactly points at the oldText line that does not", async () => {
    const { edit } = setup("function f() {\n  const alpha = compute(a, b);\n  return alpha;\n}\n");
    const message = await failure(
      edit.execute("c", {
        path: "f.txt",
        oldText: "  const alpha = compute(a, b);\n  return beta;",
        newText: "",
      }),
    );
    expect(message).toContain(
      [
        "  near line 2 (100% match):",
        '    expected: "  const alpha = compute(a, b);"',
        '    found:    "  const alpha = compute(a, b);"',
      ].join("\n"),
    );
    expect(hintOf(message)[0]).toBe(
      "this line matches; oldText line 2 differs from file line 3: first difference at column 10",
    );
    expect(message).not.toContain("Unicode normalization");
  });

  it("spacing, indentation, trailing whitespace and typographic characters are told apart", async () => {
    const { edit } = setup("let  x = compute(1);\nlet y = 2;\n");
    // a space-run drift plus another difference: not applied, and the hint names the spacing
    const message = await failure(
      edit.execute("c", { path: "f.txt", oldText: "let x = compute(1);\nlet y = 3;", newText: "" }),
    );
    expect(hintOf(message)[0]).toBe(
      "spacing inside the line differs (expected 1 space at column 4, found 2 spaces)",
    );
    const typo = setup("say(“hello world”);\nnext();\n");
    const typoMessage = await failure(
      typo.edit.execute("c", { path: "f.txt", oldText: 'say("hello world!");', newText: "" }),
    );
    expect(hintOf(typoMessage)[0]).toBe('first difference at column 5 ("“" is a typographic character)');
    const shifted = setup("    value = compute(total);\n");
    const both = await failure(
      shifted.edit.execute("c", { path: "f.txt", oldText: "  value = compute(totals);", newText: "" }),
    );
    expect(hintOf(both)[0]).toBe(
      "first difference at column 3; indentation differs too (expected 2 spaces, found 4 spaces)",
    );
  });
});

describe("edit: replace_all", () => {
  it("replaces every occurrence with Claude Code's replace_all, and refuses duplicates without it", async () => {
    const { edit, read } = setup("foo(1);\nfoo(2);\nbar(foo);\n");
    expect(
      await failure(edit.execute("c", { file_path: "f.txt", old_string: "foo", new_string: "baz" })),
    ).toBe(
      [
        "Found 3 occurrences of the text in f.txt. The text must be unique. Please provide more context to make it unique.",
        "  candidate 1 at line 1:",
        "  > 1 | foo(1);",
        "    2 | foo(2);",
        "  candidate 2 at line 2:",
        "    1 | foo(1);",
        "  > 2 | foo(2);",
        "    3 | bar(foo);",
        "  candidate 3 at line 3:",
        "    2 | foo(2);",
        "  > 3 | bar(foo);",
      ].join("\n"),
    );
    const r = await edit.execute("c", {
      file_path: "f.txt",
      old_string: "foo",
      new_string: "baz",
      replace_all: true,
    });
    expect(text(r)).toBe("Successfully replaced 3 block(s) in f.txt.");
    expect(read()).toBe("baz(1);\nbaz(2);\nbar(baz);\n");
  });

  it("replaceAll per edit or for the call, beside unique edits", async () => {
    const { edit, read } = setup("a = old;\nb = old;\nunique line\n");
    const r = await edit.execute("c", {
      path: "f.txt",
      edits: [
        { oldText: "old", newText: "new", replaceAll: true },
        { oldText: "unique line", newText: "changed line" },
      ],
    });
    expect(text(r)).toBe("Successfully replaced 3 block(s) in f.txt.");
    expect(read()).toBe("a = new;\nb = new;\nchanged line\n");
    const call = setup("x x x\n");
    await call.edit.execute("c", { path: "f.txt", oldText: "x", newText: "y", replaceAll: true });
    expect(call.read()).toBe("y y y\n");
    // every occurrence must still be disjoint from the other edits
    const overlap = setup("ab ab\n");
    expect(
      await failure(
        overlap.edit.execute("c", {
          path: "f.txt",
          edits: [
            { oldText: "ab", newText: "x", replaceAll: true },
            { oldText: "b a", newText: "y" },
          ],
        }),
      ),
    ).toBe("edits[0] and edits[1] overlap in f.txt. Merge them into one edit or target disjoint regions.");
  });

  it("is refused when the Claude Code aliases are off", async () => {
    const bridge = createMemoryBridge({ "f.txt": "x\n" });
    const strict = createEditTool({ root: "/workspace", bridge }, { claudeCodeAliases: false });
    expect(JSON.stringify(strict.parameters)).not.toContain("replace_all");
    expect(JSON.stringify(strict.parameters)).toContain("replaceAll");
  });
});
