// The escape suite: what model-written code tries against the sandbox and the host, and the
// limit or boundary that stops each attempt. Every case fails closed and says which limit.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { calls, codeSurface, probe, run, workspace } from "./catalog.js";

describe("code mode escape suite", () => {
  const surface = codeSurface({ deny: ["write"] });
  const fast = codeSurface({ limits: { timeoutMs: 1_000 } });

  it("reaches no host object: no process, require, fetch, WebAssembly, bridge or control globals", async () => {
    const result = await run(
      surface,
      `const probes = {
         process: typeof process,
         require: typeof require,
         module: typeof module,
         fetch: typeof fetch,
         WebAssembly: typeof WebAssembly,
         Buffer: typeof Buffer,
         internals: Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith("__")),
         viaConstructor: (() => { try { return typeof (function () {}).constructor("return process")(); } catch (e) { return e.name; } })(),
         globalIsGuest: Function("return this")() === globalThis,
       };
       return probes;`,
    );
    expect(result.value).toEqual({
      process: "undefined",
      require: "undefined",
      module: "undefined",
      fetch: "undefined",
      WebAssembly: "undefined",
      Buffer: "undefined",
      internals: [],
      viaConstructor: "ReferenceError",
      globalIsGuest: true,
    });
    for (const code of [`require("node:fs")`, `await import("node:child_process")`, `process.exit(1)`]) {
      expect(await run(surface, code)).toMatchObject({
        status: "failed",
        code: "invalid_input",
        error: "code mode module access is disabled.",
      });
    }
  });

  it("pollutes no host prototype: what crosses is JSON, parsed into fresh host objects", async () => {
    const before = calls.length;
    const result = await run(
      surface,
      `Object.prototype.polluted = "yes";
       Array.prototype.push = () => { throw new Error("hijacked"); };
       JSON.stringify = () => "{}";
       const args = JSON.parse('{"command": "id", "__proto__": {"polluted": "yes", "isAdmin": true}}');
       return await exec(args);`,
    );
    expect(result.status).toBe("completed");
    const received = calls.slice(before).find((c) => c.name === "exec")!.args as Record<string, unknown>;
    expect(received.command).toBe("id");
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    expect((received as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect([].push).toBe(Array.prototype.push);
  });

  it("a timer past the budget never fires inside the run: the run parks, its callback unrun", async () => {
    const before = calls.length;
    const result = await run(
      fast,
      `setTimeout(() => exec({ command: "late" }), 60_000);
       await new Promise((resolve) => setTimeout(resolve, 60_000));
       await exec({ command: "after the wait" });`,
    );
    expect(result).toMatchObject({
      status: "waiting",
      pendingToolCalls: [
        { id: "bridge:sleep:1", method: "sleep" },
        { id: "bridge:sleep:2", method: "sleep" },
      ],
    });
    expect(calls.slice(before)).toEqual([]);
  });

  it("stops a memory bomb at the memory limit and names it", async () => {
    for (const bomb of [
      `const a = []; while (true) a.push(new Array(10000).fill(a.length));`,
      `const parts = []; for (let i = 0; ; i++) parts.push("y".repeat(65536) + i);`,
      `const buffers = []; while (true) buffers.push(new ArrayBuffer(8 * 1024 * 1024));`,
    ]) {
      expect(await run(surface, bomb)).toMatchObject({
        status: "failed",
        code: "memory_limit_exceeded",
        error: `code mode memory limit exceeded (${64 * 1024 * 1024} bytes)`,
      });
    }
  });

  it("stops an infinite loop at the time budget, without freezing the host's event loop", async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    try {
      for (const loop of [
        `while (true) {}`,
        `await null; for (;;) { Math.random(); }`,
        // a job queue that never empties, without a chain of promises that grows: the promise
        // flood is the memory bomb's case (which limit a growing chain hits first is the machine's)
        `(async () => { for (;;) await null; })(); await new Promise(() => {});`,
      ]) {
        const result = await run(fast, loop);
        expect(result).toMatchObject({
          status: "failed",
          code: "timeout",
          error: "code mode timeout exceeded",
        });
      }
    } finally {
      clearInterval(ticker);
    }
    // the host kept answering while the guest spun in its worker
    expect(ticks).toBeGreaterThan(10);
  });

  it("cannot dispatch recursively: code mode's own controls are not in the catalog it calls", async () => {
    const result = await run(
      surface,
      `const all = catalog.all().map((h) => h.toolName);
       const found = (await catalog.search("run javascript code wait resume")).map((h) => h.toolName);
       let nested;
       try { nested = await exec({ code: "return 1" }); } catch (e) { nested = e.message; }
       let waitDecl;
       try { waitDecl = await API.read("tools/wait.d.ts"); } catch (e) { waitDecl = e.message; }
       return { all, found, nested, waitDecl, execInput: exec.input };`,
    );
    const value = result.value as Record<string, unknown>;
    expect(value.all).not.toContain("wait");
    expect(value.found).not.toContain("wait");
    // `exec` inside is the catalog's shell tool, whose validation refuses a code-mode call
    expect(value.execInput).toBe("{ command: string }");
    expect(value.nested).toMatch(/command/);
    expect(value.waitDecl).toBe("Unknown API file: tools/wait.d.ts");
  });

  it("a denied tool is absent: no global, no search hit, no declaration, nothing written", async () => {
    const result = await run(
      surface,
      `const out = { type: typeof write };
       out.found = (await catalog.search("write a file")).map((h) => h.toolName);
       try { await API.read("tools/write.d.ts"); } catch (e) { out.decl = e.message; }
       try { await write({ path: "pwned.txt", content: "x" }); } catch (e) { out.call = e.name + ": " + e.message; }
       return out;`,
    );
    expect(result.value).toEqual({
      type: "undefined",
      found: expect.not.arrayContaining(["write"]),
      decl: "Unknown API file: tools/write.d.ts",
      call: "ReferenceError: write is not defined",
    });
    expect(existsSync(path.join(workspace, "pwned.txt"))).toBe(false);
  });

  it("keeps output over 64 KiB to the limit and says how much it left out", async () => {
    const result = await run(
      surface,
      `for (let i = 0; i < 200; i++) text(i + " " + "x".repeat(1000)); return "done";`,
    );
    expect(result.status).toBe("completed");
    const marker = result.output.at(-1) as Record<string, unknown>;
    expect(marker).toMatchObject({
      truncated: true,
      guidance: "Output truncated; rerun with narrower args.",
    });
    expect(marker.omittedBytes).toBeGreaterThan(100_000);
    expect(Buffer.byteLength(JSON.stringify(result.output.slice(0, -1)))).toBeLessThanOrEqual(
      64 * 1024 + 200,
    );
    expect(result.text.length).toBeLessThan(70 * 1024);
    const big = await run(surface, `return "y".repeat(200000);`);
    expect(big.value).toMatchObject({
      truncated: true,
      omittedBytes: expect.any(Number),
      guidance: "Output truncated; rerun with narrower args.",
    });
  });

  it("holds more than 16 calls to 16 in flight, and fails past the queue, naming both limits", async () => {
    probe.maxInFlight = 0;
    const queued = await run(
      surface,
      `const all = []; for (let i = 0; i < 40; i++) all.push(probe({ ms: 30 })); return (await Promise.all(all)).length;`,
    );
    expect(queued).toMatchObject({ status: "completed", value: 40 });
    expect(probe.maxInFlight).toBe(16);
    const flood = await run(
      surface,
      `const all = []; for (let i = 0; i < 200; i++) all.push(probe({ ms: 1 })); await Promise.all(all);`,
    );
    expect(flood).toMatchObject({
      status: "failed",
      code: "invalid_input",
      error:
        "code mode bridge queue limit exceeded (128 ordinary requests queued; 16 in-flight slots). Await smaller batches before creating more tool calls or timers.",
    });
  });
});
