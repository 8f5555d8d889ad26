/**
 * Extraction of the fixture corpus against the bare Readability + Turndown pipeline, and the
 * guarded fetcher against a bare undici request on loopback.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Readability } from "@mozilla/readability";
import { extractHtml, guardedFetch } from "@clawtools/web";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { gfm } from "turndown-plugin-gfm";
import { request } from "undici";
import { type BenchRow, type BenchSuite, timeMedian } from "../harness.js";

const pagesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../plugins/web/test/fixtures/pages",
);

export default {
  name: "web",
  async run() {
    const pages = readdirSync(pagesDir).map((f) => readFileSync(path.join(pagesDir, f), "utf8"));
    const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced" });
    turndown.use(gfm);
    const bare = () => {
      for (const html of pages) {
        const { document } = parseHTML(html);
        const article = new Readability(document as never).parse();
        if (article?.content) turndown.turndown(article.content);
      }
    };
    const ours = () => {
      for (const html of pages) extractHtml(html, "markdown");
    };
    const rows: BenchRow[] = [];
    const bareMs = await timeMedian(bare, 10, 2);
    rows.push({ name: `bare Readability + Turndown, ${pages.length} pages`, value: bareMs, unit: "ms" });
    const oursMs = await timeMedian(ours, 10, 2);
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
    const bareFetch = await timeMedian(
      async () => {
        const res = await request(url);
        await res.body.arrayBuffer();
      },
      300,
      30,
    );
    rows.push({ name: "bare undici request on loopback (10 KB)", value: bareFetch, unit: "ms" });
    const guarded = await timeMedian(
      () => guardedFetch(url, { policy: { allowPrivateNetwork: true } }),
      300,
      30,
    );
    rows.push({
      name: "guarded fetch on loopback (10 KB)",
      value: guarded,
      unit: "ms",
      baseline: "bare undici request on loopback (10 KB)",
      target: "< 1.2×",
      met: guarded < 1.2 * bareFetch,
    });
    server.close();
    return {
      title: "Web: extraction and the SSRF-guarded fetcher",
      rows,
      notes: [
        "The guarded fetch resolves and checks the host, pins a fresh connection to the checked address and reads the body with a byte cap; the bare request reuses undici's global pooled connection.",
      ],
    };
  },
} satisfies BenchSuite;
