/**
 * Plain JavaScript evaluated in the worker thread (CommonJS, `eval: true`): one QuickJS VM per
 * run, held to the run's memory limit, interrupted at each step's deadline, with no module
 * loader, no WASI file or network access and no host object in its global scope. It answers
 * the host's `step` messages; every value that leaves the VM leaves as JSON text.
 */
export const WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const USER_FILE = "clawtools-code-mode:user.js";
const MODULES = "code mode module access is disabled.";
const limits = workerData.limits;
let vm;
let control;
let deadline = 0;
let interrupted = false;
let started = false;
let failure;
let outputBytes = 0;
let outputFull = false;
const inFlight = new Set();
let fresh = [];
let canceled = [];

const fail = (code, error) => { failure = failure ?? { code, error }; };
const bytes = (text) => Buffer.byteLength(text, "utf8");
function prefix(text, max) {
  let end = Math.min(text.length, max);
  while (end > 0 && bytes(text.slice(0, end)) > max) end = Math.floor(end * 0.9);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

function invoke(name, ...args) {
  const fn = control.getProp(name);
  try {
    return vm.callFunction(fn, control, ...args);
  } finally {
    fn.dispose();
    for (const arg of args) if (arg !== vm.true && arg !== vm.false) arg.dispose();
  }
}
function invokeString(name) {
  const handle = invoke(name);
  try {
    return handle.toString();
  } finally {
    handle.dispose();
  }
}

function onRequest(methodHandle, argsHandle, idHandle) {
  const method = methodHandle.toString();
  const id = idHandle.toString();
  const argsJson = argsHandle.toString();
  if (inFlight.size + fresh.length >= limits.maxPendingCalls) {
    fail("invalid_input", "too many pending code mode tool calls (at most " + limits.maxPendingCalls + " in flight)");
  } else if (bytes(argsJson) > limits.maxRequestBytes) {
    fail("invalid_input", "code mode tool call arguments exceed the " + limits.maxRequestBytes + "-byte request limit");
  } else {
    const args = JSON.parse(argsJson);
    if (Array.isArray(args)) fresh.push({ id, method, args });
    else fail("internal_error", "invalid code mode bridge arguments: expected an array");
  }
  return vm.undefined;
}
function onCancel(idHandle) {
  const id = idHandle.toString();
  const before = fresh.length;
  fresh = fresh.filter((request) => request.id !== id);
  if (fresh.length === before && inFlight.delete(id)) canceled.push(id);
  return vm.undefined;
}

async function create() {
  const { QuickJS } = await import(workerData.quickjsUrl);
  vm = await QuickJS.create({
    wasm: workerData.wasm,
    memoryLimit: limits.memoryLimitBytes,
    maxStackSize: 512 * 1024,
    timezoneOffset: 0,
    interruptHandler: () => (interrupted = interrupted || Date.now() >= deadline),
    moduleLoader: { load: () => { throw new Error(MODULES); } },
  });
  deadline = Date.now() + 5000;
  for (const [name, fn] of [["__sandboxHostRequest", onRequest], ["__sandboxHostCancel", onCancel]])
    vm.newFunction(name, fn).consume((handle) => vm.setProp(vm.global, name, handle));
  const globals = { ...workerData.globals, __sandboxLimits: limits };
  for (const [name, value] of Object.entries(globals))
    vm.hostToHandle(value).consume((handle) => vm.setProp(vm.global, name, handle));
  vm.evalCode(workerData.controller, "clawtools-code-mode:controller.js").dispose();
  control = vm.global.getProp("__sandboxControl");
  vm.evalCode("delete globalThis.__sandboxControl", "clawtools-code-mode:controller.js").dispose();
  vm.evalCode(workerData.prelude, "clawtools-code-mode:api.js").dispose();
}

function takeOutput() {
  const entries = [];
  let omittedBytes = 0;
  for (const entry of JSON.parse(invokeString("takeOutput"))) {
    const size = bytes(JSON.stringify(entry));
    if (!outputFull && outputBytes + size <= limits.maxOutputBytes) {
      outputBytes += size;
      entries.push(entry);
    } else {
      outputFull = true;
      omittedBytes += size;
    }
  }
  return { entries, omittedBytes };
}
function safeOutput() {
  try {
    return takeOutput();
  } catch {
    return { entries: [], omittedBytes: 0 };
  }
}

function userLocation(stack) {
  const match = /clawtools-code-mode:user\.js:(\d+):(\d+)/.exec(stack ?? "");
  return match ? USER_FILE + ":" + (Number(match[1]) - 1) + ":" + match[2] : USER_FILE;
}
function userStack(stack) {
  return String(stack ?? "")
    .split("\n")
    .filter((line) => line.includes("clawtools-code-mode:user.js:"))
    .map((line) => line.replace(/clawtools-code-mode:user\.js:(\d+):(\d+)/, (_, l, c) => USER_FILE + ":" + (Number(l) - 1) + ":" + c))
    .join("\n");
}
function classify(error) {
  if (interrupted || error?.message === "interrupted") return { code: "timeout", error: "code mode timeout exceeded" };
  if (error?.message === "out of memory")
    return { code: "memory_limit_exceeded", error: "code mode memory limit exceeded (" + limits.memoryLimitBytes + " bytes)" };
  if (error?.name === "RangeError" && /call stack/.test(error.message ?? ""))
    return { code: "internal_error", error: "RangeError: " + error.message };
  return { code: "internal_error", error: (error?.name ? error.name + ": " : "") + (error?.message ?? String(error)) };
}
function guestError(error) {
  if (error.name === "ReferenceError" && /^(?:require|module|process) is not defined$/.test(error.message))
    return { code: "invalid_input", error: MODULES };
  if (error.message === MODULES) return { code: "invalid_input", error: MODULES };
  const stack = userStack(error.stack);
  return { code: "internal_error", error: error.name + ": " + error.message + (stack ? "\n" + stack : "") };
}

function run(settled) {
  if (!started) {
    started = true;
    let fn;
    try {
      fn = vm.evalCode("(async () => {\n" + workerData.code + "\n})", USER_FILE);
    } catch (error) {
      if (error?.name !== "SyntaxError") throw error;
      const message = String(error.message).slice(0, 240);
      return { code: "invalid_input", error: "SyntaxError at " + userLocation(error.stack) + ": " + message + ". No tools were dispatched; correct the JavaScript source and submit it again." };
    }
    invoke("run", fn).dispose();
  }
  for (const { id, ok, json } of settled) {
    if (!inFlight.delete(id)) continue;
    invoke("settle", vm.newString(id), ok ? vm.true : vm.false, vm.newString(json)).dispose();
  }
  vm.executePendingJobs();
  invoke("drain").dispose();
  vm.executePendingJobs();
  return undefined;
}

function step({ settled, deadline: until }) {
  deadline = until;
  interrupted = false;
  let crossed;
  try {
    crossed = run(settled);
  } catch (error) {
    crossed = classify(error);
  }
  if (!crossed && interrupted) crossed = classify(new Error("interrupted"));
  if (!crossed && failure) crossed = failure;
  if (!crossed) {
    const admission = invokeString("admissionError");
    if (admission) crossed = { code: "invalid_input", error: admission };
  }
  if (crossed) return { status: "failed", ...crossed, output: safeOutput() };
  const output = takeOutput();
  const state = invokeString("status");
  if (state === "error") return { status: "failed", ...guestError(JSON.parse(invokeString("error"))), output };
  const requests = fresh;
  fresh = [];
  for (const request of requests) inFlight.add(request.id);
  const withdrawn = canceled;
  canceled = [];
  if (state === "pending" && inFlight.size === 0)
    return { status: "failed", code: "internal_error", error: "code mode promise is pending without host work", output };
  if (inFlight.size > 0) return { status: "awaiting", requests, canceled: withdrawn, output };
  const json = invokeString("value");
  const originalBytes = bytes(json);
  // an object or array goes whole up to maxValueBytes: the host may keep it for later cells
  const structured = json.startsWith("{") || json.startsWith("[");
  const whole = structured ? Math.max(limits.maxOutputBytes, limits.maxValueBytes || 0) : limits.maxOutputBytes;
  const value = originalBytes <= whole ? { json, originalBytes } : { json: prefix(json, limits.maxOutputBytes), originalBytes };
  return { status: "completed", value, output };
}

create().then(
  () => {
    parentPort.postMessage({ type: "ready" });
    parentPort.on("message", (message) => {
      let result;
      try {
        result = step(message);
      } catch (error) {
        result = { status: "failed", ...classify(error), output: safeOutput() };
      }
      parentPort.postMessage({ type: "step", result });
    });
  },
  (error) => parentPort.postMessage({ type: "ready", error: classify(error).error }),
);
`;
