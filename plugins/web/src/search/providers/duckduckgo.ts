import type { SearchProvider } from "../types.js";

/** DuckDuckGo's keyless HTML endpoint (POST /html/), parsed from its result markup. */
export const duckduckgo: SearchProvider = {
  id: "duckduckgo",
  order: 100,
  env: [],
  needsKey: false,
  defaultBaseUrl: "https://html.duckduckgo.com",
  async search(req, call) {
    const form = new URLSearchParams({ q: req.query, ...(req.country ? { kl: req.country } : {}) });
    const res = await call.http(`${call.baseUrl.replace(/\/$/, "")}/html/`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: form.toString(),
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`DuckDuckGo search failed (${res.status})`);
    // linkedom loads with the first DuckDuckGo answer, not with the section
    const { parseHTML } = await import("linkedom");
    const { document } = parseHTML(res.text);
    const nodes = document.querySelectorAll(".result");
    // a page without the results list (a bot check, an outage page) is a failure, not "no results"
    if (nodes.length === 0 && !document.querySelector("#links, .no-results")) {
      throw new Error(
        "DuckDuckGo search returned a page without its results list (blocked, or has the page changed?)",
      );
    }
    const results = Array.from(nodes).flatMap((node) => {
      const el = node as unknown as {
        querySelector(
          s: string,
        ): { textContent: string | null; getAttribute(n: string): string | null } | null;
      };
      const link = el.querySelector("a.result__a");
      if (!link) return [];
      let href = link.getAttribute("href") ?? "";
      // result links go through a redirect: /l/?uddg=<target>
      const target = /[?&]uddg=([^&]+)/.exec(href)?.[1];
      if (target) href = decodeURIComponent(target);
      return [
        {
          title: (link.textContent ?? "").trim(),
          url: href,
          description: (el.querySelector(".result__snippet")?.textContent ?? "").trim(),
        },
      ];
    });
    return { kind: "results", results: results.slice(0, req.count) };
  },
};
