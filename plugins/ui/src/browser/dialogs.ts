import { ToolInputError, wrapExternalContent } from "@clawtools/core";
import type { Dialog } from "playwright-core";
import type { DialogReport, Outcome } from "../driver/types.js";

export const dialogOpen = (kind: string, message: string) =>
  `A ${kind} dialog is open on this tab and the page waits for it. Answer it first with action=dialog (accept=true or accept=false; promptText for a prompt). Its text:\n${wrapExternalContent(message, { source: "Browser", includeWarning: false })}`;

/** Either the action's own outcome, or the dialog that stopped it halfway. */
export type Guarded<T> = Outcome<T>;

/**
 * The dialogs of one tab. An armed answer (action=dialog ahead of time) answers the next
 * dialog; an alert is accepted (it has nothing else); any other dialog waits open for the model
 * and the action that raised it returns at once saying so, instead of a silent Cancel.
 * Every dialog is reported in the result of the call during (or after) which it appeared.
 */
export class DialogKeeper {
  private armed: { accept: boolean; promptText?: string } | undefined;
  private pending: { dialog: Dialog; report: DialogReport } | undefined;
  private readonly unreported: DialogReport[] = [];
  private readonly waiters = new Set<() => void>();
  // the action a pending dialog interrupted: it resumes when the dialog is answered
  private interrupted: Promise<{ value?: unknown; error?: string }> | undefined;

  arm(accept: boolean, promptText?: string): void {
    this.armed = { accept, ...(promptText !== undefined ? { promptText } : {}) };
  }

  get open(): DialogReport | undefined {
    return this.pending?.report;
  }

  async onDialog(dialog: Dialog): Promise<void> {
    const report: DialogReport = {
      kind: dialog.type(),
      message: dialog.message(),
      ...(dialog.type() === "prompt" ? { defaultValue: dialog.defaultValue() } : {}),
    };
    this.unreported.push(report);
    const armed = this.armed;
    if (armed || report.kind === "alert") {
      this.armed = undefined;
      const accept = armed ? armed.accept : true;
      Object.assign(report, {
        answer: accept ? "accepted" : "dismissed",
        by: armed ? "armed" : "auto",
        ...(accept && armed?.promptText !== undefined ? { promptText: armed.promptText } : {}),
      });
      await settle(accept ? dialog.accept(armed?.promptText) : dialog.dismiss());
      return;
    }
    report.pending = true;
    this.pending = { dialog, report };
    for (const wake of this.waiters) wake();
  }

  /** Dialogs not yet told to the model (answered or still open). */
  drain(): DialogReport[] {
    return this.unreported.splice(0).map((r) => ({ ...r }));
  }

  /** Refuses to touch a page that waits on a dialog (any page call would hang behind it). */
  assertFree(): void {
    if (this.pending)
      throw new ToolInputError(dialogOpen(this.pending.report.kind, this.pending.report.message));
  }

  /** Runs an action on the page; returns early when it raises a dialog that waits for the model. */
  async guard<T>(action: () => Promise<T>): Promise<Guarded<T>> {
    this.assertFree();
    return this.race(action());
  }

  private async race<T>(running: Promise<T>): Promise<Guarded<T>> {
    let wake: (() => void) | undefined;
    const blocked = new Promise<"dialog">((resolve) => {
      wake = () => resolve("dialog");
      this.waiters.add(wake);
    });
    try {
      const first = await Promise.race([running.then((value) => ({ value })), blocked]);
      if (first === "dialog") {
        this.interrupted = running.then(
          (value) => ({ value }),
          (error: Error) => ({ error: String(error?.message ?? error) }),
        );
        return { done: false, dialogs: this.drain() };
      }
      return { done: true, value: first.value, dialogs: this.drain() };
    } finally {
      this.waiters.delete(wake!);
    }
  }

  /**
   * The model's answer to the open dialog; then the interrupted action goes on, and this call
   * waits for it (or for the next dialog it raises). Without an open dialog: arms the next one.
   */
  async answer(
    accept: boolean,
    promptText: string | undefined,
  ): Promise<{ answered?: DialogReport; resumed?: Guarded<{ value?: unknown; error?: string }> }> {
    const open = this.pending;
    if (!open) {
      this.arm(accept, promptText);
      return {};
    }
    this.pending = undefined;
    delete open.report.pending;
    Object.assign(open.report, {
      answer: accept ? "accepted" : "dismissed",
      by: "model",
      ...(accept && promptText !== undefined ? { promptText } : {}),
    });
    await settle(accept ? open.dialog.accept(promptText) : open.dialog.dismiss());
    const interrupted = this.interrupted;
    this.interrupted = undefined;
    return {
      answered: { ...open.report },
      ...(interrupted ? { resumed: await this.race(interrupted) } : {}),
    };
  }
}

// the page may go away with its dialog: nothing left to answer
const settle = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    () => undefined,
  );
