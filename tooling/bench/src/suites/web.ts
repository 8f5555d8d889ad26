/**
 * Extraction of the fixture corpus against the bare Readability + Turndown pipeline, and the
 * guarded fetcher against a bare undici request on loopback.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { guardedFetch } from "@clawtools/core/safety";
import { extractHtml, loadMarkdownConverter } from "@clawtools/web";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { request } from "undici";
import { type BenchRow, type BenchSuite, timeInTurns } from "../harness.js";

const pagesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../plugins/web/test/fixtures/pages",
);

export default {
  name: "web",
  async run() {
    const pages = readdirSync(pagesDir).map((f) => readFileSync(path.join(pagesDir, f), "utf8"));
    // the same Turndown + GFM instance the section uses, so the rows differ only by what we add
    const turndown = await loadMarkdownConverter();
    const bare = async () => {
      for (const html of pages) {
        const { document } = parseHTML(html);
        const article = new Readability(document as never).parse();
        if (article?.content) turndown.turndown(article.content);
      }
    };
    const ours = async () => {
      for (const html of pages) await extractHtml(html, "markdown");
    };
    const rows: BenchRow[] = [];
    // alternate whole-corpus passes, so both meet the same JIT state and machine load
    await bare();
    await ours();
    const passes = { bare: [] as number[], ours: [] as number[] };
    for (let i = 0; i < 15; i++) {
      for (const [name, run] of i % 2
        ? ([
            ["ours", ours],
            ["bare", bare],
          ] as const)
        : ([
            ["bare", bare],
            ["ours", ours],
          ] as const)) {
        const start = performance.now();
        await run();
        passes[name].push(performance.now() - start);
      }
    }
    const mid = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
    const bareMs = mid(passes.bare);
    rows.push({ name: `bare Readability + Turndown, ${pages.length} pages`, value: bareMs, unit: "ms" });
    const oursMs = mid(passes.ours);
    rows.push({
      name: `clawtools extraction (hidden/nav removal + Readability + Turndown), ${pages.length} pages`,
      value: oursMs,
      unit: "ms",
      baseline: `bare Readability + Turndown, ${pages.length} pages`,
      target: "≤ 1×",
      met: oursMs <= bareMs,
    });

    const body = "x".repeat(10_000);
    const server = createServer((_req, res) => res.end(body));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    // the three run in turn, call after call, so warm-up and load hit them alike
    const variants = {
      bare: async () => {
        const res = await request(url);
        await res.body.arrayBuffer();
      },
      guarded: () => guardedFetch(url, { policy: { allowPrivateNetwork: true } }),
      guardedWithSignal: () =>
        guardedFetch(url, { policy: { allowPrivateNetwork: true }, signal: new AbortController().signal }),
    };
    // the server shares this event loop, so position in a round matters: the first rotates
    const times = await timeInTurns(variants, 2_500, 500);
    rows.push({ name: "bare undici request on loopback (10 KB)", value: times.bare, unit: "ms" });
    rows.push({
      name: "guarded fetch on loopback (10 KB)",
      value: times.guarded,
      unit: "ms",
      baseline: "bare undici request on loopback (10 KB)",
      target: "< 1.2×",
      met: times.guarded < 1.2 * times.bare,
    });
    rows.push({
      name: "guarded fetch on loopback (10 KB), with a caller's abort signal",
      value: times.guardedWithSignal,
      unit: "ms",
      baseline: "bare undici request on loopback (10 KB)",
    });
    server.close();
    return {
      title: "Web: extraction and the SSRF-guarded fetcher",
      rows,
      notes: [
        "Extraction rows: medians of 15 whole-corpus passes, the two pipelines alternating. Both use the same Turndown + GFM instance; clawtools also parses inline styles to drop CSS-hidden text, removes navigation and makes links absolute in one walk before Readability, which spares Readability some of the page. The guarded fetch itself now lives in core (`guardedFetch` from `@clawtools/core`), with undici loaded on the first request.",
        "Fetch rows: medians of 2,500 calls after 500 warm-up calls, the variants taking turns, each going first in a third of the rounds. The guarded fetch parses the URL, checks the host, takes the keep-alive agent pinned to the checked address, enforces a deadline and reads the body with a byte cap; the bare request uses undici's global agent. A caller's abort signal costs undici its abort bookkeeping, shown in its own row.",
      ],
    };
  },
} satisfies BenchSuite;
