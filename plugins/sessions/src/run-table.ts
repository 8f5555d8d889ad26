// Shared by every in-process runner, so it lives in core; re-exported unchanged.
export { RECENT_OUTCOMES, RunTable } from "@clawtools/core/contracts";
