import { describe, expect, it } from "./vitest-api.js";
import type { ConformanceOptions } from "./sessions-conformance.js";

/*
 * Conformance suite for the `BrowserDriver` seam of @clawtools/ui (what the browser tool drives).
 * Written against the shapes, so any driver runs it. The driver must reach two pages, described
 * by `BROWSER_CONFORMANCE_SITE` (`browserConformanceHtml` renders them for a real browser):
 * `${baseUrl}/` (a "Buy" button and a "Delete" button that asks a confirm) and `${baseUrl}/second`.
 *
 *   browserDriverConformance(() => ({ driver: sharedDriver, baseUrl: server.url }));
 *
 * The factory is called once per test and may hand back the same driver (one browser per test
 * file); every test opens its own tab, names it by targetId and closes it. Dispose it yourself.
 */

export interface ConformancePage {
  title: string;
  buttons: Array<{ name: string; confirm?: string }>;
}

/** The pages every driver under test must serve, by path. */
export const BROWSER_CONFORMANCE_SITE: Readonly<Record<"/" | "/second", ConformancePage>> = {
  "/": {
    title: "Conformance shop",
    buttons: [{ name: "Buy" }, { name: "Delete", confirm: "Delete the basket?" }],
  },
  "/second": { title: "Second page", buttons: [{ name: "Back home" }] },
};

const htmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The HTML of one conformance page, for a loopback server in front of a real browser. */
export function browserConformanceHtml(page: ConformancePage): string {
  const buttons = page.buttons
    .map((b) => {
      const onclick = b.confirm ? ` onclick="confirm(${htmlEscape(JSON.stringify(b.confirm))})"` : "";
      return `<button${onclick}>${htmlEscape(b.name)}</button>`;
    })
    .join("\n");
  return `<!doctype html><html><head><title>${htmlEscape(page.title)}</title></head><body>${buttons}</body></html>`;
}

interface Loaded {
  targetId: string;
  url: string;
  done: boolean;
  dialogs: Array<{ kind: string; message: string; pending?: true }>;
}

/** What `BrowserDriver` / `BrowserSession` promise (structurally; the members this suite drives). */
export interface BrowserDriverUnderTest {
  session(profile?: string): {
    tabs(): Promise<Array<{ targetId: string; title: string; url: string }>>;
    page(targetId?: string): Promise<{ targetId: string; title: string; url: string }>;
    open(url: string): Promise<Loaded>;
    close(targetId?: string): Promise<void>;
    navigate(targetId: string | undefined, url: string): Promise<Loaded>;
    snapshot(
      targetId: string | undefined,
      request: { refs: "role"; interactive: boolean; compact: boolean; maxChars: number },
    ): Promise<{ targetId: string; text: string; refCount: number; truncated: boolean }>;
    act(targetId: string | undefined, request: { kind: "click"; ref: string }): Promise<Loaded>;
    dialog(
      targetId: string | undefined,
      answer: { accept: boolean },
    ): Promise<{ targetId: string; answered?: { kind: string; message: string; answer?: string } }>;
  };
}

export interface BrowserDriverUnderTestSetup {
  driver: BrowserDriverUnderTest;
  /** Where the driver reaches `BROWSER_CONFORMANCE_SITE` (no trailing slash). */
  baseUrl: string;
}

type Factory<T> = () => T | Promise<T>;
const SNAPSHOT = { refs: "role", interactive: true, compact: true, maxChars: 20_000 } as const;

function refOf(snapshot: string, name: string): string {
  const line = snapshot.split("\n").find((l) => l.includes(`button "${name}"`));
  const ref = line && /\[ref=([^\]]+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for button "${name}" in snapshot:\n${snapshot}`);
  return ref;
}

/** Declares the BrowserDriver conformance suite for the drivers `factory` makes. */
export function browserDriverConformance(
  factory: Factory<BrowserDriverUnderTestSetup>,
  options: ConformanceOptions = {},
): void {
  describe(options.name ?? "BrowserDriver conformance", () => {
    const opened = async () => {
      const { driver, baseUrl } = await factory();
      const session = driver.session();
      const load = await session.open(`${baseUrl}/`);
      return { session, baseUrl, load, tab: load.targetId };
    };

    it("open loads a page in a new tab that tabs() lists with its title; close removes it", async () => {
      const { session, baseUrl, load, tab } = await opened();
      expect(load).toMatchObject({ done: true, url: `${baseUrl}/`, dialogs: [] });
      expect(tab).toMatch(/\S/);
      const listed = (await session.tabs()).find((t) => t.targetId === tab);
      expect(listed).toMatchObject({ title: BROWSER_CONFORMANCE_SITE["/"].title, url: `${baseUrl}/` });
      await session.close(tab);
      expect((await session.tabs()).map((t) => t.targetId)).not.toContain(tab);
    });

    it("navigate keeps the tab id and changes its url and title", async () => {
      const { session, baseUrl, tab } = await opened();
      const moved = await session.navigate(tab, `${baseUrl}/second`);
      expect(moved).toMatchObject({ done: true, targetId: tab, url: `${baseUrl}/second` });
      expect(await session.page(tab)).toMatchObject({
        targetId: tab,
        title: BROWSER_CONFORMANCE_SITE["/second"].title,
        url: `${baseUrl}/second`,
      });
      await session.close(tab);
    });

    it("snapshot names the page's buttons with refs; act clicks by ref; a stale ref is refused", async () => {
      const { session, baseUrl, tab } = await opened();
      const snap = await session.snapshot(tab, SNAPSHOT);
      expect(snap.targetId).toBe(tab);
      expect(snap.refCount).toBeGreaterThanOrEqual(2);
      const buy = refOf(snap.text, "Buy");
      expect(refOf(snap.text, "Delete")).not.toBe(buy);
      const clicked = await session.act(tab, { kind: "click", ref: buy });
      expect(clicked).toMatchObject({ done: true, targetId: tab, dialogs: [] });
      // a new page gives new refs: the old one must not silently hit something else
      await session.navigate(tab, `${baseUrl}/second`);
      const next = await session.snapshot(tab, SNAPSHOT);
      expect(next.text).not.toContain('button "Buy"');
      await expect(session.act(tab, { kind: "click", ref: "conformance-no-such-ref" })).rejects.toThrow();
      await session.close(tab);
    });

    it("a confirm stops the click for the model; the tab is busy until dialog answers it", async () => {
      const { session, tab } = await opened();
      const ref = refOf((await session.snapshot(tab, SNAPSHOT)).text, "Delete");
      const stopped = await session.act(tab, { kind: "click", ref });
      expect(stopped.done).toBe(false);
      expect(stopped.dialogs).toEqual([
        expect.objectContaining({ kind: "confirm", message: "Delete the basket?", pending: true }),
      ]);
      await expect(session.snapshot(tab, SNAPSHOT)).rejects.toThrow(/dialog/i);
      const answer = await session.dialog(tab, { accept: true });
      expect(answer.answered).toMatchObject({
        kind: "confirm",
        message: "Delete the basket?",
        answer: "accepted",
      });
      expect((await session.snapshot(tab, SNAPSHOT)).text).toContain('button "Delete"');
      await session.close(tab);
    });

    it("a dialog answer with no dialog open answers nothing", async () => {
      const { session, tab } = await opened();
      const answer = await session.dialog(tab, { accept: false });
      expect(answer.targetId).toBe(tab);
      expect(answer.answered).toBeUndefined();
      await session.close(tab);
    });
  });
}
