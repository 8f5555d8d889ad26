import { describe, expect, it } from "./vitest-api.js";
import type { ConformanceOptions } from "./sessions-conformance.js";

/*
 * Conformance suite for the `SearchProvider` seam of @clawtools/web (what `web_search` asks).
 * Written against the shapes. The factory gives the provider, the call it searches with, and
 * its far side: a loopback server speaking the provider's wire format, which answers every
 * search with `SEARCH_CONFORMANCE_HITS` (or, when told, a 500 echoing the key, or a page that is
 * neither JSON nor the provider's result markup):
 *
 *   searchProviderConformance(async () => {
 *     const api = await myFakeApi(); // encodes SEARCH_CONFORMANCE_HITS as the real API would
 *     return { provider, call: { apiKey, baseUrl: api.url, http: myTransport }, farSide: api };
 *   });
 *
 * The factory is called once per test.
 */

export const SEARCH_CONFORMANCE_HITS: ReadonlyArray<{ title: string; url: string; description: string }> = [
  { title: "Conformance first", url: "https://first.example/a", description: "The first hit." },
  { title: "Conformance second", url: "https://second.example/b", description: "The second hit." },
  { title: "Conformance third", url: "https://third.example/c", description: "The third hit." },
];

export type SearchFarSideMode = "hits" | "status500" | "not-json";

/** What `SearchProvider` promises (structurally). */
export interface SearchProviderUnderTest {
  id: string;
  search(
    request: { query: string; count: number },
    call: {
      apiKey?: string;
      baseUrl: string;
      http(
        url: string,
        init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: unknown },
      ): Promise<{
        status: number;
        text: string;
      }>;
    },
  ): Promise<
    | { kind: "results"; results: Array<{ title: string; url: string; description: string }> }
    | { kind: "answer"; content: string; citations: string[] }
  >;
}

export interface SearchProviderUnderTestSetup {
  provider: SearchProviderUnderTest;
  call: Parameters<SearchProviderUnderTest["search"]>[1];
  farSide: {
    /** The queries the far side received, in order. */
    received(): string[];
    /** How it answers from now on (default "hits"); "status500" echoes the API key in its body. */
    respondWith(mode: SearchFarSideMode): void;
  };
}

type Factory<T> = () => T | Promise<T>;

/** Declares the SearchProvider conformance suite for the providers `factory` makes. */
export function searchProviderConformance(
  factory: Factory<SearchProviderUnderTestSetup>,
  options: ConformanceOptions = {},
): void {
  describe(options.name ?? "SearchProvider conformance", () => {
    it("sends the query and answers with the far side's hits, in order", async () => {
      const { provider, call, farSide } = await factory();
      const payload = await provider.search({ query: "conformance query one", count: 5 }, call);
      expect(farSide.received()).toEqual(["conformance query one"]);
      const urls = SEARCH_CONFORMANCE_HITS.map((h) => h.url);
      if (payload.kind === "results") {
        expect(payload.results.map((r) => r.url)).toEqual(urls);
        expect(payload.results.map((r) => r.title)).toEqual(SEARCH_CONFORMANCE_HITS.map((h) => h.title));
      } else {
        expect(payload.content.length).toBeGreaterThan(0);
        expect(payload.citations).toEqual(urls);
      }
    });

    it("an HTTP error rejects naming the provider, and the echoed key is not in the message", async () => {
      const { provider, call, farSide } = await factory();
      farSide.respondWith("status500");
      const error = await provider.search({ query: "fails", count: 3 }, call).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error, "a 500 must reject").toBeInstanceOf(Error);
      expect(error!.message.toLowerCase()).toContain(provider.id);
      expect(error!.message).toContain("500");
      if (call.apiKey) expect(error!.message).not.toContain(call.apiKey);
    });

    it("an answer that is not the documented format rejects naming the provider", async () => {
      const { provider, call, farSide } = await factory();
      farSide.respondWith("not-json");
      await expect(provider.search({ query: "garbled", count: 3 }, call)).rejects.toThrow(
        new RegExp(provider.id, "i"),
      );
    });
  });
}
