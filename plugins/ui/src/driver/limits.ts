/** OpenClaw's caps (`src/browser/constants.ts`): 80,000 characters; efficient mode 10,000 and depth 6. */
export const SNAPSHOT_MAX_CHARS = 80_000;
export const EFFICIENT_MAX_CHARS = 10_000;
export const EFFICIENT_DEPTH = 6;
export const TRUNCATED_NOTICE = "\n\n[...TRUNCATED - page too large]";
export const ARIA_LIMIT_DEFAULT = 500;
export const ARIA_LIMIT_MAX = 2_000;
