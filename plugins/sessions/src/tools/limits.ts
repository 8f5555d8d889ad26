/**
 * The longest timeout a sessions tool accepts, in seconds (24 days): Node's timers hold at most
 * 2^31-1 ms, and a longer one fires at once, so 1e300 would end a run immediately, not never.
 */
export const MAX_TIMEOUT_SECONDS = 2_073_600;
