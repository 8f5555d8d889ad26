/**
 * Bytes to text with the page's own encoding: the Content-Type header's charset first, then a
 * byte-order mark, then `<meta charset>` or `<meta http-equiv="Content-Type" content="…; charset=…">`
 * in the first 1,024 bytes (where the HTML standard's prescan looks), then UTF-8.
 */
export function sniffCharset(body: Uint8Array, contentType: string): string {
  const declared = /charset\s*=\s*["']?([^;"'\s]+)/i.exec(contentType)?.[1];
  if (declared) return declared.toLowerCase();
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return "utf-8";
  if (body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
  if (body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
  const head = Buffer.from(body.subarray(0, 1024)).toString("latin1");
  const meta =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)/i.exec(head)?.[1] ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset\s*=\s*([\w:.-]+)/i.exec(head)?.[1];
  return meta ? meta.toLowerCase() : "utf-8";
}

// WHATWG decodes these labels as windows-1252; Node before 23 decodes them as ISO-8859-1,
// which turns 0x80–0x9F (€, ‘’, “”, –, —, …) into C1 control characters.
const WINDOWS_1252_LABELS = new Set([
  "windows-1252",
  "cp1252",
  "x-cp1252",
  "iso-8859-1",
  "iso8859-1",
  "iso_8859-1",
  "latin1",
  "l1",
  "us-ascii",
  "ascii",
  "ansi_x3.4-1968",
]);
const C1_AS_1252 =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

export function decodeBody(body: Uint8Array, contentType: string): string {
  const charset = sniffCharset(body, contentType);
  if (WINDOWS_1252_LABELS.has(charset))
    return Buffer.from(body)
      .toString("latin1")
      .replace(/[\u0080-\u009f]/g, (c) => C1_AS_1252[c.charCodeAt(0) - 0x80]!);
  try {
    return new TextDecoder(charset === "utf8" ? "utf-8" : charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}
