// One HTTP client for configured endpoints (provider APIs, channels, webhooks).
export {
  abortableDelay,
  type BackoffSchedule,
  backoffDelay,
  backoffPause,
  type RetryWithBackoffOptions,
  retryWithBackoff,
} from "./backoff.js";
export { HttpError, type HttpErrorDetails, type HttpErrorKind, isHttpError } from "./http-error.js";
export { checkJsonBody, type HttpJsonOptions, httpJson } from "./json.js";
export { type HttpRequestOptions, type HttpResponse, httpRequest } from "./request.js";
export { parseRetryAfter } from "./retry-after.js";
