// What loop detection is configured with, and what it answers about a call.

/** OpenClaw's `tools.loopDetection` (off unless `enabled`). */
export interface LoopDetectionConfig {
  enabled: boolean;
  /** Calls remembered (default 30). */
  historySize?: number;
  /** Repeats that earn a warning (default 10). */
  warningThreshold?: number;
  /** Repeats without progress that block polling and ping-pong loops (default 20). */
  criticalThreshold?: number;
  /** Identical calls with identical results that block any tool (default 30). */
  globalCircuitBreakerThreshold?: number;
  detectors?: { genericRepeat?: boolean; knownPollNoProgress?: boolean; pingPong?: boolean };
}

export type LoopDetectorKind =
  | "generic_repeat"
  | "known_poll_no_progress"
  | "ping_pong"
  | "global_circuit_breaker";

export type LoopVerdict =
  | { stuck: false }
  | {
      stuck: true;
      level: "warning" | "critical";
      detector: LoopDetectorKind;
      count: number;
      message: string;
    };
