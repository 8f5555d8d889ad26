// @clawtools/core/time: every timer goes through a Clock (tests drive it with FakeClock from
// @clawtools/core/testing); a delay past Node's limit is chained, not fired after 1 ms.
export { backgroundClock, type Clock, MAX_TIMER_MS, systemClock } from "./clock.js";
export { type DelayOptions, delay } from "./delay.js";
export { isTimeoutError, TimeoutError, withTimeout, type WithTimeoutOptions } from "./timeout.js";
