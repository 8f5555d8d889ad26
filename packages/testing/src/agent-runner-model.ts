/**
 * The model an AgentRunner conformance run talks to: the suite scripts it through the messages it
 * sends, and each runner's harness puts it behind that runner's model wire (a loopback
 * OpenAI-compatible server, a scripted runner's script, an ACP agent that forwards its prompts).
 *
 * The script, chosen by the turn's newest user message:
 *   `say <text>`             answers `<text>`
 *   `hold <token>`           answers `released <token>` once the suite releases the token
 *   `tool <name> <json>`     calls tool `<name>` with the JSON arguments; once the tool's result is
 *                            back, answers `tool said: <result>`
 *   anything else (a steer)  answers `heard: <message>`
 */

/** One request of a runner to its model, as the harness reads it off the wire. */
export interface ConformanceTurn {
  /**
   * The user messages of the conversation so far, oldest first (read when the answer is due), as
   * the user wrote them: a harness whose runner wraps them on the wire (a timestamp, runtime lines,
   * context messages of its own) unwraps them here.
   */
  userMessages(): string[];
  /** Tool results sent back since the newest user message (text). */
  toolResults: string[];
}

export type ConformanceReply =
  | { text: string }
  | { toolCall: { name: string; arguments: Record<string, unknown> } };

export interface ConformanceModel {
  answer(turn: ConformanceTurn): Promise<ConformanceReply>;
}

interface Hold {
  asked: Promise<void>;
  ask(): void;
  released: Promise<void>;
  release(): void;
}

function newHold(): Hold {
  const hold = {} as Hold;
  hold.asked = new Promise<void>((resolve) => {
    hold.ask = resolve;
  });
  hold.released = new Promise<void>((resolve) => {
    hold.release = resolve;
  });
  return hold;
}

/** The suite's model: scripted as above, with holds the suite releases and a log of what it saw. */
export class ScriptedConformanceModel implements ConformanceModel {
  /** Every user message the model has seen, in any turn. */
  readonly seen = new Set<string>();
  private readonly holds = new Map<string, Hold>();

  async answer(turn: ConformanceTurn): Promise<ConformanceReply> {
    const note = () => {
      for (const m of turn.userMessages()) this.seen.add(m);
    };
    note();
    const last = turn.userMessages().at(-1) ?? "";
    const [command = "", ...rest] = last.trim().split(" ");
    const arg = rest.join(" ");
    if (command === "tool") {
      if (turn.toolResults.length > 0) return { text: `tool said: ${turn.toolResults.join(" ")}` };
      const [name = "", ...json] = rest;
      return { toolCall: { name, arguments: JSON.parse(json.join(" ") || "{}") as Record<string, unknown> } };
    }
    if (command === "say") return { text: arg };
    if (command === "hold") {
      const hold = this.hold(arg);
      hold.ask();
      await hold.released;
      note(); // messages steered in while the turn was held
      return { text: `released ${arg}` };
    }
    return { text: `heard: ${last}` };
  }

  /** Resolves once the model has been asked a `hold <token>` turn; rejects when `signal` aborts first. */
  asked(token: string, signal?: AbortSignal): Promise<void> {
    const asked = this.hold(token).asked;
    if (!signal) return asked;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      void asked.then(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      });
    });
  }

  /** Lets every turn held on `token` answer (now, and any asked later at once). */
  release(token: string): void {
    this.hold(token).release();
  }

  /** Releases every hold (the suite's clean-up). */
  releaseAll(): void {
    for (const hold of this.holds.values()) hold.release();
  }

  private hold(token: string): Hold {
    let hold = this.holds.get(token);
    if (!hold) {
      hold = newHold();
      this.holds.set(token, hold);
    }
    return hold;
  }
}
