// Shared by every in-process runner, so it lives in core; re-exported unchanged.
export { type TrackedRun, waitForRun } from "@clawtools/core/contracts";
