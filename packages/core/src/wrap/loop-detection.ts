import { digest, isPoll } from "./call-fingerprint.js";
import type { LoopDetectionConfig, LoopDetectorKind, LoopVerdict } from "./loop-detection-types.js";

export type { LoopDetectionConfig, LoopDetectorKind, LoopVerdict } from "./loop-detection-types.js";

interface CallRecord {
  /** Tool name and a digest of its arguments. */
  signature: string;
  toolCallId: string;
  /** Digest of the outcome, once known. */
  outcome?: string;
}

const positive = (value: number | undefined, fallback: number) =>
  typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;

/**
 * Notices an agent going round in circles, from a sliding window of its recent calls and
 * their outcomes: the same call over and over (warning only), a poll that keeps returning the
 * same thing and two calls alternating without progress (warning, then blocked at the critical
 * threshold), and any call repeated with identical results up to the global circuit breaker
 * (blocked).
 */
export class LoopDetector {
  private readonly history: CallRecord[] = [];
  private readonly warnedBuckets = new Map<string, number>();
  private readonly historySize: number;
  private readonly warningAt: number;
  private readonly criticalAt: number;
  private readonly breakerAt: number;
  private readonly detectors: Required<NonNullable<LoopDetectionConfig["detectors"]>>;

  constructor(readonly config: LoopDetectionConfig) {
    this.historySize = positive(config.historySize, 30);
    this.warningAt = positive(config.warningThreshold, 10);
    this.criticalAt = Math.max(positive(config.criticalThreshold, 20), this.warningAt + 1);
    this.breakerAt = Math.max(positive(config.globalCircuitBreakerThreshold, 30), this.criticalAt + 1);
    this.detectors = {
      genericRepeat: config.detectors?.genericRepeat ?? true,
      knownPollNoProgress: config.detectors?.knownPollNoProgress ?? true,
      pingPong: config.detectors?.pingPong ?? true,
    };
  }

  /**
   * The verdict on a call about to run, judged against the calls before it; the call joins the
   * history unless the verdict blocks it.
   */
  observe(toolName: string, params: Record<string, unknown>, toolCallId: string): LoopVerdict {
    if (!this.config.enabled) return { stuck: false };
    const signature = `${toolName}:${digest(params)}`;
    const verdict = this.judge(toolName, params, signature);
    if (!verdict.stuck || verdict.level !== "critical") {
      this.history.push({ signature, toolCallId });
      if (this.history.length > this.historySize)
        this.history.splice(0, this.history.length - this.historySize);
    }
    return verdict;
  }

  // The texts are OpenClaw's (`src/agents/tool-loop-detection.ts`): warnings tell the model to
  // stop retrying and report the failure; critical verdicts block the call.
  private judge(toolName: string, params: Record<string, unknown>, signature: string): LoopVerdict {
    const sameResults = this.sameOutcomeStreak(signature);
    const poll = isPoll(toolName, params);
    const pingPong = this.pingPongStreak(signature);
    const stuck = (
      level: "warning" | "critical",
      detector: LoopDetectorKind,
      count: number,
      message: string,
    ) => ({ stuck: true, level, detector, count, message }) as const;

    if (sameResults >= this.breakerAt)
      return stuck(
        "critical",
        "global_circuit_breaker",
        sameResults,
        `CRITICAL: ${toolName} has repeated identical no-progress outcomes ${sameResults} times. Session execution blocked by global circuit breaker to prevent runaway loops.`,
      );
    if (poll && this.detectors.knownPollNoProgress) {
      if (sameResults >= this.criticalAt)
        return stuck(
          "critical",
          "known_poll_no_progress",
          sameResults,
          `CRITICAL: Called ${toolName} with identical arguments and no progress ${sameResults} times. This appears to be a stuck polling loop. Session execution blocked to prevent resource waste.`,
        );
      if (sameResults >= this.warningAt)
        return stuck(
          "warning",
          "known_poll_no_progress",
          sameResults,
          `WARNING: You have called ${toolName} ${sameResults} times with identical arguments and no progress. Stop polling and either (1) increase wait time between checks, or (2) report the task as failed if the process is stuck.`,
        );
    }
    if (this.detectors.pingPong) {
      if (pingPong.count >= this.criticalAt && pingPong.noProgress)
        return stuck(
          "critical",
          "ping_pong",
          pingPong.count,
          `CRITICAL: You are alternating between repeated tool-call patterns (${pingPong.count} consecutive calls) with no progress. This appears to be a stuck ping-pong loop. Session execution blocked to prevent resource waste.`,
        );
      if (pingPong.count >= this.warningAt)
        return stuck(
          "warning",
          "ping_pong",
          pingPong.count,
          `WARNING: You are alternating between repeated tool-call patterns (${pingPong.count} consecutive calls). This looks like a ping-pong loop; stop retrying and report the task as failed.`,
        );
    }
    // Generic repeats only warn (OpenClaw 9.6): re-reading an unchanged file is often legitimate,
    // so blocking it is left to the global no-progress breaker above.
    const repeats = this.history.filter((call) => call.signature === signature).length;
    if (!poll && this.detectors.genericRepeat && repeats >= this.warningAt)
      return stuck(
        "warning",
        "generic_repeat",
        repeats,
        `WARNING: You have called ${toolName} ${repeats} times with identical arguments. If this is not making progress, stop retrying and report the task as failed.`,
      );
    return { stuck: false };
  }

  /** Whether a warning deserves telling: once per bucket of 10 repeats of the same pattern. */
  shouldWarn(verdict: LoopVerdict & { stuck: true }, toolName: string): boolean {
    const key = `${verdict.detector}:${toolName}`;
    const bucket = Math.floor(verdict.count / 10);
    if ((this.warnedBuckets.get(key) ?? -1) >= bucket) return false;
    this.warnedBuckets.set(key, bucket);
    return true;
  }

  /** What the call returned (text and images, plus the error flag): the progress evidence. */
  recordOutcome(toolCallId: string, outcome: unknown): void {
    if (!this.config.enabled) return;
    const call = this.history.findLast((c) => c.toolCallId === toolCallId && c.outcome === undefined);
    if (call) call.outcome = digest(outcome);
  }

  /** Identical calls in a row (skipping other tools) whose outcomes were all the same. */
  private sameOutcomeStreak(signature: string): number {
    let streak = 0;
    let latest: string | undefined;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const call = this.history[i]!;
      if (call.signature !== signature || call.outcome === undefined) continue;
      if (latest === undefined) latest = call.outcome;
      else if (call.outcome !== latest) break;
      streak++;
    }
    return streak;
  }

  /** A, B, A, B … with the next call continuing the pattern; no progress if each side repeats its outcome. */
  private pingPongStreak(signature: string): { count: number; noProgress: boolean } {
    const last = this.history.at(-1);
    if (!last) return { count: 0, noProgress: false };
    const other = this.history.findLast((c) => c.signature !== last.signature)?.signature;
    if (!other || signature !== other) return { count: 0, noProgress: false };
    let tail = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      if (this.history[i]!.signature !== (tail % 2 === 0 ? last.signature : other)) break;
      tail++;
    }
    if (tail < 2) return { count: 0, noProgress: false };
    const outcomes = new Map<string, string>();
    let noProgress = true;
    for (const call of this.history.slice(this.history.length - tail)) {
      const seen = outcomes.get(call.signature);
      if (call.outcome === undefined || (seen !== undefined && seen !== call.outcome)) {
        noProgress = false;
        break;
      }
      outcomes.set(call.signature, call.outcome);
    }
    return { count: tail + 1, noProgress: noProgress && outcomes.size === 2 };
  }
}
