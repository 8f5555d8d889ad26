/** Test doubles for code built on core: import from `@clawtools/core/testing`, never in production. */
export { FakeClock } from "./fake-clock.js";
