// Running the CLI's `main` in-process, with its output lines and stderr captured.
import { vi } from "vitest";
import { main } from "../../src/cli.js";

export function runMain(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const lines: string[] = [];
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  return main(argv, (l) => lines.push(l))
    .then((code) => ({
      code,
      out: lines.join("\n"),
      err: stderr.mock.calls.map((c) => String(c[0])).join(""),
    }))
    .finally(() => stderr.mockRestore());
}
