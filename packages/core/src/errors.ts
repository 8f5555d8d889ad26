/** Bad input from the model: status 400. The message is shown to the model as-is. */
export class ToolInputError extends Error {
  readonly status: number = 400;
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }
}

/** The caller may not do this: status 403. */
export class ToolAuthorizationError extends ToolInputError {
  override readonly status: number = 403;
  constructor(message: string) {
    super(message);
    this.name = "ToolAuthorizationError";
  }
}

export const OWNER_ONLY_TOOL_ERROR = "Tool restricted to owner senders.";

/**
 * Thrown by a tool factory that cannot build its tool in this context. The registry
 * reports the reason in its diagnostics (`fs/read: no workspace root`).
 */
export class ToolUnavailableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "ToolUnavailableError";
  }
}
