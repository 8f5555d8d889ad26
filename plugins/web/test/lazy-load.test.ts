import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { createWebFetchTool } from "../src/index.js";
import { serve } from "./server.js";

// this file runs in a fresh process (pool: forks): what the import loaded is all that is loaded
const loaded = (name: RegExp) => Object.keys(createRequire(import.meta.url).cache).some((k) => name.test(k));
const READABILITY = /[\\/]@mozilla[\\/]readability[\\/]/;
const TURNDOWN = /[\\/]turndown[\\/]lib[\\/]/;
const GFM = /[\\/]@joplin[\\/]turndown-plugin-gfm[\\/]/;
const UNDICI = /[\\/]undici[\\/]/;
const atImport = [READABILITY, TURNDOWN, GFM, UNDICI].map(loaded);

describe("importing the web section costs only what it uses", () => {
  it("loads the extraction stack on the first HTML response, not at import", async () => {
    expect(atImport).toEqual([false, false, false, false]);
    const server = await serve((req, res) => {
      if (req.url === "/plain") res.writeHead(200, { "content-type": "text/plain" }).end("plain text");
      else res.writeHead(200, { "content-type": "text/html" }).end("<p>Some <b>html</b></p>");
    });
    const tool = createWebFetchTool({}, { allowPrivateNetwork: true });
    await tool.execute("c", { url: `${server.url}/plain` });
    expect([READABILITY, TURNDOWN, GFM].map(loaded)).toEqual([false, false, false]);
    await tool.execute("c", { url: `${server.url}/page` });
    expect([READABILITY, TURNDOWN, GFM, UNDICI].map(loaded)).toEqual([true, true, true, true]);
  });
});
