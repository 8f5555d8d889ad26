import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const PAGES: Record<string, string> = {
  "/form": `<!doctype html><title>Form</title>
<h1>Sign in</h1>
<form action="/done" method="get">
  <label>Email <input name="email"></label>
  <label>Plan <select name="plan"><option value="free">Free</option><option value="pro">Pro</option></select></label>
  <label><input type="checkbox" name="agree"> Agree</label>
  <button type="submit">Send</button>
</form>`,
  "/done": `<!doctype html><title>Done</title><p id="out"></p><script>document.getElementById("out").textContent = "got " + location.search;</script>`,
  "/widgets": `<!doctype html><title>Widgets</title>
<button id="hover" onmouseover="this.textContent='hovered'">Hover me</button>
<input id="keys" aria-label="Keys">
<div id="src" draggable="true" role="button" aria-label="Drag source" style="width:60px;height:30px;background:#ccc">drag</div>
<div id="dst" role="button" aria-label="Drop target" style="width:90px;height:40px;background:#eee;margin-top:20px">drop</div>
<p id="late"></p>
<button id="ask" onclick="document.getElementById('answer').textContent = String(prompt('Name?'))">Ask</button>
<p id="answer"></p>
<input type="file" id="file" aria-label="Attach" onchange="document.getElementById('fname').textContent = this.files[0].name + ':' + this.files[0].size">
<button id="pick" onclick="document.getElementById('file').click()">Pick file</button>
<p id="fname"></p>
<script>
  const src = document.getElementById("src"), dst = document.getElementById("dst");
  src.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", "x"));
  dst.addEventListener("dragover", (e) => e.preventDefault());
  dst.addEventListener("drop", (e) => { e.preventDefault(); dst.textContent = "dropped"; });
  setTimeout(() => { document.getElementById("late").textContent = "arrived"; }, 300);
  console.log("log line"); console.warn("warn line"); console.error("error line");
</script>`,
  "/framed": `<!doctype html><title>Framed</title><nav><a href="#home">Home</a></nav>
<main id="main"><button>Outside</button><section id="box"><button>Inside</button></section></main>
<iframe id="child" srcdoc="<button>In the frame</button>"></iframe>`,
  // a shop page whose words sit in div, span, section, table and li, and change on a click
  "/shop": `<!doctype html><title>Shop</title>
<header><nav><a href="/form">Home</a></nav></header>
<main>
<div>Article text in a div.</div><div><span>Price: 42 EUR</span></div><p>para</p><button>Go</button>
<section><h2>Details</h2><span>Ships in 3 days</span> <span>from Lyon</span></section>
<table><thead><tr><th>Size</th><th>Stock</th></tr></thead><tbody><tr><td>M</td><td><span>7 left</span></td></tr></tbody></table>
<ul><li>Free returns</li><li><span>2-year warranty</span></li></ul>
<div id="result"><span>No results yet</span></div>
<button onclick="document.getElementById('result').innerHTML='<span>3 results for shoes</span>'">Search</button>
</main>`,
  "/menu": `<!doctype html><title>Menu</title>
<div id="popover" style="visibility:hidden"><span>Closed label</span>
  <ul role="menu" style="visibility:visible"><li role="menuitem" onclick="document.getElementById('picked').textContent='opened'">Open</li><li role="menuitem">Save</li></ul>
</div><p id="picked"></p>`,
  "/dialogs": `<!doctype html><title>Dialogs</title>
<button id="alert" onclick="alert('Saved!'); document.getElementById('out').textContent = 'after alert'">Alert</button>
<button id="confirm" onclick="document.getElementById('out').textContent = confirm('Delete the file?') ? 'confirmed' : 'cancelled'">Confirm</button>
<button id="prompt" onclick="document.getElementById('out').textContent = 'name=' + prompt('Name?', 'anon')">Prompt</button>
<p id="out"></p>`,
  "/confirm-on-load": `<!doctype html><title>Loading</title><script>document.title = confirm("Stay on this page?") ? "stayed" : "left";</script><p>body</p>`,
  "/covered": `<!doctype html><title>Covered</title><button onclick="document.title='clicked'">Under the overlay</button>
<div style="position:fixed;inset:0;background:rgba(0,0,0,0.4)"></div>`,
  "/redirects-late": `<!doctype html><title>Redirects late</title><button onclick="setTimeout(() => { location.href = '/slow'; }, 50)">Go later</button>`,
  "/to-slow": `<!doctype html><title>Before slow</title><a href="/slow">Open the slow page</a>`,
  "/long": `<!doctype html><title>Long</title>${Array.from({ length: 400 }, (_, i) => `<p><a href="#a${i}">Link number ${i}</a></p>`).join("")}`,
};

/**
 * A loopback server for the browser tests; one per test file. `/slow` answers only when `answerSlow`
 * is called (or the server closes): a server that holds a navigation.
 */
export async function startPages(): Promise<{
  url: (path: string) => string;
  close: () => Promise<void>;
  server: Server;
  /** Answers the held `/slow` requests with a page titled "Late"; how many there were. */
  answerSlow: () => number;
  /** How many `/slow` requests are held now. */
  slowHeld: () => number;
}> {
  const held: ServerResponse[] = [];
  const answerSlow = () => {
    const all = held.splice(0);
    for (const res of all)
      res
        .writeHead(200, { "content-type": "text/html" })
        .end("<!doctype html><title>Late</title><p>late</p>");
    return all.length;
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (path === "/slow") {
      held.push(res);
      return;
    }
    const body = PAGES[path];
    if (!body) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    answerSlow,
    slowHeld: () => held.length,
    close: () =>
      new Promise((resolve) => {
        answerSlow();
        server.close(() => resolve());
      }),
  };
}
