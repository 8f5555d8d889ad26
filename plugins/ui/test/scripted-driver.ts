import { ToolInputError } from "@clawtools/core";
import { staleRef } from "../src/driver/act-request.js";
import type {
  ActionResult,
  ActRequest,
  BrowserDriver,
  BrowserDriverInit,
  BrowserSession,
  DialogReport,
  PageLoad,
  TabInfo,
} from "../src/index.js";

/**
 * A browser without a browser: scripted pages of buttons and text, for the driver seam test.
 * It keeps the contract's rules (refs from the latest snapshot only, a confirm stops the click
 * that raised it until answered) and records every call, so a test can tell what reached it.
 */

export interface ScriptedPage {
  title: string;
  /** Buttons by name; `confirm` raises a confirm dialog with that text when clicked. */
  buttons: Array<{ name: string; confirm?: string }>;
}

interface ScriptedTab {
  targetId: string;
  url: string;
  clicks: string[];
  refs: Map<string, string>;
  pending?: { report: DialogReport; resume: (accept: boolean) => Record<string, unknown> };
}

export class ScriptedDriver implements BrowserDriver {
  readonly calls: string[] = [];
  readonly uploads: Array<{ files: string[]; dir: string }> = [];
  disposed = 0;
  private readonly tabs = new Map<string, ScriptedTab>();
  private next = 1;
  private current: ScriptedTab | undefined;

  constructor(
    readonly init: BrowserDriverInit,
    private readonly site: Record<string, ScriptedPage>,
  ) {}

  async profiles() {
    return [{ name: "scripted", running: this.tabs.size > 0 }];
  }

  session(profile = "scripted"): BrowserSession {
    if (profile !== "scripted") throw new ToolInputError(`Unknown browser profile "${profile}"`);
    return this.sessionImpl;
  }

  async dispose(): Promise<void> {
    this.disposed++;
  }

  private tab(targetId?: string): ScriptedTab {
    const tab = targetId ? this.tabs.get(targetId) : this.current;
    if (!tab) throw new ToolInputError("Chrome tab not found (stale targetId?).");
    return tab;
  }

  private pageOf(tab: ScriptedTab): ScriptedPage {
    const page = this.site[tab.url];
    if (!page) throw new ToolInputError(`no scripted page at ${tab.url}`);
    return page;
  }

  private load(tab: ScriptedTab, url: string): ActionResult<PageLoad> {
    tab.url = url;
    tab.refs.clear();
    return { done: true, value: { ok: true, targetId: tab.targetId, url }, dialogs: [], ...this.at(tab) };
  }

  private at(tab: ScriptedTab) {
    return { targetId: tab.targetId, url: tab.url };
  }

  private free(targetId?: string): ScriptedTab {
    const tab = this.tab(targetId);
    if (tab.pending) throw new ToolInputError(`A ${tab.pending.report.kind} dialog is open on this tab`);
    return tab;
  }

  private readonly sessionImpl: BrowserSession = {
    status: async () => ({
      profile: "scripted",
      driver: "scripted",
      running: true,
      tabCount: this.tabs.size,
    }),
    start: async () => {},
    stop: async () => {
      this.tabs.clear();
    },
    tabs: async () => [...this.tabs.values()].map((t) => this.info(t)),
    page: async (targetId) => this.info(this.tab(targetId)),
    open: async (url) => {
      this.calls.push(`open ${url}`);
      const tab: ScriptedTab = {
        targetId: `T${this.next++}`,
        url: "about:blank",
        clicks: [],
        refs: new Map(),
      };
      this.tabs.set(tab.targetId, tab);
      this.current = tab;
      return this.load(tab, url);
    },
    focus: async (targetId) => {
      this.current = this.tab(targetId);
    },
    close: async (targetId) => {
      this.tabs.delete(this.tab(targetId).targetId);
    },
    navigate: async (targetId, url) => {
      this.calls.push(`navigate ${url}`);
      return this.load(this.free(targetId), url);
    },
    history: async (_targetId, direction) => {
      throw new ToolInputError(`Cannot go ${direction}: the scripted browser keeps no history.`);
    },
    snapshot: async (targetId, request) => {
      const tab = this.free(targetId);
      tab.refs.clear();
      const lines = this.pageOf(tab).buttons.map((b, i) => {
        tab.refs.set(`e${i + 1}`, b.name);
        return `- button ${JSON.stringify(b.name)} [ref=e${i + 1}]`;
      });
      const text = lines.join("\n").slice(0, request.maxChars);
      return { ...this.at(tab), text, truncated: false, lines: lines.length, refCount: tab.refs.size };
    },
    aria: async (targetId) => ({ ...this.at(this.free(targetId)), nodes: [] }),
    act: async (targetId, request) => this.act(this.free(targetId), request),
    screenshot: async (targetId, request) => {
      const tab = this.free(targetId);
      this.calls.push(`screenshot ${request.type}`);
      return { ...this.at(tab), bytes: new TextEncoder().encode(`shot of ${tab.url}`) };
    },
    pdf: async (targetId) => ({
      ...this.at(this.free(targetId)),
      bytes: new TextEncoder().encode("%PDF-1.4"),
    }),
    console: async (targetId) => ({ targetId: this.tab(targetId).targetId, messages: [] }),
    upload: async (targetId, request) => {
      this.uploads.push({ files: request.files, dir: request.dir });
      return { targetId: this.tab(targetId).targetId };
    },
    dialog: async (targetId, answer) => {
      const tab = this.tab(targetId);
      const open = tab.pending;
      if (!open) return this.at(tab);
      tab.pending = undefined;
      const answered: DialogReport = {
        ...open.report,
        answer: answer.accept ? "accepted" : "dismissed",
        by: "model",
      };
      delete answered.pending;
      const value = open.resume(answer.accept);
      return { ...this.at(tab), answered, resumed: { done: true, value: { value }, dialogs: [] } };
    },
  };

  private act(tab: ScriptedTab, request: ActRequest): ActionResult<Record<string, unknown>> {
    this.calls.push(`act ${request.kind}`);
    if (request.kind !== "click") throw new ToolInputError(`the scripted browser only clicks`);
    const name = tab.refs.get(request.ref ?? "");
    if (!name) throw new ToolInputError(staleRef(request.ref ?? ""));
    const button = this.pageOf(tab).buttons.find((b) => b.name === name)!;
    const click = (confirmed?: boolean) => {
      tab.clicks.push(confirmed === false ? `${name} (cancelled)` : name);
      return { ok: true, kind: "click", targetId: tab.targetId, url: tab.url, clicks: [...tab.clicks] };
    };
    if (!button.confirm) return { done: true, value: click(), dialogs: [], ...this.at(tab) };
    const report: DialogReport = { kind: "confirm", message: button.confirm, pending: true };
    tab.pending = { report, resume: (accept) => click(accept) };
    return { done: false, dialogs: [{ ...report }], ...this.at(tab) };
  }

  private info(tab: ScriptedTab): TabInfo {
    return { targetId: tab.targetId, title: this.site[tab.url]?.title ?? "", url: tab.url, type: "page" };
  }
}
