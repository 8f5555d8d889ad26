/**
 * Guest JavaScript the worker runs first in every VM: the bridge to the host (requests with a
 * bounded in-flight set and a bounded queue), the output channel (`text`, `json`, `console`),
 * timers over the host's clock, and the cell runner that encodes the final value. It captures
 * the worker's host functions and deletes them from the global object before any other code
 * runs; the worker keeps the one control object it needs and deletes that too.
 */
export const CONTROLLER_SOURCE = `
(() => {
  const hostRequest = globalThis.__sandboxHostRequest;
  const hostCancel = globalThis.__sandboxHostCancel;
  const limits = globalThis.__sandboxLimits;
  delete globalThis.__sandboxHostRequest;
  delete globalThis.__sandboxHostCancel;
  delete globalThis.__sandboxLimits;
  const GuestPromise = Promise;
  const GuestError = Error;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const output = [];
  const pending = new Map();
  const queued = new Map();
  const timers = new Map();
  const sequences = new Map();
  let admissionError;
  let nextTimer = 0;
  let cell = { state: "pending" };
  const promiseText = "[Unawaited Promise: use await or Promise.all(...) before emitting or returning values.]";

  function plain(value, seen = new Set()) {
    if (value instanceof GuestPromise) return promiseText;
    if (typeof value === "bigint") return String(value);
    if (typeof value === "function" || typeof value === "symbol") return undefined;
    if (value === null || typeof value !== "object") return value;
    if (seen.has(value)) return "[Circular]";
    seen.add(value);
    try {
      if (value instanceof GuestError) return { name: String(value.name), message: String(value.message) };
      if (Array.isArray(value)) return value.map((item) => { const p = plain(item, seen); return p === undefined ? null : p; });
      const out = {};
      for (const key of Object.keys(value)) {
        const p = plain(value[key], seen);
        if (p !== undefined) Object.defineProperty(out, key, { value: p, enumerable: true, writable: true, configurable: true });
      }
      return out;
    } finally {
      seen.delete(value);
    }
  }
  function encode(value) {
    const text = stringify(plain(value));
    return text === undefined ? "null" : text;
  }
  function asText(value) {
    return typeof value === "string" ? value : encode(value);
  }

  let consoleUnits = 0;
  function consoleWrite(level, args) {
    if (consoleUnits >= 16384) return;
    const text = (level === "log" ? "" : "[" + level + "] ") + args.map((a) => asText(a).slice(0, 4096)).join(" ").slice(0, 4096);
    consoleUnits += text.length;
    output.push(consoleUnits >= 16384 ? { type: "text", text: "[console output truncated]" } : { type: "text", text });
  }

  function assertCapacity() {
    if (!admissionError && pending.size >= limits.maxPendingCalls && queued.size >= limits.maxQueuedCalls)
      admissionError = "code mode bridge queue limit exceeded (" + limits.maxQueuedCalls + " ordinary requests queued; " + limits.maxPendingCalls + " in-flight slots). Await smaller batches before creating more tool calls or timers.";
    if (admissionError) throw new GuestError(admissionError);
  }

  function begin(method, args) {
    assertCapacity();
    const name = String(method);
    const sequence = (sequences.get(name) ?? 0) + 1;
    sequences.set(name, sequence);
    const id = "bridge:" + name + ":" + sequence;
    const argsJson = encode(args ?? []);
    let callbacks;
    const promise = new GuestPromise((resolve, reject) => { callbacks = { resolve, reject }; });
    const admit = () => { pending.set(id, callbacks); hostRequest(name, argsJson, id); };
    if (pending.size >= limits.maxPendingCalls) queued.set(id, { admit, callbacks });
    else admit();
    return { id, promise };
  }
  function request(method, args) {
    return begin(method, args).promise;
  }

  function settle(id, ok, payload) {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    let value = null;
    try { value = parse(payload); } catch { value = String(payload); }
    if (ok) return entry.resolve(value);
    const error = new GuestError(typeof value === "string" ? value : (value && value.message) || "nested tool failed");
    if (value && typeof value === "object" && value.code) error.code = value.code;
    entry.reject(error);
  }
  function drain() {
    while (queued.size > 0 && pending.size < limits.maxPendingCalls) {
      const [id, entry] = queued.entries().next().value;
      queued.delete(id);
      entry.admit();
    }
  }

  function scheduleTimer(callback, delay, args) {
    if (typeof callback !== "function") throw new TypeError("setTimeout callback must be a function");
    const ms = Number.isFinite(Number(delay)) ? Math.max(0, Math.floor(Number(delay))) : 0;
    const timer = ++nextTimer;
    const sleeping = begin("sleep", [ms]);
    timers.set(timer, sleeping.id);
    sleeping.promise.then(() => { if (timers.delete(timer)) callback(...args); }, () => { timers.delete(timer); });
    return timer;
  }
  function cancelTimer(timer) {
    const id = timers.get(Number(timer));
    if (!id) return;
    timers.delete(Number(timer));
    const waiting = queued.get(id);
    if (waiting) { queued.delete(id); waiting.callbacks.resolve(null); return; }
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    hostCancel(id);
    entry.resolve(null);
  }

  const guestConsole = Object.freeze(Object.fromEntries(
    ["log", "info", "warn", "error", "debug"].map((level) => [level, (...args) => consoleWrite(level, args)]),
  ));
  Object.defineProperties(globalThis, {
    text: { value: (value) => { output.push({ type: "text", text: asText(value) }); }, enumerable: true },
    json: { value: (value) => { const p = plain(value); output.push({ type: "json", value: p === undefined ? null : p }); }, enumerable: true },
    console: { value: guestConsole, enumerable: true, configurable: true, writable: true },
    setTimeout: { value: (callback, delay, ...args) => scheduleTimer(callback, delay, args), enumerable: true },
    clearTimeout: { value: cancelTimer, enumerable: true },
    __sandboxBridge: { value: Object.freeze({ request, encode }), configurable: true },
    __sandboxControl: {
      configurable: true,
      value: Object.freeze({
        run: (fn) => {
          fn().then(
            (value) => { cell = { state: "done", json: encode(value) }; },
            (error) => { cell = { state: "error", error: error instanceof GuestError ? { name: String(error.name), message: String(error.message), stack: String(error.stack ?? "") } : { name: "Error", message: "Uncaught " + asText(error) } }; },
          );
        },
        settle,
        drain,
        admissionError: () => admissionError ?? "",
        status: () => cell.state,
        value: () => cell.json,
        error: () => stringify(cell.error),
        takeOutput: () => stringify(output.splice(0)),
      }),
    },
  });
})();
`;
