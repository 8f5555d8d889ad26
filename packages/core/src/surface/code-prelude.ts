/**
 * Guest JavaScript that builds code mode's API inside the sandbox, as OpenClaw 9.6 shapes it:
 * every trusted catalog tool as an async global (`await read({ path })`), mounted MCP servers'
 * tools under `MCP.<server>.<tool>`, `catalog.search(query)` / `catalog.all()` returning
 * callable handles with `describe()`, and `API.list(prefix)` / `API.read(path)` over the typed
 * declarations, and `results.save/load/delete` for values kept across cells. Every call is a
 * bridge request the host answers; nothing here is trusted by it.
 */
export const CODE_MODE_PRELUDE = String.raw`
(() => {
  const bridge = globalThis.__sandboxBridge;
  const bindings = Array.isArray(globalThis.__clawtoolsCatalog) ? globalThis.__clawtoolsCatalog : [];
  const apiFiles = Array.isArray(globalThis.__clawtoolsApiFiles) ? globalThis.__clawtoolsApiFiles : [];
  delete globalThis.__sandboxBridge;
  delete globalThis.__clawtoolsCatalog;
  delete globalThis.__clawtoolsApiFiles;
  const request = bridge.request;
  const handles = new Map();

  function handle(binding) {
    const known = handles.get(binding.callableName);
    if (known) return known;
    const mcp = binding.source === "mcp";
    const fn = mcp
      ? (input) => request("mcp", [binding.callableName, input ?? {}])
      : (input) => request("call", [binding.callableName, input ?? {}]);
    const metadata = Object.freeze({
      callableName: binding.callableName,
      toolName: binding.name,
      label: binding.label,
      description: binding.description,
      source: binding.source,
      input: binding.input,
      output: binding.output,
    });
    Object.defineProperty(fn, "name", { value: binding.callableName });
    for (const [key, value] of Object.entries(metadata)) Object.defineProperty(fn, key, { value, enumerable: true });
    Object.defineProperties(fn, {
      describe: { value: () => request("describe", [binding.callableName]), enumerable: true },
      toJSON: { value: () => metadata },
    });
    const frozen = Object.freeze(fn);
    handles.set(binding.callableName, frozen);
    return frozen;
  }

  const catalog = Object.freeze({
    search: async (query, options) =>
      Object.freeze((await request("search", [String(query ?? ""), options ?? {}])).map((binding) => handle(binding))),
    all: () => Object.freeze(bindings.map((binding) => handle(binding))),
  });

  function normalizePath(value) {
    const text = String(value ?? "").trim().replace(/^\/+/, "");
    if (!text || text.split("/").some((segment) => !segment || segment === "." || segment === ".."))
      throw new Error("invalid API file path");
    return text;
  }
  const files = [
    ...apiFiles.map((file) => ({ path: file.path, description: file.description, bytes: file.bytes })),
    ...bindings.filter((b) => b.source !== "mcp").map((b) => ({ path: "tools/" + b.callableName + ".d.ts" })),
  ];
  const API = Object.freeze({
    list: async (prefix = "") => {
      const raw = prefix == null ? "" : String(prefix).trim().replace(/\/+$/, "");
      const normalized = raw === "" ? "" : normalizePath(raw);
      return {
        files: files
          .filter((f) => !normalized || f.path === normalized || f.path.startsWith(normalized + "/"))
          .map((f) => Object.freeze({ ...f })),
      };
    },
    read: async (path) => request("api", [normalizePath(path)]),
  });

  const servers = Object.create(null);
  for (const binding of bindings) {
    if (binding.source !== "mcp") continue;
    const server = (servers[binding.server] ??= Object.create(null));
    server[binding.method] = handle(binding);
  }
  const MCP = Object.create(null);
  for (const [name, tools] of Object.entries(servers)) MCP[name] = Object.freeze(tools);

  for (const binding of bindings) {
    if (binding.source === "mcp" || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(binding.callableName)) continue;
    Object.defineProperty(globalThis, binding.callableName, { value: handle(binding), enumerable: true, configurable: true });
  }
  // values kept across cells of this session; the host holds them, the guest only an id
  const results = Object.freeze({
    save: async (value) => request("resultSave", [value === undefined ? null : value]),
    load: async (id) => request("resultLoad", [id]),
    delete: async (id) => request("resultDelete", [id]),
  });
  Object.defineProperties(globalThis, {
    API: { value: API, enumerable: true },
    results: { value: results, enumerable: true },
    catalog: { value: catalog, enumerable: true },
    MCP: { value: Object.freeze(MCP), enumerable: true },
  });
})();
`;
