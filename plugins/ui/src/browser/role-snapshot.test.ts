import { describe, expect, it } from "vitest";
import { roleSnapshotLines } from "./role-snapshot.js";

// the shape of Playwright's AI walk: unnamed generic wrappers, its own refs and marks, boxes
const AI_YAML = [
  "- generic [active] [ref=e1]:",
  '  - heading "Orders" [level=1] [ref=e2]',
  '  - generic [ref=e12]: "Price: 42 EUR"',
  "  - generic [ref=e13]: Article text in a div.",
  "  - generic [ref=e3]:",
  "    - text: Field 0",
  '    - textbox "Field 0" [ref=e4] [box=10,20,100,18]',
  '    - button "Go" [ref=e5] [cursor=pointer]',
  '  - generic "Named wrapper" [ref=e6]:',
  '    - button "Go" [ref=e7] [cursor=pointer]',
  "    - link [ref=e8]:",
  "      - /url: /next",
  "    - link [ref=e9]",
  '  - text "say \\"hi\\"" [ref=e10]',
  '  - button "a \\"quoted\\" name" [disabled] [ref=e11]',
  "",
].join("\n");

describe("role refs over the AI walk", () => {
  it("drops unnamed wrappers (keeping their text), numbers elements, marks equals with nth, strips the walk's marks", () => {
    const { lines, refs, boxes } = roleSnapshotLines(AI_YAML, false);
    expect(lines).toEqual([
      '- heading "Orders" [ref=e1] [level=1]',
      '- text: "Price: 42 EUR"',
      "- text: Article text in a div.",
      "- text: Field 0",
      '- textbox "Field 0" [ref=e2]',
      '- button "Go" [ref=e3]',
      '- generic "Named wrapper" [ref=e4]:',
      '  - button "Go" [ref=e5] [nth=1]',
      "  - link [ref=e6]:",
      "    - /url: /next",
      "  - link [ref=e7] [nth=1]",
      '- text "say \\"hi\\""',
      '- button "a \\"quoted\\" name" [ref=e8] [disabled]',
    ]);
    expect(refs.get("e3")).toEqual({ role: "button", name: "Go", nth: 0, ariaRef: "e5" });
    expect(refs.get("e5")).toEqual({ role: "button", name: "Go", nth: 1, ariaRef: "e7" });
    expect(refs.get("e7")).toEqual({ role: "link", nth: 1, ariaRef: "e9" });
    expect(refs.get("e8")).toEqual({ role: "button", name: 'a "quoted" name', nth: 0, ariaRef: "e11" });
    expect(refs.size).toBe(8);
    expect([...boxes]).toEqual([["e2", { x: 10, y: 20, width: 100, height: 18 }]]);
  });

  it("interactive: only interactive elements, flat, each with its ref of the full snapshot", () => {
    const { lines, refs } = roleSnapshotLines(AI_YAML, true);
    expect(lines).toEqual([
      '- textbox "Field 0" [ref=e2]',
      '- button "Go" [ref=e3]',
      '- button "Go" [ref=e5] [nth=1]',
      "- link [ref=e6]:", // the line keeps its colon; its children are not interactive
      "- link [ref=e7] [nth=1]",
      '- button "a \\"quoted\\" name" [ref=e8] [disabled]',
    ]);
    expect(refs.get("e5")).toEqual({ role: "button", name: "Go", nth: 1, ariaRef: "e7" });
    const full = roleSnapshotLines(AI_YAML, false).refs;
    for (const [ref, entry] of refs) expect(full.get(ref)).toEqual(entry);
  });

  it("a walk without refs is numbered e1, e2… and keeps wrapper text", () => {
    const { lines } = roleSnapshotLines('- generic:\n  - generic: Hello\n  - button "Go"', false);
    expect(lines).toEqual(["- text: Hello", '- button "Go" [ref=e1]']);
  });

  it("blank input gives no lines and no refs", () => {
    expect(roleSnapshotLines("", false)).toEqual({ lines: [], refs: new Map(), boxes: new Map() });
    expect(roleSnapshotLines("\n  \n", true).lines).toEqual([]);
  });

  it("a very deep tree is indented in full", () => {
    const yaml = Array.from({ length: 40 }, (_, d) => `${"  ".repeat(d)}- list "L${d}":`).join("\n");
    const { lines } = roleSnapshotLines(yaml, false);
    expect(lines[39]).toBe(`${"  ".repeat(39)}- list "L39" [ref=e40]:`);
  });
});
