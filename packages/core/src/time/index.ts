export { backgroundClock, type Clock, MAX_TIMER_MS, systemClock } from "./clock.js";
export { type DelayOptions, delay } from "./delay.js";
export { isTimeoutError, TimeoutError, withTimeout, type WithTimeoutOptions } from "./timeout.js";
