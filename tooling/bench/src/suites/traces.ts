/**
 * What tracing adds to a tools/call: the MCP server (`createMcpServer`, the SDK client in-process)
 * calling fs `read` 1,000 times with no OpenTelemetry provider (what every server runs unless an
 * app installs one), with the API registered and no tracer provider, and with the SDK and an
 * in-memory exporter, in turns. The span code alone is timed beside a call for the no-provider
 * goal: ≤ 3% of a call at p50.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolset } from "@clawtools/core";
import { fsPlugin } from "@clawtools/fs";
import { createMcpServer } from "@clawtools/mcp";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { CallTrace } from "../../../../adapters/mcp/src/call-trace.js";
import { type BenchRow, type BenchSuite, loadAtStart, percentile } from "../harness.js";

const CALLS = 1_000;
const BATCH = 100;
const REGISTERED = Symbol.for("opentelemetry.js.api.1");

/** p50 (µs) of `calls` calls after a warm-up. */
async function p50(call: () => Promise<unknown>, calls: number, warmup = 100): Promise<number> {
  for (let i = 0; i < warmup; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await call();
    samples.push((performance.now() - start) * 1000);
  }
  return percentile(samples, 50);
}

export default {
  name: "traces",
  async run() {
    const load = loadAtStart();
    if ((globalThis as Record<symbol, unknown>)[REGISTERED] !== undefined)
      throw new Error("an OpenTelemetry registration exists before the suite: run it on its own");
    const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-bench-traces-"));
    writeFileSync(path.join(workspace, "a.txt"), "hello\n");
    const server = createMcpServer(
      createToolset({ plugins: [fsPlugin], context: { workspaceDir: workspace } }),
    );
    const client = new Client({ name: "bench", version: "1" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const read = () => client.callTool({ name: "read", arguments: { path: "a.txt" } });

    // no provider: the span code's whole cost, alone, and a call with it
    const result = { content: [{ type: "text", text: "hello" }] };
    const work = async () => result;
    const traced = async () => {
      const t = CallTrace.call({ tool: "read", requestId: 7, meta: undefined, transport: "pipe" });
      t.note("policy", "allow");
      return t.ended(await t.run(work));
    };
    const spanCode = Math.max(0, (await p50(traced, 100_000, 10_000)) - (await p50(work, 100_000, 10_000)));

    // three setups in turns, batch by batch: nothing registered (the registration is set aside, as
    // in a process where no app installed anything), the API registered with no tracer provider,
    // and the SDK with an in-memory exporter
    const spans = new InMemorySpanExporter();
    const sdk = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    trace.setGlobalTracerProvider(sdk);
    const registration = (globalThis as Record<symbol, unknown>)[REGISTERED];
    const samples = { none: [] as number[], api: [] as number[], sdk: [] as number[] };
    const sides = Object.keys(samples) as Array<keyof typeof samples>;
    for (let i = 0; i < 200; i++) await read();
    for (let round = 0; round < (sides.length * CALLS) / BATCH; round++) {
      const side = sides[round % sides.length]!;
      trace.disable();
      (globalThis as Record<symbol, unknown>)[REGISTERED] = side === "none" ? undefined : registration;
      if (side === "sdk") trace.setGlobalTracerProvider(sdk);
      for (let i = 0; i < BATCH; i++) {
        const start = performance.now();
        await read();
        samples[side].push((performance.now() - start) * 1000);
      }
      spans.reset();
    }
    (globalThis as Record<symbol, unknown>)[REGISTERED] = registration;
    trace.disable();
    await client.close();
    await sdk.shutdown();
    const noProvider = percentile(samples.none, 50);

    const base = "tools/call read p50, no provider";
    const rows: BenchRow[] = [
      { name: base, value: noProvider, unit: "µs", note: `${CALLS} calls` },
      {
        name: "span code with no provider, per call (its share of a call)",
        value: spanCode,
        unit: "µs",
        baseline: base,
        target: "≤ 0.03×",
        met: spanCode <= 0.03 * noProvider,
      },
      {
        name: "tools/call read p50, API registered, no tracer provider",
        value: percentile(samples.api, 50),
        unit: "µs",
        baseline: base,
      },
      {
        name: "tools/call read p50, SDK + in-memory exporter",
        value: percentile(samples.sdk, 50),
        unit: "µs",
        baseline: base,
      },
    ];
    return {
      title: "Traces: what an OpenTelemetry span per tools/call costs",
      rows,
      loadAtStart: load,
      notes: [
        "In-process: `createMcpServer` over fs `read` with the MCP SDK client on an in-memory transport. With no provider the server never loads `@opentelemetry/api`; the span code's cost is timed alone (100,000 runs, p50) against a call's p50. The three setups take turns in batches of 100 calls (1,000 each); `no provider` sets the API's global registration aside for its batches.",
      ],
    };
  },
} satisfies BenchSuite;
