import { createHash } from "node:crypto";
import { createSocket } from "node:dgram";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import type { Lookup } from "@clawtools/core/safety";

/**
 * A "private" listener that answers HTTP and counts every TCP connection it accepts, plus a UDP
 * socket that counts datagrams (WebRTC's STUN): the attacks below must leave both at 0.
 */
export async function startPrivateListener() {
  let connections = 0;
  let datagrams = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.on("error", () => {});
    socket.end("HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 7\r\n\r\nPRIVATE");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const udp = createSocket("udp4");
  udp.on("message", () => datagrams++);
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    udpPort: udp.address().port,
    get connections() {
      return connections;
    },
    get datagrams() {
      return datagrams;
    },
    close: async () => {
      udp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Names the tests resolve: public.test is the allowed origin; rebind.test answers public once, then loopback. */
export function testLookup(): Lookup & { rebindCalls: number } {
  const state = { rebindCalls: 0 };
  const lookup = async (host: string) => {
    if (host === "public.test") return [{ address: "127.0.0.1", family: 4 }];
    if (host === "rebind.test") {
      state.rebindCalls++;
      return [{ address: state.rebindCalls === 1 ? "93.184.215.14" : "127.0.0.1", family: 4 }];
    }
    if (host === "private.test") return [{ address: "127.0.0.1", family: 4 }];
    throw new Error(`no such test name: ${host}`);
  };
  Object.defineProperty(lookup, "rebindCalls", { get: () => state.rebindCalls });
  return lookup as Lookup & { rebindCalls: number };
}

/** The allowed origin (served as http://public.test:<port>): one page per attack on `target`. */
export async function startAttackPages(priv: { port: number; udpPort: number }) {
  const p = `http://127.0.0.1:${priv.port}`;
  const report = (what: string) => `document.title = ${JSON.stringify(what)}`;
  const pages: Record<string, string> = {
    "/": "<title>Allowed</title><p>allowed origin</p>",
    "/img": `<title>img</title><img src="/redirect?to=${encodeURIComponent(`${p}/img.png`)}" onerror='${report("img failed")}'>`,
    "/fetch": `<title>fetch</title><script>
      Promise.allSettled([
        fetch("/redirect?to=${encodeURIComponent(`${p}/f`)}", { mode: "no-cors" }),
        fetch("${p}/direct", { mode: "no-cors" }),
        fetch("https://127.0.0.1:${priv.port}/tls", { mode: "no-cors" }),
        fetch("http://localhost:${priv.port}/name", { mode: "no-cors" }),
        fetch("http://[::ffff:127.0.0.1]:${priv.port}/mapped", { mode: "no-cors" }),
      ]).then((r) => { ${report("fetch done")} + ":" + r.map((x) => x.status).join(","); });
    </script>`,
    "/ws-allowed": `<title>ws-allowed</title><script>
      const ok = new WebSocket("ws://" + location.host + "/echo");
      ok.onopen = () => { ${report("ws open")}; };
      ok.onerror = () => { ${report("ws error")}; };
    </script>`,
    "/ws": `<title>ws</title><script>
      const ws = new WebSocket("ws://127.0.0.1:${priv.port}/socket");
      ws.onerror = () => { ${report("ws failed")}; };
    </script>`,
    "/shared": `<title>shared</title><script>
      const w = new SharedWorker("/worker.js");
      w.port.onmessage = (e) => { document.title = "worker " + e.data; };
      w.port.start();
    </script>`,
    "/worker.js": `onconnect = (e) => {
      const port = e.ports[0];
      fetch("${p}/worker", { mode: "no-cors" }).finally(() => port.postMessage("done"));
    };`,
    "/iframe": `<title>iframe</title><iframe src="${p}/frame" onload='${report("iframe loaded")}'></iframe>`,
    "/meta": `<title>meta</title><meta http-equiv="refresh" content="0;url=${p}/meta">`,
    "/preconnect": `<title>preconnect</title><link rel="preconnect" href="${p}"><link rel="dns-prefetch" href="${p}">
      <link rel="prefetch" href="${p}/prefetch"><script>setTimeout(() => { ${report("preconnect done")} }, 0)</script>`,
    "/webrtc": `<title>webrtc</title><script>
      const pc = new RTCPeerConnection({ iceServers: [{ urls: "stun:127.0.0.1:${priv.udpPort}" }] });
      pc.createDataChannel("x");
      pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === "complete") { ${report("gathered")} } };
      pc.createOffer().then((o) => pc.setLocalDescription(o));
    </script>`,
  };
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/redirect") {
      res.writeHead(302, { location: url.searchParams.get("to") ?? "/" }).end();
      return;
    }
    const body = pages[url.pathname];
    if (!body) {
      res.writeHead(404).end("not found");
      return;
    }
    const type = url.pathname.endsWith(".js") ? "text/javascript" : "text/html; charset=utf-8";
    res.writeHead(200, { "content-type": type }).end(body);
  });
  // a WebSocket handshake on the allowed origin (RFC 6455 accept key), to prove tunnels still work
  const upgraded = new Set<import("node:stream").Duplex>();
  server.on("upgrade", (req, socket) => {
    upgraded.add(socket);
    socket.on("error", () => {});
    const accept = createHash("sha1")
      .update(`${req.headers["sec-websocket-key"]}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest("base64");
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://public.test:${port}${path}`,
    close: () => {
      for (const socket of upgraded) socket.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
